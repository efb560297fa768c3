/**
 * The webhook endpoint store as configured, its secrets sealed with the payload encryption keys: in the
 * engine's PostgreSQL database when DATABASE_URL names one (API and workers on several
 * machines), else its own SQLite file under DATA_DIR.
 */
import type { Config } from '../config/env';
import { resolvePayloadKeys, type PayloadKeyConfig } from '../temporal/encryption-key';
import type { WebhookEndpointStore } from './endpoint-store';
import { PgWebhookEndpointStore, SqliteWebhookEndpointStore, webhookEndpointStorePath } from './sql-endpoint-store';

export async function openWebhookEndpointStore(
  config: PayloadKeyConfig & Partial<Pick<Config, 'DATABASE_URL'>>,
): Promise<WebhookEndpointStore> {
  const keys = resolvePayloadKeys(config);
  if (config.DATABASE_URL)
    return PgWebhookEndpointStore.open({
      connectionString: config.DATABASE_URL,
      encryptionKey: keys.active,
      previousKeys: keys.previous,
    });
  return Promise.resolve(
    new SqliteWebhookEndpointStore({
      file: webhookEndpointStorePath(config.DATA_DIR),
      encryptionKey: keys.active,
      previousKeys: keys.previous,
    }),
  );
}
