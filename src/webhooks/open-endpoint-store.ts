/**
 * The webhook endpoint store as configured, its secrets sealed with the payload encryption keys: in the
 * batch store's PostgreSQL database when BATCH_STORE_URL names one (API and workers on several
 * machines), else its own SQLite file under DATA_DIR.
 */
import type { Config } from '../config/env';
import { resolvePayloadKeys, type PayloadKeyConfig } from '../temporal/encryption-key';
import type { WebhookEndpointStore } from './endpoint-store';
import { PgWebhookEndpointStore } from './pg-endpoint-store';
import { SqliteWebhookEndpointStore, webhookEndpointStorePath } from './sqlite-endpoint-store';

export async function openWebhookEndpointStore(config: PayloadKeyConfig & Pick<Config, 'BATCH_STORE_URL'>): Promise<WebhookEndpointStore> {
  const keys = resolvePayloadKeys(config);
  if (config.BATCH_STORE_URL) return PgWebhookEndpointStore.open({ connectionString: config.BATCH_STORE_URL, encryptionKey: keys.active, previousKeys: keys.previous });
  return Promise.resolve(new SqliteWebhookEndpointStore({ file: webhookEndpointStorePath(config.DATA_DIR), encryptionKey: keys.active, previousKeys: keys.previous }));
}
