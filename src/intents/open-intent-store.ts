/** The intent store beside the payout registry, as configured (src/db/open-sealed-store.ts); its answers sealed. */
import { engineDatabasePath } from '../db/database';
import { openSealedStore, type SealedStoreConfig } from '../db/open-sealed-store';
import type { IntentStore } from './intent-store';
import { pgIntentStore, sqliteIntentStore } from './sql-intent-store';

export function openIntentStore(config: SealedStoreConfig): Promise<IntentStore> {
  return openSealedStore(config, {
    pg: pgIntentStore,
    sqlite: (dataDir, keys) => sqliteIntentStore(engineDatabasePath(dataDir), keys),
  });
}
