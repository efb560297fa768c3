/**
 * The engine API's client, for merchants' own code as for the `payouts` CLI, the benchmark and the
 * chaos run: typed calls whose answers are parsed with the schemas the server builds them from.
 */
export { BatchApiClient, BatchApiError, BatchApiUnreachableError, type BatchApiClientOptions } from './batch-api-client';
