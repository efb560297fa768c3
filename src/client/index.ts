/**
 * The engine API's clients. EngineClient (the `payouts` CLI's) is typed from the served OpenAPI document;
 * BatchApiClient, the benchmark's and the chaos run's, parses each answer with the schema the server builds it from.
 */
export { BatchApiClient, BatchApiError, BatchApiUnreachableError, type BatchApiClientOptions } from './batch-api-client';
export { EngineClient, EngineApiError, EngineApiUnreachableError, type EngineClientOptions } from './engine-client';
