/**
 * 3DS sessions: opened by prepareThreeDS for one card, amount, currency and installment count;
 * authenticated at once (frictionless) or after the buyer approves the challenge; used by at most one
 * card payment. Rows survive a restart like every other sandbox state.
 *
 * The card is kept as its first six and last four digits only (what PCI DSS allows to display):
 * enough to tell that endpoint 2 pays with the card that was authenticated. A session opened by the
 * spec's prepareThreeDS (SANDBOX_SHIELD_THREE_DS=spec) knows no card: it is frictionless, and any card
 * may use it (stored as empty digits, the columns being NOT NULL).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { cardBrand, type CardBrand } from '../../../../src/card/card';
import type { CardCurrency } from '../../../../src/payment-api/schemas/card';
import type { CardTokenPayload, ThreeDSSessionStatus } from '../../../../src/payment-api/schemas/security-module';
import type { SandboxContext } from '../../../context';
import type { Migration } from '../../../store/database';
import { requiresChallenge } from '../test-cards';

/** An authentication result is good for one payment within this time. */
export const AUTHENTICATED_SESSION_TTL_MS = 60 * 60 * 1000;
export const THREE_DS_VERSION = '2.2.0';

export const threeDSSessionMigrations: readonly Migration[] = [
  {
    id: 'card-payments/002-three-ds-sessions',
    sql: `CREATE TABLE three_ds_sessions (
      id TEXT PRIMARY KEY,
      status TEXT NOT NULL,              -- CHALLENGE_REQUIRED, AUTHENTICATED, DENIED, USED; EXPIRED is read from the times
      amount_minor INTEGER NOT NULL,     -- in the currency's minor units
      currency TEXT NOT NULL,
      installments INTEGER NOT NULL,
      card_bin TEXT NOT NULL,            -- first six digits only
      card_last4 TEXT NOT NULL,
      brand TEXT NOT NULL,
      three_ds TEXT,                     -- JSON of the authentication result, once AUTHENTICATED
      challenge_deadline INTEGER,        -- a challenge not answered by then is abandoned
      authenticated_at INTEGER,
      used_by TEXT,                      -- the card payment's operation id
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );`,
  },
  {
    // The origin of the checkout page that opened the session: the only one that may frame its challenge and hear its answer.
    id: 'card-payments/003-three-ds-session-origin',
    sql: 'ALTER TABLE three_ds_sessions ADD COLUMN parent_origin TEXT;',
  },
];

export interface ThreeDSResult {
  cavv: string;
  xid: string;
  eci: string;
  version: string;
  referenceId: string;
}

export interface ThreeDSSession {
  id: string;
  status: ThreeDSSessionStatus;
  amountMinor: number;
  currency: CardCurrency;
  installments: number;
  /** Null for a session opened without a card. */
  cardBin: string | null;
  cardLast4: string | null;
  brand: CardBrand;
  threeDS: ThreeDSResult | null;
  challengeDeadline: number | null;
  /** The Origin of the request that opened it (the checkout page), when the browser sent one. */
  parentOrigin: string | null;
}

interface SessionRow {
  id: string;
  status: Exclude<ThreeDSSessionStatus, 'EXPIRED'>;
  amount_minor: number;
  currency: CardCurrency;
  installments: number;
  card_bin: string;
  card_last4: string;
  brand: CardBrand;
  three_ds: string | null;
  challenge_deadline: number | null;
  authenticated_at: number | null;
  parent_origin: string | null;
}

/** The stored status, with time applied: an unanswered challenge or an old, unused result is EXPIRED. */
function effectiveStatus(row: SessionRow, now: number): ThreeDSSessionStatus {
  if (row.status === 'CHALLENGE_REQUIRED' && row.challenge_deadline !== null && now >= row.challenge_deadline)
    return 'EXPIRED';
  if (
    row.status === 'AUTHENTICATED' &&
    row.authenticated_at !== null &&
    now >= row.authenticated_at + AUTHENTICATED_SESSION_TTL_MS
  )
    return 'EXPIRED';
  return row.status;
}

function toSession(row: SessionRow, now: number): ThreeDSSession {
  return {
    id: row.id,
    status: effectiveStatus(row, now),
    amountMinor: row.amount_minor,
    currency: row.currency,
    installments: row.installments,
    cardBin: row.card_bin === '' ? null : row.card_bin,
    cardLast4: row.card_last4 === '' ? null : row.card_last4,
    brand: row.brand,
    threeDS: row.three_ds === null ? null : (JSON.parse(row.three_ds) as ThreeDSResult),
    challengeDeadline: row.challenge_deadline,
    parentOrigin: row.parent_origin,
  };
}

