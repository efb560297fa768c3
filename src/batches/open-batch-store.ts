/**
 * The engine's batch store as configured, sealed with the payload encryption keys: PostgreSQL when
 * DATABASE_URL names a server (API and workers on several machines), else SQLite under DATA_DIR.
 */
import type { Config } from '../config/env';
import { resolvePayloadKeys, type PayloadKeyConfig } from '../temporal/encryption-key';
import type { BatchStore } from './batch-store';
import { engineDatabasePath } from '../db/database';
import { PgBatchStore, SqliteBatchStore } from './sql-batch-store';

export async function openBatchStore(
  config: PayloadKeyConfig & Partial<Pick<Config, 'DATABASE_URL'>>,
): Promise<BatchStore> {
  const keys = resolvePayloadKeys(config);
  if (config.DATABASE_URL)
    return PgBatchStore.open({
      connectionString: config.DATABASE_URL,
      encryptionKey: keys.active,
      previousKeys: keys.previous,
    });
  return Promise.resolve(
    new SqliteBatchStore({
      file: engineDatabasePath(config.DATA_DIR),
      encryptionKey: keys.active,
      previousKeys: keys.previous,
    }),
  );
}
