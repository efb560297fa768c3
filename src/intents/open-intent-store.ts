/** The intent store beside the payout registry: PostgreSQL when BATCH_STORE_URL names a server, else the batch store's SQLite file. */
import { batchStorePath } from '../batches/sqlite-batch-store';
import type { Config } from '../config/env';
import type { IntentStore } from './intent-store';
import { PgIntentStore } from './pg-intent-store';
import { SqliteIntentStore } from './sqlite-intent-store';

export async function openIntentStore(config: Pick<Config, 'BATCH_STORE_URL' | 'DATA_DIR'>): Promise<IntentStore> {
  if (config.BATCH_STORE_URL) return PgIntentStore.open({ connectionString: config.BATCH_STORE_URL });
  return Promise.resolve(new SqliteIntentStore({ file: batchStorePath(config.DATA_DIR) }));
}