/** A fresh authentication result: ECI 02 is Mastercard's "fully authenticated", 05 everyone else's. */
function authenticationResult(brand: CardBrand): ThreeDSResult {
  return {
    cavv: randomBytes(20).toString('base64'),
    xid: randomBytes(20).toString('base64'),
    eci: brand === 'MASTERCARD' ? '02' : '05',
    version: THREE_DS_VERSION,
    referenceId: randomUUID(),
  };
}

export function findSession(ctx: SandboxContext, id: string): ThreeDSSession | undefined {
  const row = ctx.db.prepare<[string], SessionRow>('SELECT * FROM three_ds_sessions WHERE id = ?').get(id);
  return row ? toSession(row, ctx.now()) : undefined;
}

export function openSession(
  ctx: SandboxContext,
  request: {
    amountMinor: number;
    currency: CardCurrency;
    installments: number;
    card: CardTokenPayload | undefined;
    parentOrigin: string | undefined;
  },
): ThreeDSSession {
  const now = ctx.now();
  const number = request.card?.number ?? '';
  const brand = request.card ? cardBrand(number) : 'UNKNOWN';
  const challenge = request.card !== undefined && requiresChallenge(number);
  const id = `3ds_${randomBytes(16).toString('hex')}`;
  ctx.db
    .prepare(
      `INSERT INTO three_ds_sessions (id, status, amount_minor, currency, installments, card_bin, card_last4, brand, three_ds, challenge_deadline, authenticated_at, parent_origin, created_at, updated_at)
       VALUES (@id, @status, @amountMinor, @currency, @installments, @cardBin, @cardLast4, @brand, @threeDS, @challengeDeadline, @authenticatedAt, @parentOrigin, @now, @now)`,
    )
    .run({
      id,
      status: challenge ? 'CHALLENGE_REQUIRED' : 'AUTHENTICATED',
      amountMinor: request.amountMinor,
      currency: request.currency,
      installments: request.installments,
      cardBin: number.slice(0, 6),
      cardLast4: number.slice(-4),
      brand,
      threeDS: challenge ? null : JSON.stringify(authenticationResult(brand)),
      challengeDeadline: challenge ? now + ctx.config.SANDBOX_SHIELD_CHALLENGE_TIMEOUT_MS : null,
      authenticatedAt: challenge ? null : now,
      parentOrigin: request.parentOrigin ?? null,
      now,
    });
  const session = findSession(ctx, id);
  if (!session) throw new Error(`3DS session ${id} vanished after insert`);
  return session;
}

/** The buyer's answer to an open challenge; false when it is no longer open (answered or abandoned). */
export function decideChallenge(ctx: SandboxContext, id: string, decision: 'approve' | 'deny'): boolean {
  const session = findSession(ctx, id);
  if (session?.status !== 'CHALLENGE_REQUIRED') return false;
  const now = ctx.now();
  const approved = decision === 'approve';
  const changed = ctx.db
    .prepare(
      `UPDATE three_ds_sessions SET status = @status, three_ds = @threeDS, authenticated_at = @authenticatedAt, updated_at = @now
       WHERE id = @id AND status = 'CHALLENGE_REQUIRED' AND challenge_deadline > @now`,
    )
    .run({
      id,
      now,
      status: approved ? 'AUTHENTICATED' : 'DENIED',
      threeDS: approved ? JSON.stringify(authenticationResult(session.brand)) : null,
      authenticatedAt: approved ? now : null,
    });
  return changed.changes === 1;
}

/** Marks an authenticated session used by one payment; false when another payment took it first. */
export function consumeSession(ctx: SandboxContext, id: string, operationId: string): boolean {
  const now = ctx.now();
  const changed = ctx.db
    .prepare(
      `UPDATE three_ds_sessions SET status = 'USED', used_by = @operationId, updated_at = @now
       WHERE id = @id AND status = 'AUTHENTICATED' AND authenticated_at > @oldest`,
    )
    .run({ id, operationId, now, oldest: now - AUTHENTICATED_SESSION_TTL_MS });
  return changed.changes === 1;
}
