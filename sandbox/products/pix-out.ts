/**
 * What withdrawals and copy-and-paste payments share: money leaves through PIX. Debit amount + fee at
 * request, settle later (a durable job), COMPLETED moves the money from pending to settled, FAILED
 * gives amount and fee back; either way a signed callback announces it.
 *
 * Outcome rules (no admin call needed): centavos ending in 13 → FAILED; ending in 14 → stays
 * PROCESSING forever; anything else → COMPLETED after SANDBOX_SETTLE_MS.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { EndpointName } from '../../src/payment-api/endpoints';
import { centavosToReais } from '../../src/money/centavos';
import { pixCopyPasteCallbackSchema } from '../../src/payment-api/schemas/pix-copy-paste';
import { withdrawalCallbackSchema, type WithdrawalFinalStatus } from '../../src/payment-api/schemas/withdrawal';
import type { SandboxContext } from '../context';
import { providerError } from '../http/errors';
import type { Job } from '../jobs/scheduler';
import { ACCOUNTS } from '../ledger/ledger';
import { postOutgoingDebit, postOutgoingOutcome, type OutgoingAccounts } from '../ledger/outgoing-payment';
import { newOperationId, type Operation } from '../store/operations';
import type { SandboxUser } from '../store/users';
import { pixOutFeeCents } from './fees';
import {
  requireCaller,
  type CheckView,
  type EndpointCall,
  type EndpointResult,
  type ForcedOutcome,
  type OperationKind,
  type ProductRoute,
  type ProductRoutes,
  type SandboxProduct,
} from './product';
import { rereadMoved, sendOperationCallback } from './operation-callback';

const PIX_OUT_ACCOUNTS: OutgoingAccounts = { pending: ACCOUNTS.pixOutPending, settled: ACCOUNTS.pixOutSettled };

export const RULE_FAILED_REASON = 'Recipient account closed (sandbox rule: amount ending in .13)';

export type PixOutOutcome = { status: WithdrawalFinalStatus; reason?: string } | { status: 'NEVER' };

/** The magic-amount rules, decided by the centavos of the amount (not the total). */
export function outcomeForAmount(amountCents: number): PixOutOutcome {
  const centavos = amountCents % 100;
  if (centavos === 13) return { status: 'FAILED', reason: RULE_FAILED_REASON };
  if (centavos === 14) return { status: 'NEVER' };
  return { status: 'COMPLETED' };
}

