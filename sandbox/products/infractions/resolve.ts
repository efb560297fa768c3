/**
 * Opening and resolving infractions. An ACCEPTED infraction returns its amount to the payer:
 * merchant → `med-refunds`. The ledger never takes a merchant below zero, so the refund is capped at
 * the merchant's balance at that moment; the shortfall is recorded on the infraction
 * (`unrecoveredAmount`) and logged, and no later credit is touched.
 */
import {
  INFRACTION_ANALYSES,
  type InfractionAnalysis,
  type InfractionAnalysisWords,
} from '../../../src/payment-api/schemas/infractions';
import type { SandboxContext } from '../../context';
import { SandboxError } from '../../http/errors';
import type { Job } from '../../jobs/scheduler';
import { ACCOUNTS } from '../../ledger/ledger';
import { newOperationId, type Operation } from '../../store/operations';
import { cashInDetails } from '../cash-in/charge';
import { infractionStore, type InfractionRecord, type InfractionResolvedBy } from './store';

export const MED_REFUNDS_ACCOUNT = 'med-refunds';
export const INFRACTION_DEADLINE_JOB = 'infraction.deadline';
export const INFRACTION_RESOLVE_JOB = 'infraction.resolve';
/** docs/assumptions.md §8: createdAt + 7 days. */
export const INFRACTION_DEFENSE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export type InfractionFinalStatus = 'ACCEPTED' | 'REJECTED' | 'CANCELLED';

/** Where an accepted (ACEITA) or contested (NEGADA) defense leads. */
export const RESOLUTION_OF_ANALYSIS: Record<InfractionAnalysis, InfractionFinalStatus> = {
  ACEITA: 'ACCEPTED',
  NEGADA: 'REJECTED',
};

/** What the provider's word means (the sandbox plays a provider whose words are INFRACTION_ANALISE_VALUES); undefined: not one of them. */
export function analysisOfWord(words: InfractionAnalysisWords, word: string): InfractionAnalysis | undefined {
  return INFRACTION_ANALYSES.find((analysis) => words[analysis] === word);
}

/** Opens a WAITING_PSP infraction on a paid cash-in, with its deadline job. Inside a transaction. */
export function openInfraction(
  ctx: SandboxContext,
  cashIn: Operation,
  reason: string,
  amountCents: number,
): InfractionRecord {
  const store = infractionStore(ctx);
  const live = store.liveForTransaction(cashIn.id);
  if (live.length > 0) {
    throw new SandboxError(
      409,
      'INFRACTION_EXISTS',
      `Transaction ${cashIn.id} already has infraction ${live[0]?.id} (${live[0]?.status})`,
    );
  }
  const now = ctx.now();
  const record = store.insert({
    id: newOperationId('med'),
    userId: cashIn.userId,
    transactionId: cashIn.id,
    endToEndId: cashInDetails(cashIn).endToEndId ?? null,
    reason,
    amountCents,
    createdAt: now,
    defenseDeadline: now + INFRACTION_DEFENSE_WINDOW_MS,
  });
  ctx.scheduler.schedule(INFRACTION_DEADLINE_JOB, record.id, record.defenseDeadline);
  ctx.logger.info('sandbox.infraction_opened', {
    infractionId: record.id,
    transactionId: record.transactionId,
    userId: record.userId,
  });
  return record;
}

/** WAITING_PSP → status, with the refund when ACCEPTED; undefined when it was no longer WAITING_PSP. Inside a transaction. */
export function resolveInfraction(
  ctx: SandboxContext,
  record: InfractionRecord,
  status: InfractionFinalStatus,
  by: InfractionResolvedBy,
): InfractionRecord | undefined {
  const store = infractionStore(ctx);
  const merchant = ACCOUNTS.user(record.userId);
  const refundedCents =
    status === 'ACCEPTED' ? Math.max(0, Math.min(record.amountCents, ctx.ledger.balance(merchant))) : null;
  const unrecoveredCents = refundedCents === null ? null : record.amountCents - refundedCents;
  if (!store.resolve(record.id, { status, at: ctx.now(), by, refundedCents, unrecoveredCents })) return undefined;
  ctx.scheduler.cancelFor(record.id);
  if (refundedCents !== null && refundedCents > 0) {
    ctx.ledger.post({
      kind: 'infraction.refund',
      operationId: record.transactionId,
      externalId: record.id,
      lines: [
        { account: merchant, amountCents: -refundedCents },
        { account: MED_REFUNDS_ACCOUNT, amountCents: refundedCents },
      ],
    });
  }
  const fields = { infractionId: record.id, transactionId: record.transactionId, status, by };
  if (unrecoveredCents !== null && unrecoveredCents > 0)
    ctx.logger.warn('sandbox.infraction_refund_capped', { ...fields, refundedCents, unrecoveredCents });
  else ctx.logger.info('sandbox.infraction_resolved', fields);
  return store.byId(record.id);
}

function jobRecord(ctx: SandboxContext, job: Job): InfractionRecord {
  const record = job.operationId ? infractionStore(ctx).byId(job.operationId) : undefined;
  if (!record) throw new Error(`infraction job ${job.id}: no infraction ${job.operationId}`);
  return record;
}

/** The deadline passed: without a defense the claim stands (ACCEPTED); with one it waits for its resolution. */
export function deadlineJob(ctx: SandboxContext, job: Job): void {
  const record = jobRecord(ctx, job);
  if (record.status === 'WAITING_PSP' && record.defendedAt === null)
    resolveInfraction(ctx, record, 'ACCEPTED', 'deadline');
}

/** SANDBOX_INFRACTION_RESOLVE_MS after a defense: ACEITA → ACCEPTED, NEGADA → REJECTED. */
export function resolveJob(ctx: SandboxContext, job: Job): void {
  const record = jobRecord(ctx, job);
  const analysis =
    record.analise === null ? undefined : analysisOfWord(ctx.config.INFRACTION_ANALISE_VALUES, record.analise);
  if (record.status === 'WAITING_PSP' && analysis)
    resolveInfraction(ctx, record, RESOLUTION_OF_ANALYSIS[analysis], 'defense');
}
