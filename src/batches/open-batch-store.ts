/** The engine's batch store as configured (src/db/open-sealed-store.ts), in the engine's database. */
import { engineDatabasePath } from '../db/database';
import { openSealedStore, sealingKeys, type SealedStoreConfig } from '../db/open-sealed-store';
import type { BatchStore } from './batch-store';
import { PgBatchStore, SqliteBatchStore } from './sql-batch-store';

export function openBatchStore(config: SealedStoreConfig): Promise<BatchStore> {
  return openSealedStore(config, {
    pg: (connectionString, keys) => PgBatchStore.open({ connectionString, ...sealingKeys(keys) }),
    sqlite: (dataDir, keys) => new SqliteBatchStore({ file: engineDatabasePath(dataDir), ...sealingKeys(keys) }),
  });
}
