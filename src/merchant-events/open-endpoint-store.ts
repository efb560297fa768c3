/**
 * The webhook endpoint store as configured (src/db/open-sealed-store.ts), its secrets sealed: in the engine's
 * PostgreSQL database, or in its own SQLite file under DATA_DIR.
 */
import { openSealedStore, sealingKeys, type SealedStoreConfig } from '../db/open-sealed-store';
import type { WebhookEndpointStore } from './endpoint-store';
import { PgWebhookEndpointStore, SqliteWebhookEndpointStore, webhookEndpointStorePath } from './sql-endpoint-store';

export function openWebhookEndpointStore(config: SealedStoreConfig): Promise<WebhookEndpointStore> {
  return openSealedStore(config, {
    pg: (connectionString, keys) => PgWebhookEndpointStore.open({ connectionString, ...sealingKeys(keys) }),
    sqlite: (dataDir, keys) =>
      new SqliteWebhookEndpointStore({ file: webhookEndpointStorePath(dataDir), ...sealingKeys(keys) }),
  });
}
