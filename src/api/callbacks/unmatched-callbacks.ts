/**
 * Callbacks that name no operation we know are acknowledged (so the provider stops retrying) and kept in
 * the engine's database, where an operator finds them (GET /v1/callbacks/unmatched).
 *
 * Bounded and private, whoever sends them: every id cut to MAX_ID_LENGTH and every kept field to
 * MAX_FIELD_LENGTH; of a signed callback only the fields the engine read (the router strips the rest,
 * which may be personal data), one row per provider event (`X-Service-Webhook-Id`; a retry only
 * counts); of an unsigned one, which nobody vouches for, nothing but its ids and how many came (one row
 * per reference). At most `maxEntries` rows, the newest kept, the pruned ones counted. Each callback is one
 * short write: nothing grows with what was kept before.
 */
import { z } from 'zod';
import { timestampSchema } from '../openapi-timestamps';
import { engineDatabasePath, openPgDatabase, openSqliteDatabase } from '../../db/database';
import type { Config } from '../../config/env';
import type { Sql, SqlDialect, SqlRunner } from '../../db/sql';
import { unmatchedCallbackTables } from './unmatched-callback-migrations';

/** The longest id kept (references, provider ids, event ids): longer ones are cut. */
export const MAX_ID_LENGTH = 128;
/** The longest text kept of a payload field (a `reason`, a `payerName`, a `note`): longer ones are cut. */
export const MAX_FIELD_LENGTH = 256;

/** The longest `problem` kept. */
export const MAX_PROBLEM_LENGTH = 1_000;

/** What identifies an unmatched callback, signed or not. */
export interface UnmatchedCallbackIds {
  receivedAt: Date;
  route: string;
  reference: string;
  providerId?: string;
  eventId?: string;
  /** Why it names no operation, when the engine could not read its id (the names it looked for). */
  problem?: string;
}

/** What the router hands the store: a signed callback with the fields the engine read, or an unsigned one's ids. */
export type UnmatchedCallbackInput = UnmatchedCallbackIds &
  ({ signed: true; payload: Record<string, unknown> } | { signed: false });

export const unmatchedCallbackSchema = z.object({
  /** When the last of them came. */
  receivedAt: timestampSchema,
  firstReceivedAt: timestampSchema,
  route: z.string(),
  eventId: z.string().optional(),
  reference: z.string(),
  providerId: z.string().optional(),
  /** false: an unsigned callback, of which only the ids are kept. */
  signed: z.boolean(),
  /** How many came: a provider's retries of one event, or unsigned callbacks naming one reference. */
  count: z.number().int().min(1),
  /** What the engine read of a signed callback, under the provider's names, each cut short. */
  payload: z.record(z.string(), z.unknown()).optional(),
  /** Why it names no operation: its id could not be read (the provider's names the engine looked for). */
  problem: z.string().optional(),
});
export type UnmatchedCallback = z.infer<typeof unmatchedCallbackSchema>;

/** GET /v1/callbacks/unmatched. */
export const unmatchedCallbacksResponseSchema = z.object({
  /** Oldest first. */
  data: z.array(unmatchedCallbackSchema),
  /** Callbacks dropped so far to keep the store within UNMATCHED_CALLBACKS_MAX. */
  dropped: z.number().int().min(0),
});
export type UnmatchedCallbacksResponse = z.infer<typeof unmatchedCallbacksResponseSchema>;

/** At most `max` UTF-16 units, without a half of a surrogate pair at the cut; a cut text ends with "…". */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/** Scalars kept as they are (texts cut); anything else as its JSON text, cut. */
function boundedPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const bounded = (value: unknown): unknown => {
    if (typeof value === 'string') return cut(value, MAX_FIELD_LENGTH);
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
    // JSON text of an object or an array (the payload came from JSON.parse: nothing else is in it).
    return cut(JSON.stringify(value) ?? '', MAX_FIELD_LENGTH);
  };
  return Object.fromEntries(Object.entries(payload).map(([key, value]) => [key, bounded(value)]));
}

const rowSchema = z.object({
  route: z.string(),
  reference: z.string(),
  provider_id: z.string().nullable(),
  event_id: z.string().nullable(),
  signed: z.coerce.number(),
  payload: z.string().nullable(),
  count: z.coerce.number(),
  problem: z.string().nullable(),
  first_received_at: z.unknown(),
  last_received_at: z.unknown(),
});

