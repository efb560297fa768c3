/** The engine's batch store as configured: SQLite under DATA_DIR, sealed with the payload encryption key. */
import type { Config } from '../config/env';
import { resolveEncryptionKey } from '../temporal/encryption-key';
import type { BatchStore } from './batch-store';
import { batchStorePath, SqliteBatchStore } from './sqlite-batch-store';

export function openBatchStore(config: Pick<Config, 'DATA_DIR' | 'PAYLOAD_ENCRYPTION_KEY' | 'PAYLOAD_ENCRYPTION_KEY_ID'>): BatchStore {
  return new SqliteBatchStore({ file: batchStorePath(config.DATA_DIR), encryptionKey: resolveEncryptionKey(config).key });
}
