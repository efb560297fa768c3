/** The engine's batch store as configured: SQLite under DATA_DIR, sealed with the payload encryption keys. */
import { resolvePayloadKeys, type PayloadKeyConfig } from '../temporal/encryption-key';
import type { BatchStore } from './batch-store';
import { batchStorePath, SqliteBatchStore } from './sqlite-batch-store';

export function openBatchStore(config: PayloadKeyConfig): BatchStore {
  const keys = resolvePayloadKeys(config);
  return new SqliteBatchStore({ file: batchStorePath(config.DATA_DIR), encryptionKey: keys.active, previousKeys: keys.previous });
}