/** A retry of a signed event, or another unsigned callback naming the same reference, only counts. */
const UPSERT = `INSERT INTO unmatched_callbacks (route, dedupe_key, reference, provider_id, event_id, signed, payload, count, first_received_at, last_received_at, problem)
  VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8, $9)
  ON CONFLICT (route, dedupe_key) DO UPDATE SET count = unmatched_callbacks.count + 1, last_received_at = excluded.last_received_at,
    provider_id = COALESCE(unmatched_callbacks.provider_id, excluded.provider_id), event_id = COALESCE(excluded.event_id, unmatched_callbacks.event_id),
    problem = COALESCE(excluded.problem, unmatched_callbacks.problem)
  RETURNING count`;

const PRUNE = `DELETE FROM unmatched_callbacks WHERE seq IN (SELECT seq FROM unmatched_callbacks ORDER BY last_received_at, seq LIMIT $1)`;

export class UnmatchedCallbackStore {
  constructor(
    private readonly sql: SqlRunner,
    private readonly dialect: SqlDialect,
    private readonly maxEntries: number,
  ) {}

  /** Keeps the callback; false when one like it was kept before (it only counted). */
  add(callback: UnmatchedCallbackInput): Promise<boolean> {
    const reference = cut(callback.reference, MAX_ID_LENGTH);
    const eventId = callback.eventId === undefined ? null : cut(callback.eventId, MAX_ID_LENGTH);
    const dedupeKey = callback.signed ? (eventId === null ? null : `event:${eventId}`) : `unsigned:${reference}`;
    const params = [
      callback.route,
      dedupeKey,
      reference,
      callback.providerId === undefined ? null : cut(callback.providerId, MAX_ID_LENGTH),
      eventId,
      callback.signed ? 1 : 0,
      callback.signed ? JSON.stringify(boundedPayload(callback.payload)) : null,
      this.dialect.timeParam(callback.receivedAt),
      callback.problem === undefined ? null : cut(callback.problem, MAX_PROBLEM_LENGTH),
    ];
    return this.sql.transaction(async (tx) => {
      const kept = await tx.query<{ count: unknown }>(UPSERT, params);
      if (Number(kept.rows[0]?.count) !== 1) return false;
      await this.prune(tx);
      return true;
    });
  }

  async list(limit = 100): Promise<UnmatchedCallbacksResponse> {
    const rows = await this.sql.query(
      'SELECT * FROM unmatched_callbacks ORDER BY last_received_at DESC, seq DESC LIMIT $1',
      [limit],
    );
    const drops = await this.sql.query<{ dropped: unknown }>(
      'SELECT dropped FROM unmatched_callback_drops WHERE id = 1',
    );
    return { data: rows.rows.map((row) => this.entryOf(row)).reverse(), dropped: Number(drops.rows[0]?.dropped ?? 0) };
  }

  close(): Promise<void> {
    return this.sql.close();
  }

  /** Past maxEntries, the oldest rows go (counted). */
  private async prune(tx: Sql): Promise<void> {
    const { rows } = await tx.query<{ kept: unknown }>('SELECT COUNT(*) AS kept FROM unmatched_callbacks');
    const excess = Number(rows[0]?.kept ?? 0) - this.maxEntries;
    if (excess <= 0) return;
    const pruned = await tx.query(PRUNE, [excess]);
    await tx.query('UPDATE unmatched_callback_drops SET dropped = dropped + $1 WHERE id = 1', [pruned.changes]);
  }

  private entryOf(raw: unknown): UnmatchedCallback {
    const row = rowSchema.parse(raw);
    return {
      receivedAt: this.dialect.timeOf(row.last_received_at).toISOString(),
      firstReceivedAt: this.dialect.timeOf(row.first_received_at).toISOString(),
      route: row.route,
      ...(row.event_id === null ? {} : { eventId: row.event_id }),
      reference: row.reference,
      ...(row.provider_id === null ? {} : { providerId: row.provider_id }),
      signed: row.signed === 1,
      count: row.count,
      ...(row.payload === null ? {} : { payload: z.record(z.string(), z.unknown()).parse(JSON.parse(row.payload)) }),
      ...(row.problem === null ? {} : { problem: row.problem }),
    };
  }
}

/** In the engine's database: PostgreSQL when DATABASE_URL names a server, else the batch store's SQLite file under DATA_DIR. */
export async function openUnmatchedCallbackStore(
  config: Pick<Config, 'DATA_DIR' | 'UNMATCHED_CALLBACKS_MAX'> & Partial<Pick<Config, 'DATABASE_URL'>>,
): Promise<UnmatchedCallbackStore> {
  const { runner, dialect } = config.DATABASE_URL
    ? await openPgDatabase(config.DATABASE_URL, unmatchedCallbackTables, 2)
    : openSqliteDatabase(engineDatabasePath(config.DATA_DIR), unmatchedCallbackTables);
  return new UnmatchedCallbackStore(runner, dialect, config.UNMATCHED_CALLBACKS_MAX);
}
