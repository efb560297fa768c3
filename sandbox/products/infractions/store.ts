/**
 * MED infractions in their own table (they are claims about an operation, not operations): the record
 * of docs/assumptions.md §8, plus how it was resolved and what the refund moved.
 */
import { centavosToReais } from '../../../src/money/centavos';
import type { InfractionStatus } from '../../../src/payment-api/schemas/infractions';
import type { SandboxContext } from '../../context';
import type { Migration, SandboxDatabase } from '../../store/database';

export const infractionMigrations: readonly Migration[] = [
  {
    id: 'infractions/001-records',
    sql: `CREATE TABLE infractions (
      id TEXT PRIMARY KEY,                  -- med_...
      user_id TEXT NOT NULL REFERENCES users(id),
      transaction_id TEXT NOT NULL,         -- the provider id of the PIX cash-in the claim is about
      end_to_end_id TEXT,
      status TEXT NOT NULL,                 -- WAITING_PSP, ACCEPTED, REJECTED, CANCELLED
      reason TEXT NOT NULL,
      amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
      created_at INTEGER NOT NULL,
      defense_deadline INTEGER NOT NULL,
      analise TEXT,
      justificativa TEXT,
      proofs TEXT,                          -- JSON array of URLs
      defended_at INTEGER,
      resolved_at INTEGER,
      resolved_by TEXT,                     -- defense, deadline, admin
      refunded_cents INTEGER,               -- ACCEPTED: what went back to the payer
      unrecovered_cents INTEGER             -- ACCEPTED: what the merchant's balance could not cover
    );
    CREATE INDEX infractions_user_created ON infractions (user_id, created_at);
    CREATE INDEX infractions_transaction ON infractions (transaction_id);`,
  },
];

export type InfractionResolvedBy = 'defense' | 'deadline' | 'admin';

export interface InfractionRecord {
  id: string;
  userId: string;
  transactionId: string;
  endToEndId: string | null;
  status: InfractionStatus;
  reason: string;
  amountCents: number;
  createdAt: number;
  defenseDeadline: number;
  /** In the provider's words (INFRACTION_ANALISE_VALUES). */
  analise: string | null;
  justificativa: string | null;
  proofs: string[] | null;
  defendedAt: number | null;
  resolvedAt: number | null;
  resolvedBy: InfractionResolvedBy | null;
  refundedCents: number | null;
  unrecoveredCents: number | null;
}

interface InfractionRow {
  id: string;
  user_id: string;
  transaction_id: string;
  end_to_end_id: string | null;
  status: InfractionStatus;
  reason: string;
  amount_cents: number;
  created_at: number;
  defense_deadline: number;
  /** In the provider's words (INFRACTION_ANALISE_VALUES). */
  analise: string | null;
  justificativa: string | null;
  proofs: string | null;
  defended_at: number | null;
  resolved_at: number | null;
  resolved_by: InfractionResolvedBy | null;
  refunded_cents: number | null;
  unrecovered_cents: number | null;
}

const toRecord = (row: InfractionRow): InfractionRecord => ({
  id: row.id,
  userId: row.user_id,
  transactionId: row.transaction_id,
  endToEndId: row.end_to_end_id,
  status: row.status,
  reason: row.reason,
  amountCents: row.amount_cents,
  createdAt: row.created_at,
  defenseDeadline: row.defense_deadline,
  analise: row.analise,
  justificativa: row.justificativa,
  proofs: row.proofs === null ? null : (JSON.parse(row.proofs) as string[]),
  defendedAt: row.defended_at,
  resolvedAt: row.resolved_at,
  resolvedBy: row.resolved_by,
  refundedCents: row.refunded_cents,
  unrecoveredCents: row.unrecovered_cents,
});

export type NewInfraction = Pick<
  InfractionRecord,
  'id' | 'userId' | 'transactionId' | 'endToEndId' | 'reason' | 'amountCents' | 'createdAt' | 'defenseDeadline'
>;

export interface InfractionStore {
  insert(infraction: NewInfraction): InfractionRecord;
  byId(id: string): InfractionRecord | undefined;
  byIdForUser(userId: string, id: string): InfractionRecord | undefined;
  /** Newest first. */
  pageForUser(userId: string, page: number, perPage: number): { records: InfractionRecord[]; total: number };
  /** WAITING_PSP or ACCEPTED infractions of one transaction (a new claim on it would double-count). */
  liveForTransaction(transactionId: string): InfractionRecord[];
  /** Records the defense; false unless the infraction is WAITING_PSP without a defense. */
  recordDefense(
    id: string,
    defense: { analise: string; justificativa: string; proofs: string[] | null; at: number },
  ): boolean;
  /** WAITING_PSP → a final status; false when someone else resolved it first. */
  resolve(
    id: string,
    fields: {
      status: Exclude<InfractionStatus, 'WAITING_PSP'>;
      at: number;
      by: InfractionResolvedBy;
      refundedCents: number | null;
      unrecoveredCents: number | null;
    },
  ): boolean;
}

