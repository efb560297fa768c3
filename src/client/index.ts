/** The engine API's client, typed from the served OpenAPI document (examples/engine-api.d.ts). */
export { EngineClient, EngineApiError, EngineApiUnreachableError, type EngineClientOptions } from './engine-client';