/** Hash of what must match on a replay; stored instead of the fields themselves (no PIX key at rest). */
export function fingerprintOf(parts: readonly (string | number)[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Keeps the first two and last two characters: enough for a human to recognise the key, never the key. */
export function maskPixKey(key: string): string {
  return key.length <= 4 ? '*'.repeat(key.length) : `${key.slice(0, 2)}${'*'.repeat(key.length - 4)}${key.slice(-2)}`;
}

export type PixOutType = 'Withdrawal' | 'PixCopyPaste';

export interface PixOutFamily {
  /** operations.product */
  product: string;
  idPrefix: string;
  /** The `type` field of the operation's object and callback. */
  callbackType: PixOutType;
  callbackSchema: z.ZodType;
  check: Omit<CheckView, 'transactionState'>;
  /** The log events of a new request and of a replay. */
  events: { accepted: string; replayed: string };
}

/**
 * The PIX-out families by their `type`, one a row: operations.product, the prefix of their operation ids, the
 * transaction check's type (the method is PIX for both) and the stem of the log events of a new request and a replay.
 */
const FAMILY_ROWS: Record<
  PixOutType,
  { product: string; idPrefix: string; transactionType: 'SAQUE' | 'PAGAMENTO_PIX'; events: string }
> = {
  Withdrawal: { product: 'withdrawal', idPrefix: 'wd', transactionType: 'SAQUE', events: 'withdrawal' },
  PixCopyPaste: { product: 'pix-copy-paste', idPrefix: 'pp', transactionType: 'PAGAMENTO_PIX', events: 'pix_payment' },
};

const CALLBACK_SCHEMAS: Record<PixOutType, z.ZodType> = {
  Withdrawal: withdrawalCallbackSchema,
  PixCopyPaste: pixCopyPasteCallbackSchema,
};

export function pixOutFamily(type: PixOutType): PixOutFamily {
  const row = FAMILY_ROWS[type];
  return {
    product: row.product,
    idPrefix: row.idPrefix,
    callbackType: type,
    callbackSchema: CALLBACK_SCHEMAS[type],
    check: { transactionType: row.transactionType, transactionMethod: 'PIX' },
    events: { accepted: `sandbox.${row.events}_accepted`, replayed: `sandbox.${row.events}_replayed` },
  };
}

export interface PixOutRequest {
  user: SandboxUser;
  externalId: string;
  amountCents: number;
  feeCents: number;
  fingerprint: string;
  callbackUrl: string;
  details: Record<string, unknown>;
}

/**
 * The operation this caller already made with this external_id, for a replay of the same request; a
 * different request under it → 409. None when the sandbox does not de-duplicate (SANDBOX_DEDUPLICATE=false, or the seed profile).
 */
export function replayedOperation(
  ctx: SandboxContext,
  request: { userId: string; externalId: string; product: string; fingerprint: string },
): Operation | undefined {
  if (!ctx.config.SANDBOX_DEDUPLICATE || !ctx.profile.deduplicates) return undefined;
  const existing = ctx.operations.byExternalId(request.userId, request.externalId);
  if (existing && (existing.product !== request.product || existing.fingerprint !== request.fingerprint)) {
    throw providerError(
      'IDEMPOTENCY_CONFLICT',
      `external_id ${request.externalId} was already used for a different request`,
    );
  }
  return existing;
}

/**
 * Creates the operation and its debit in one transaction, or returns the existing one for a replay of
 * the same request. Same external_id with different money-relevant fields → 409.
 */
export function openPixOut(
  ctx: SandboxContext,
  family: PixOutFamily,
  request: PixOutRequest,
): { operation: Operation; replayed: boolean } {
  return ctx.db.transaction(() => {
    const existing = replayedOperation(ctx, {
      userId: request.user.id,
      externalId: request.externalId,
      product: family.product,
      fingerprint: request.fingerprint,
    });
    if (existing) return { operation: existing, replayed: true };
    const operation = ctx.operations.insert({
      id: newOperationId(family.idPrefix),
      userId: request.user.id,
      product: family.product,
      externalId: request.externalId,
      status: 'PROCESSING',
      amountCents: request.amountCents,
      feeCents: request.feeCents,
      fingerprint: request.fingerprint,
      callbackUrl: request.callbackUrl,
      details: request.details,
    });
    postOutgoingDebit(ctx.ledger, family.product, PIX_OUT_ACCOUNTS, operation);
    const outcome = outcomeForAmount(request.amountCents);
    if (outcome.status !== 'NEVER') {
      ctx.scheduler.schedule(settleJobKind(family), operation.id, ctx.now() + ctx.config.SANDBOX_SETTLE_MS, {
        status: outcome.status,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
      });
    }
    return { operation, replayed: false };
  })();
}

/** An E2E id in the BCB format: E + ISPB (8) + yyyyMMddHHmm + 11 random characters. */
function endToEndId(at: number): string {
  const stamp = new Date(at).toISOString().replace(/\D/g, '').slice(0, 12);
  return `E00000000${stamp}${randomBytes(8).toString('hex').slice(0, 11)}`;
}

/** The operation as the provider shows it: in the creation answer and, with more fields, in its callback. */
export function pixOutObject<T extends PixOutType>(operation: Operation, type: T) {
  return {
    transaction_id: operation.id,
    external_id: operation.externalId ?? operation.id,
    status: operation.status,
    amount: centavosToReais(operation.amountCents),
    fee: centavosToReais(operation.feeCents),
    total: centavosToReais(operation.amountCents + operation.feeCents),
    type,
  };
}

/** The answer to an accepted PIX payout (src/payment-api's pixOutResponseSchema): a message, its id, its object under `key`. */
export function pixOutAccepted<const K extends string, T extends PixOutType>(
  message: string,
  key: K,
  operation: Operation,
  type: T,
) {
  const object = { [key]: pixOutObject(operation, type) } as Record<K, ReturnType<typeof pixOutObject<T>>>;
  return { body: { message, transactionId: operation.id, ...object } };
}

/** Applies the final outcome; a no-op when the operation is no longer PROCESSING. Call inside a transaction. */
export function settlePixOut(
  ctx: SandboxContext,
  family: PixOutFamily,
  operation: Operation,
  outcome: ForcedOutcome,
): boolean {
  const reason = outcome.status === 'FAILED' ? (outcome.reason ?? 'Refused by the recipient institution') : undefined;
  const e2e = outcome.status === 'COMPLETED' ? endToEndId(ctx.now()) : undefined;
  const details = { ...operation.details, ...(e2e ? { endToEndId: e2e } : {}) };
  if (
    !ctx.operations.transition(operation.id, 'PROCESSING', outcome.status, { failureReason: reason ?? null, details })
  )
    return false;
  ctx.scheduler.cancelFor(operation.id);
  postOutgoingOutcome(ctx.ledger, family.product, PIX_OUT_ACCOUNTS, operation, outcome.status);

  const settled = rereadMoved(ctx, operation.id, 'sandbox.operation_settled', { product: family.product });
  sendOperationCallback(ctx, settled, family.callbackType, family.callbackSchema, {
    ...pixOutObject(settled, family.callbackType),
    ...(reason ? { reason } : {}),
    ...(e2e ? { end_to_end_id: e2e } : {}),
    updated_at: new Date(settled.updatedAt).toISOString(),
  });
  return true;
}

const CHECK_STATES: Record<string, CheckView['transactionState']> = {
  PROCESSING: 'PROCESSING',
  COMPLETED: 'COMPLETO',
  FAILED: 'FALHA',
};

export function pixOutOperationKind(family: PixOutFamily): OperationKind {
  return {
    checkView: (operation) => ({
      ...family.check,
      transactionState: CHECK_STATES[operation.status] ?? 'PROCESSING',
      ...(typeof operation.details.endToEndId === 'string' ? { endToEndId: operation.details.endToEndId } : {}),
    }),
    isFinal: (operation) => operation.status !== 'PROCESSING',
    forceOutcome: (ctx, operation, outcome) => {
      ctx.db.transaction(() => settlePixOut(ctx, family, operation, outcome))();
    },
  };
}

/** One job kind per family, so each product module registers only its own. */
export function settleJobKind(family: PixOutFamily): string {
  return `${family.product}.settle`;
}

/** The durable settlement job of one PIX-out family. */
export function settleJob(family: PixOutFamily) {
  return (ctx: SandboxContext, job: Job): void => {
    const operation = job.operationId ? ctx.operations.byId(job.operationId) : undefined;
    if (!operation || operation.product !== family.product)
      throw new Error(`settlement job ${job.id}: no ${family.product} operation ${job.operationId}`);
    const status = job.payload.status === 'FAILED' ? 'FAILED' : 'COMPLETED';
    const reason = typeof job.payload.reason === 'string' ? job.payload.reason : undefined;
    settlePixOut(ctx, family, operation, { status, ...(reason ? { reason } : {}) });
  };
}

/**
 * A PIX-out request as both products take it: the fee, the fingerprint of what must match on a replay (its
 * family first), the operation opened (or replayed) and logged.
 */
export function acceptPixOut(
  ctx: SandboxContext,
  family: PixOutFamily,
  request: Omit<PixOutRequest, 'feeCents' | 'fingerprint'> & { matchOnReplay: readonly (string | number)[] },
): Operation {
  const { matchOnReplay, ...rest } = request;
  const { operation, replayed } = openPixOut(ctx, family, {
    ...rest,
    feeCents: pixOutFeeCents(request.amountCents),
    fingerprint: fingerprintOf([family.product, ...matchOnReplay]),
  });
  ctx.logger.info(replayed ? family.events.replayed : family.events.accepted, {
    operationId: operation.id,
    externalId: operation.externalId,
    status: operation.status,
  });
  return operation;
}

/** What a PIX-out product reads from its request: all acceptPixOut needs but the caller. */
export type PixOutRead = Omit<Parameters<typeof acceptPixOut>[2], 'user'>;

/**
 * A PIX-out product: its one route reads the request its own way (`read`, which throws the provider's errors), then
 * opens the operation as every PIX-out does and answers with it (`answer`); its settlement job and operation kind.
 */
export function pixOutProduct<N extends EndpointName>(
  names: { product: string; route: N },
  family: PixOutFamily,
  route: {
    read(input: EndpointCall<N>['input']): PixOutRead;
    answer(operation: Operation): EndpointResult<N>;
  },
): SandboxProduct {
  const productRoute: ProductRoute<N> = {
    movesMoney: true,
    handle({ ctx, user, input }) {
      const caller = requireCaller(user);
      return route.answer(acceptPixOut(ctx, family, { user: caller, ...route.read(input) }));
    },
  };
  // A computed key widens to string; the route under names.route is ProductRoute<N>, as ProductRoutes asks.
  const routes = { [names.route]: productRoute } as ProductRoutes;
  return {
    name: names.product,
    routes,
    jobs: { [settleJobKind(family)]: settleJob(family) },
    operationKinds: { [family.product]: pixOutOperationKind(family) },
  };
}
