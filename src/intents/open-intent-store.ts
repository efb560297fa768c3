/** The intent store beside the payout registry: PostgreSQL when DATABASE_URL names a server, else the batch store's SQLite file. */
import { batchStorePath } from '../batches/sql-batch-store';
import type { Config } from '../config/env';
import type { IntentStore } from './intent-store';
import { pgIntentStore, sqliteIntentStore } from './sql-intent-store';

export async function openIntentStore(config: Pick<Config, 'DATA_DIR'> & Partial<Pick<Config, 'DATABASE_URL'>>): Promise<IntentStore> {
  if (config.DATABASE_URL) return pgIntentStore(config.DATABASE_URL);
  return Promise.resolve(sqliteIntentStore(batchStorePath(config.DATA_DIR)));
}
