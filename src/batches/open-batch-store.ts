/**
 * The engine's batch store as configured, sealed with the payload encryption keys: PostgreSQL when
 * BATCH_STORE_URL names a server (API and workers on several machines), else SQLite under DATA_DIR.
 */
import type { Config } from '../config/env';
import { resolvePayloadKeys, type PayloadKeyConfig } from '../temporal/encryption-key';
import type { BatchStore } from './batch-store';
import { PgBatchStore } from './pg-batch-store';
import { batchStorePath, SqliteBatchStore } from './sqlite-batch-store';

export async function openBatchStore(config: PayloadKeyConfig & Pick<Config, 'BATCH_STORE_URL'>): Promise<BatchStore> {
  const keys = resolvePayloadKeys(config);
  if (config.BATCH_STORE_URL) return PgBatchStore.open({ connectionString: config.BATCH_STORE_URL, encryptionKey: keys.active, previousKeys: keys.previous });
  return Promise.resolve(new SqliteBatchStore({ file: batchStorePath(config.DATA_DIR), encryptionKey: keys.active, previousKeys: keys.previous }));
}
