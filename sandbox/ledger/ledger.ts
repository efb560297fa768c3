/**
 * Double-entry ledger in integer centavos. Every entry's lines sum to zero, so money is only ever
 * moved, never created (except from `equity:seed`, the outside world). A user account may never go
 * negative: the check runs inside the caller's SQLite transaction, so a refused debit rolls back the
 * operation that wanted it.
 *
 * Sign convention: a positive line increases the account's balance.
 */
import type { SandboxDatabase } from '../store/database';
import { whereGiven } from '../store/where-given';

export const ACCOUNTS = {
  user: (userId: string) => `user:${userId}`,
  fees: 'fees',
  pixOutPending: 'pix-out:pending',
  pixOutSettled: 'pix-out:settled',
  equitySeed: 'equity:seed',
} as const;

const USER_PREFIX = 'user:';

export interface LedgerLine {
  account: string;
  amountCents: number;
}

export interface NewLedgerEntry {
  kind: string;
  operationId: string | null;
  externalId: string | null;
  lines: LedgerLine[];
}

export interface LedgerEntry extends NewLedgerEntry {
  id: number;
  createdAt: string;
}

export interface AccountBalance {
  account: string;
  balanceCents: number;
}

export class LedgerInvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerInvariantError';
  }
}

/** A user account would go below zero: the entry (and whatever the caller wrote with it) is rolled back. */
export class InsufficientBalanceError extends Error {
  constructor(readonly account: string) {
    super('Insufficient balance for this operation (amount plus fee)');
    this.name = 'InsufficientBalanceError';
  }
}

export interface Ledger {
  /** Posts one balanced entry; call inside a transaction when it goes with other writes. */
  post(entry: NewLedgerEntry): number;
  balance(account: string): number;
  balances(): AccountBalance[];
  entries(filter: { externalId?: string; account?: string; operationId?: string }): LedgerEntry[];
}

interface EntryRow {
  id: number;
  operation_id: string | null;
  external_id: string | null;
  kind: string;
  created_at: number;
}

export function createLedger(db: SandboxDatabase, now: () => number): Ledger {
  const insertEntry = db.prepare(
    'INSERT INTO ledger_entries (operation_id, external_id, kind, created_at) VALUES (?, ?, ?, ?)',
  );
  const insertLine = db.prepare('INSERT INTO ledger_lines (entry_id, account, amount_cents) VALUES (?, ?, ?)');
  const balanceOf = db.prepare<[string], { total: number | null }>(
    'SELECT SUM(amount_cents) AS total FROM ledger_lines WHERE account = ?',
  );
  const linesOf = db.prepare<[number], { account: string; amount_cents: number }>(
    'SELECT account, amount_cents FROM ledger_lines WHERE entry_id = ? ORDER BY rowid',
  );

  const balance = (account: string): number => balanceOf.get(account)?.total ?? 0;

  const post = db.transaction((entry: NewLedgerEntry): number => {
    const lines = entry.lines.filter((line) => line.amountCents !== 0);
    if (lines.length < 2)
      throw new LedgerInvariantError(`ledger entry ${entry.kind} needs at least two non-zero lines`);
    for (const line of lines) {
      if (!Number.isSafeInteger(line.amountCents))
        throw new LedgerInvariantError(`ledger line for ${line.account} is not integer centavos`);
    }
    if (lines.reduce((sum, line) => sum + line.amountCents, 0) !== 0) {
      throw new LedgerInvariantError(`ledger entry ${entry.kind} does not balance`);
    }
    const entryId = Number(insertEntry.run(entry.operationId, entry.externalId, entry.kind, now()).lastInsertRowid);
    for (const line of lines) insertLine.run(entryId, line.account, line.amountCents);
    for (const line of lines) {
      if (line.amountCents < 0 && line.account.startsWith(USER_PREFIX) && balance(line.account) < 0) {
        // Thrown inside the transaction: SQLite rolls back the entry and whatever the caller wrote with it.
        throw new InsufficientBalanceError(line.account);
      }
    }
    return entryId;
  });

  return {
    post,
    balance,
    balances: () =>
      db
        .prepare<[], { account: string; total: number }>(
          'SELECT account, SUM(amount_cents) AS total FROM ledger_lines GROUP BY account ORDER BY account',
        )
        .all()
        .map((row) => ({ account: row.account, balanceCents: row.total })),
    entries(filter) {
      const { where, params } = whereGiven([
        ['e.external_id = ?', filter.externalId],
        ['e.operation_id = ?', filter.operationId],
        ['EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entry_id = e.id AND l.account = ?)', filter.account],
      ]);
      const sql = `SELECT e.id, e.operation_id, e.external_id, e.kind, e.created_at FROM ledger_entries e
        ${where} ORDER BY e.id`;
      return db
        .prepare<(string | number)[], EntryRow>(sql)
        .all(...params)
        .map((row) => ({
          id: row.id,
          kind: row.kind,
          operationId: row.operation_id,
          externalId: row.external_id,
          createdAt: new Date(row.created_at).toISOString(),
          lines: linesOf.all(row.id).map((line) => ({ account: line.account, amountCents: line.amount_cents })),
        }));
    },
  };
}
