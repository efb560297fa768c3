/**
 * The only place that builds Temporal clients and data converters, so that every client and worker
 * encrypts payloads the same way and reaches the frontend the same way (TLS when configured).
 */
import { readFileSync } from 'node:fs';
import { Client, Connection, type ConnectionLike, type TLSConfig } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { Config } from '../config/env';
import { resolvePayloadKeys } from './encryption-key';
import { AesGcmPayloadCodec } from './payload-codec';
import { requestIdClientInterceptor } from './request-id-interceptor';
import type { Tracing } from '../telemetry/tracing';

export type TemporalConfig = Pick<
  Config,
  | 'TEMPORAL_ADDRESS'
  | 'TEMPORAL_NAMESPACE'
  | 'TEMPORAL_TASK_QUEUE'
  | 'PAYLOAD_ENCRYPTION_KEY'
  | 'PAYLOAD_ENCRYPTION_KEY_ID'
  | 'PAYLOAD_ENCRYPTION_PREVIOUS_KEYS'
  | 'DATA_DIR'
  | TemporalTlsVariable
>;

type TemporalTlsVariable = 'TEMPORAL_TLS_CA' | 'TEMPORAL_TLS_CERT' | 'TEMPORAL_TLS_KEY' | 'TEMPORAL_TLS_SERVER_NAME';

/** TLS when any TEMPORAL_TLS_* is set (with a client certificate: mTLS); plaintext otherwise, as the local dev server speaks. */
function temporalTls(config: Pick<Config, TemporalTlsVariable>): TLSConfig | undefined {
  const {
    TEMPORAL_TLS_CA: ca,
    TEMPORAL_TLS_CERT: cert,
    TEMPORAL_TLS_KEY: key,
    TEMPORAL_TLS_SERVER_NAME: serverName,
  } = config;
  if (!ca && !cert && !serverName) return undefined;
  return {
    ...(ca ? { serverRootCACertificate: readFileSync(ca) } : {}),
    ...(cert && key ? { clientCertPair: { crt: readFileSync(cert), key: readFileSync(key) } } : {}),
    ...(serverName ? { serverNameOverride: serverName } : {}),
  };
}

export type TemporalEndpointConfig = Pick<Config, 'TEMPORAL_ADDRESS' | TemporalTlsVariable>;

/** Where and how to reach the Temporal frontend, for client and worker connections alike. */
export function temporalConnectionOptions(config: TemporalEndpointConfig): { address: string; tls?: TLSConfig } {
  const tls = temporalTls(config);
  return tls ? { address: config.TEMPORAL_ADDRESS, tls } : { address: config.TEMPORAL_ADDRESS };
}

export function createPayloadCodec(config: TemporalConfig): AesGcmPayloadCodec {
  const keys = resolvePayloadKeys(config);
  return new AesGcmPayloadCodec(keys.active, keys.previous);
}

/** The module every client, worker and workflow bundle takes its failure converter from (failures' text encrypted). */
export const FAILURE_CONVERTER_PATH = require.resolve('./failure-converter');

export function createDataConverter(config: TemporalConfig): DataConverter {
  return { payloadCodecs: [createPayloadCodec(config)], failureConverterPath: FAILURE_CONVERTER_PATH };
}

export interface TemporalClientHandle {
  client: Client;
  connection: ConnectionLike;
  close(): Promise<void>;
}

function clientOn(
  connection: ConnectionLike,
  config: TemporalConfig,
  tracing: Tracing | undefined,
): TemporalClientHandle {
  const client = new Client({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    dataConverter: createDataConverter(config),
    interceptors: { workflow: [requestIdClientInterceptor(), ...(tracing?.workflowClientInterceptors ?? [])] },
  });
  return { client, connection, close: () => connection.close() };
}

/** Connects now; fails if the server does not answer. */
export async function connectClient(config: TemporalConfig, tracing?: Tracing): Promise<TemporalClientHandle> {
  return clientOn(await Connection.connect(temporalConnectionOptions(config)), config, tracing);
}

/** Connects on first use, so a process can start (and report not-ready) while Temporal is down. */
export function lazyClient(config: TemporalConfig, tracing?: Tracing): TemporalClientHandle {
  return clientOn(Connection.lazy(temporalConnectionOptions(config)), config, tracing);
}

/**
 * A client on a worker's own connection (a NativeConnection: the SDK's Rust core, not a second gRPC stack in
 * JavaScript): the worker's activities start workflows (a batch's payouts) and send signals without paying
 * for a JavaScript gRPC client on the worker's main thread. Closing it leaves the connection to the worker.
 */
export function clientOnWorkerConnection(
  connection: ConnectionLike,
  config: TemporalConfig,
  tracing?: Tracing,
): TemporalClientHandle {
  return { ...clientOn(connection, config, tracing), close: () => Promise.resolve() };
}

/** Readiness probe: the namespace answers. */
export async function checkTemporal(handle: TemporalClientHandle, namespace: string): Promise<void> {
  await handle.connection.workflowService.describeNamespace({ namespace });
}
