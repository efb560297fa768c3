/**
 * The intent store, written once over a SQL runner (src/db/sql.ts), in the batch store's database:
 * SQLite (`${DATA_DIR}/batches.sqlite`, on a connection of its own) or PostgreSQL (DATABASE_URL). A claim
 * is one upsert inside a write transaction: of two runs claiming one key at once, one holds it. Answers are
 * sealed as they are written and opened as they are read (sealed-answer.ts).
 */
import { z } from 'zod';
import { openPgDatabase, openSqliteDatabase } from '../db/database';
import type { SqlDialect, SqlRunner } from '../db/sql';
import { intentSchema } from './intent-schema';
import type { PayloadKeys } from '../temporal/encryption-key';
import {
  intentRowSchema,
  type Claim,
  type Intent,
  type IntentKey,
  type IntentKind,
  type IntentStore,
  type IntentUpdate,
} from './intent-store';
import { IntentAnswerSealer } from './sealed-answer';

const businessIdRow = z.object({ business_id: z.string() });

const FIND = 'SELECT * FROM money_intents WHERE business_id = $1 AND kind = $2';
const OF_PROVIDER_ID = 'SELECT business_id FROM money_intents WHERE provider_id = $1 AND kind = $2';

/** Insert, or take over an intent the provider refused; RETURNING answers a row only when this run now holds it. */
const CLAIM = `INSERT INTO money_intents (business_id, kind, run_id, state, provider_id, answer, claimed_at, updated_at)
  VALUES ($1, $2, $3, 'CLAIMED', NULL, NULL, $4, $4)
  ON CONFLICT (business_id, kind) DO UPDATE SET run_id = excluded.run_id, state = 'CLAIMED', provider_id = NULL, answer = NULL,
    claimed_at = excluded.claimed_at, updated_at = excluded.updated_at
  WHERE money_intents.state = 'REFUSED'
  RETURNING *`;

const RECORD =
  'UPDATE money_intents SET state = $1, provider_id = COALESCE($2, provider_id), answer = COALESCE($3, answer), updated_at = $4 WHERE business_id = $5 AND kind = $6 AND run_id = $7';

const TAKE_OVER =
  "UPDATE money_intents SET run_id = $1, answer = $2, claimed_at = $3, updated_at = $3 WHERE business_id = $4 AND kind = $5 AND run_id = $6 AND state = 'CLAIMED'";

export class SqlIntentStore implements IntentStore {
  private readonly answers: IntentAnswerSealer;

  constructor(
    private readonly sql: SqlRunner,
    private readonly dialect: SqlDialect,
    keys: PayloadKeys,
  ) {
    this.answers = new IntentAnswerSealer(keys);
  }

  claim(key: IntentKey, runId: string, at = new Date()): Promise<Claim> {
    return this.sql.transaction(async (tx) => {
      const claimed = await tx.query(CLAIM, [key.businessId, key.kind, runId, this.dialect.timeParam(at)]);
      if (claimed.rows[0] !== undefined) return { by: 'this-run', fresh: true, intent: this.read(claimed.rows[0]) };
      // Not ours now: the row exists (nothing deletes intents), held by this run already or by another.
      const intent = this.read((await tx.query(FIND, [key.businessId, key.kind])).rows[0]);
      return intent.runId === runId ? { by: 'this-run', fresh: false, intent } : { by: 'earlier-run', intent };
    });
  }

  async record(key: IntentKey, runId: string, update: IntentUpdate, at = new Date()): Promise<void> {
    await this.sql.query(RECORD, [
      update.state,
      update.providerId ?? null,
      this.sealed(key, update.answer),
      this.dialect.timeParam(at),
      key.businessId,
      key.kind,
      runId,
    ]);
  }

  async takeOver(
    key: IntentKey,
    fromRunId: string,
    toRunId: string,
    answer?: string,
    at = new Date(),
  ): Promise<boolean> {
    const moved = await this.sql.query(TAKE_OVER, [
      toRunId,
      this.sealed(key, answer),
      this.dialect.timeParam(at),
      key.businessId,
      key.kind,
      fromRunId,
    ]);
    return moved.changes === 1;
  }

  async find(key: IntentKey): Promise<Intent | undefined> {
    const row = (await this.sql.query(FIND, [key.businessId, key.kind])).rows[0];
    return row === undefined ? undefined : this.read(row);
  }

  async businessIdOfProviderId(kind: IntentKind, providerId: string): Promise<string | undefined> {
    const row = (await this.sql.query(OF_PROVIDER_ID, [providerId, kind])).rows[0];
    return row === undefined ? undefined : businessIdRow.parse(row).business_id;
  }

  private sealed(key: IntentKey, answer: string | undefined): string | null {
    return answer === undefined ? null : this.answers.seal(key, answer);
  }

  /** A row with its answer opened as this row's: one that does not open is refused (never passed on), one in clear said so. */
  private read(row: unknown): Intent {
    const { answer: stored, ...intent } = intentRowSchema.parse(row);
    if (stored === undefined) return intent;
    const reading = this.answers.open({ businessId: intent.businessId, kind: intent.kind }, stored);
    if (reading.kind === 'refused') return { ...intent, answerRefused: reading.problem };
    return {
      ...intent,
      answer: reading.answer,
      ...(reading.kind === 'unsealed' ? { answerUnsealed: true as const } : {}),
    };
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}

/** On the batch store's SQLite file; its migrations (the table is one) applied by whichever opens it first. */
export function sqliteIntentStore(file: string, keys: PayloadKeys, busyTimeoutMs = 10_000): IntentStore {
  const { runner, dialect } = openSqliteDatabase(file, intentSchema, { busyTimeoutMs });
  return new SqlIntentStore(runner, dialect, keys);
}

/** On the batch store's PostgreSQL database: connects and applies the batch store's migrations not yet applied. */
export async function pgIntentStore(connectionString: string, keys: PayloadKeys, poolSize = 4): Promise<IntentStore> {
  const { runner, dialect } = await openPgDatabase(connectionString, intentSchema, poolSize);
  return new SqlIntentStore(runner, dialect, keys);
}
