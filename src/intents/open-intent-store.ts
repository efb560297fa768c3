/**
 * The intent store beside the payout registry: PostgreSQL when DATABASE_URL names a server, else the batch store's
 * SQLite file; its answers sealed with the payload encryption keys.
 */
import type { Config } from '../config/env';
import { engineDatabasePath } from '../db/database';
import { resolvePayloadKeys, type PayloadKeyConfig } from '../temporal/encryption-key';
import type { IntentStore } from './intent-store';
import { pgIntentStore, sqliteIntentStore } from './sql-intent-store';

export async function openIntentStore(
  config: PayloadKeyConfig & Partial<Pick<Config, 'DATABASE_URL'>>,
): Promise<IntentStore> {
  const keys = resolvePayloadKeys(config);
  if (config.DATABASE_URL) return pgIntentStore(config.DATABASE_URL, keys);
  return Promise.resolve(sqliteIntentStore(engineDatabasePath(config.DATA_DIR), keys));
}
