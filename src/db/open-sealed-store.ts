/**
 * Where a store whose rows are sealed with the payload encryption keys lives, as configured: in the
 * PostgreSQL server DATABASE_URL names (API and workers on several machines), else in a SQLite file under DATA_DIR.
 */
import type { Config } from '../config/env';
import { resolvePayloadKeys, type PayloadKeyConfig, type PayloadKeys } from '../temporal/encryption-key';

export type SealedStoreConfig = PayloadKeyConfig & Partial<Pick<Config, 'DATABASE_URL'>>;

/** How one module opens its store in each place, with the keys it seals by. */
export interface SealedStoreOpeners<Store> {
  pg(connectionString: string, keys: PayloadKeys): Promise<Store>;
  sqlite(dataDir: string, keys: PayloadKeys): Store;
}

export async function openSealedStore<Store>(
  config: SealedStoreConfig,
  open: SealedStoreOpeners<Store>,
): Promise<Store> {
  const keys = resolvePayloadKeys(config);
  if (config.DATABASE_URL) return open.pg(config.DATABASE_URL, keys);
  return Promise.resolve(open.sqlite(config.DATA_DIR, keys));
}

/** The keys as a sealing store's options name them: the active one seals, the previous ones only open. */
export function sealingKeys(keys: PayloadKeys): {
  encryptionKey: PayloadKeys['active'];
  previousKeys: PayloadKeys['previous'];
} {
  return { encryptionKey: keys.active, previousKeys: keys.previous };
}
