/**
 * The intent store in the batch store's PostgreSQL database (BATCH_STORE_URL), which the API and the
 * workers on several machines share. A claim is one upsert: PostgreSQL serialises two claims of one key
 * on its primary key, so exactly one run holds an intent.
 */
import { Pool } from 'pg';
import { PG_BATCH_MIGRATIONS } from '../batches/pg-batch-schema';
import { applyPgMigrations } from '../db/postgres';
import { claimOf, claimSql, intentRowSchema, type Claim, type Intent, type IntentKey, type IntentStore, type IntentUpdate } from './intent-store';

const FIND = 'SELECT * FROM money_intents WHERE business_id = $1 AND kind = $2';

export class PgIntentStore implements IntentStore {
  private readonly pool: Pool;
  private closing: Promise<void> | undefined;

  private constructor(connectionString: string, poolSize: number) {
    this.pool = new Pool({ connectionString, max: poolSize });
    // An idle connection the server dropped must not take the process down; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  /** Connects and applies the batch store's migrations not yet applied (the table is one of them). */
  static async open(options: { connectionString: string; poolSize?: number }): Promise<PgIntentStore> {
    const store = new PgIntentStore(options.connectionString, options.poolSize ?? 4);
    try {
      await applyPgMigrations(store.pool, PG_BATCH_MIGRATIONS);
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async claim(key: IntentKey, runId: string, at = new Date()): Promise<Claim> {
    const claimed = await this.pool.query(claimSql((_name, index) => `$${index}`), [key.businessId, key.kind, runId, at]);
    if (claimed.rows[0] !== undefined) return claimOf(claimed.rows[0], undefined, runId);
    // Not ours now: the row exists (nothing deletes intents), held by this run already or by another.
    const found = await this.pool.query(FIND, [key.businessId, key.kind]);
    return claimOf(undefined, found.rows[0], runId);
  }

  async record(key: IntentKey, runId: string, update: IntentUpdate, at = new Date()): Promise<void> {
    await this.pool.query(
      'UPDATE money_intents SET state = $1, provider_id = COALESCE($2, provider_id), answer = COALESCE($3, answer), updated_at = $4 WHERE business_id = $5 AND kind = $6 AND run_id = $7',
      [update.state, update.providerId ?? null, update.answer ?? null, at, key.businessId, key.kind, runId],
    );
  }

  async find(key: IntentKey): Promise<Intent | undefined> {
    const found = await this.pool.query(FIND, [key.businessId, key.kind]);
    return found.rows[0] === undefined ? undefined : intentRowSchema.parse(found.rows[0]);
  }

  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }
}
