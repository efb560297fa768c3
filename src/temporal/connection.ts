/**
 * The only place that builds Temporal clients and data converters, so that every client and worker
 * encrypts payloads the same way.
 */
import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { Config } from '../config/env';
import { resolveEncryptionKey } from './encryption-key';
import { AesGcmPayloadCodec } from './payload-codec';

export type TemporalConfig = Pick<
  Config,
  'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'TEMPORAL_TASK_QUEUE' | 'PAYLOAD_ENCRYPTION_KEY' | 'PAYLOAD_ENCRYPTION_KEY_ID' | 'DATA_DIR'
>;

export function createPayloadCodec(config: TemporalConfig): AesGcmPayloadCodec {
  return new AesGcmPayloadCodec(resolveEncryptionKey(config));
}

export function createDataConverter(config: TemporalConfig): DataConverter {
  return { payloadCodecs: [createPayloadCodec(config)] };
}

export interface TemporalClientHandle {
  client: Client;
  connection: Connection;
  close(): Promise<void>;
}

function clientOn(connection: Connection, config: TemporalConfig): TemporalClientHandle {
  const client = new Client({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    dataConverter: createDataConverter(config),
  });
  return { client, connection, close: () => connection.close() };
}

/** Connects now; fails if the server does not answer. */
export async function connectClient(config: TemporalConfig): Promise<TemporalClientHandle> {
  return clientOn(await Connection.connect({ address: config.TEMPORAL_ADDRESS }), config);
}

/** Connects on first use, so a process can start (and report not-ready) while Temporal is down. */
export function lazyClient(config: TemporalConfig): TemporalClientHandle {
  return clientOn(Connection.lazy({ address: config.TEMPORAL_ADDRESS }), config);
}

/** Readiness probe: the namespace answers. */
export async function checkTemporal(handle: TemporalClientHandle, namespace: string): Promise<void> {
  await handle.connection.workflowService.describeNamespace({ namespace });
}