const stores = new WeakMap<SandboxDatabase, InfractionStore>();

function createInfractionStore(db: SandboxDatabase): InfractionStore {
  const insert =
    db.prepare(`INSERT INTO infractions (id, user_id, transaction_id, end_to_end_id, status, reason, amount_cents, created_at, defense_deadline)
    VALUES (@id, @userId, @transactionId, @endToEndId, 'WAITING_PSP', @reason, @amountCents, @createdAt, @defenseDeadline)`);
  const byId = db.prepare<[string], InfractionRow>('SELECT * FROM infractions WHERE id = ?');
  const byIdForUser = db.prepare<[string, string], InfractionRow>(
    'SELECT * FROM infractions WHERE user_id = ? AND id = ?',
  );
  const count = db.prepare<[string], { total: number }>('SELECT COUNT(*) AS total FROM infractions WHERE user_id = ?');
  const page = db.prepare<[string, number, number], InfractionRow>(
    'SELECT * FROM infractions WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
  );
  const live = db.prepare<[string], InfractionRow>(
    "SELECT * FROM infractions WHERE transaction_id = ? AND status IN ('WAITING_PSP', 'ACCEPTED')",
  );
  const defend =
    db.prepare(`UPDATE infractions SET analise = @analise, justificativa = @justificativa, proofs = @proofs, defended_at = @at
    WHERE id = @id AND status = 'WAITING_PSP' AND defended_at IS NULL`);
  const resolve =
    db.prepare(`UPDATE infractions SET status = @status, resolved_at = @at, resolved_by = @by, refunded_cents = @refundedCents, unrecovered_cents = @unrecoveredCents
    WHERE id = @id AND status = 'WAITING_PSP'`);
  const read = (row: InfractionRow | undefined): InfractionRecord | undefined => (row ? toRecord(row) : undefined);

  return {
    insert(infraction) {
      insert.run(infraction);
      const record = read(byId.get(infraction.id));
      if (!record) throw new Error(`infraction ${infraction.id} vanished after insert`);
      return record;
    },
    byId: (id) => read(byId.get(id)),
    byIdForUser: (userId, id) => read(byIdForUser.get(userId, id)),
    pageForUser(userId, pageNumber, perPage) {
      const total = count.get(userId)?.total ?? 0;
      const offset = (pageNumber - 1) * perPage;
      // A page past the end is empty; checked first so an absurd page number never reaches SQLite.
      const records = offset >= total ? [] : page.all(userId, perPage, offset).map(toRecord);
      return { records, total };
    },
    liveForTransaction: (transactionId) => live.all(transactionId).map(toRecord),
    recordDefense: (id, defense) =>
      defend.run({
        id,
        analise: defense.analise,
        justificativa: defense.justificativa,
        proofs: defense.proofs ? JSON.stringify(defense.proofs) : null,
        at: defense.at,
      }).changes === 1,
    resolve: (id, fields) => resolve.run({ id, ...fields }).changes === 1,
  };
}

export function infractionStore(ctx: SandboxContext): InfractionStore {
  let store = stores.get(ctx.db);
  if (!store) {
    store = createInfractionStore(ctx.db);
    stores.set(ctx.db, store);
  }
  return store;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The contract's record (infractionSchema). Extensions on ACCEPTED: `refundedAmount` (returned to the
 * payer) and `unrecoveredAmount` (what the merchant's balance could not cover).
 */
export function infractionView(record: InfractionRecord) {
  return {
    id: record.id,
    transactionId: record.transactionId,
    ...(record.endToEndId !== null ? { endToEndId: record.endToEndId } : {}),
    status: record.status,
    reason: record.reason,
    amount: centavosToReais(record.amountCents),
    createdAt: iso(record.createdAt),
    defenseDeadline: iso(record.defenseDeadline),
    ...(record.analise !== null ? { analise: record.analise } : {}),
    ...(record.justificativa !== null ? { justificativa: record.justificativa } : {}),
    ...(record.proofs !== null ? { proofs: record.proofs } : {}),
    ...(record.defendedAt !== null ? { defendedAt: iso(record.defendedAt) } : {}),
    ...(record.resolvedAt !== null ? { resolvedAt: iso(record.resolvedAt) } : {}),
    ...(record.refundedCents !== null ? { refundedAmount: centavosToReais(record.refundedCents) } : {}),
    ...(record.unrecoveredCents !== null ? { unrecoveredAmount: centavosToReais(record.unrecoveredCents) } : {}),
  };
}
