/**
 * The verdict of one chaos trial, from what the provider and the engine show once everything is up
 * again: the sandbox's ledger (the money), the batch's item list (the engine's account of each payout)
 * and, for items not final, the payout itself (its review reason). Money is the merchant's account only
 * (an internal transfer also credits its recipient); an internal transfer's entries carry no external_id,
 * so they are attributed through the description the item gave its transfer. Pure, so that it can be
 * tested on made-up ledgers and items.
 */
import type { ItemState } from '../../src/batches/batch-store';

export interface LedgerEntryView {
  externalId: string | null;
  operationId?: string | null;
  lines: readonly { account: string; amountCents: number }[];
}

export interface ListedItem {
  externalId: string;
  status: ItemState;
}

/** What the engine shows about one payout that is not final; `known: false` when it answers 404. */
export interface PayoutReading {
  known: boolean;
  reviewReason?: string;
}

export interface TrialEvidence {
  /** Every externalId of the batch the engine accepted. */
  submitted: readonly string[];
  /** The batch's item list; undefined when the engine does not know the batch. */
  items: readonly ListedItem[] | undefined;
  ledger: readonly LedgerEntryView[];
  /** The ledger account of the merchant whose payouts these are (`user:<id>`). */
  merchantAccount: string;
  /** The provider's operation id of each internal transfer → the externalId its description names. */
  transfers: ReadonlyMap<string, string>;
  /** Read for every listed item that is neither COMPLETED, FAILED nor CANCELLED. */
  payouts: ReadonlyMap<string, PayoutReading>;
  /** Items the provider never settles (the sandbox's rule for centavos .14): review is their right end. */
  neverSettling: ReadonlySet<string>;
}

export interface TrialVerdict {
  payouts: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** NEEDS_REVIEW with a reason the engine shows: stuck, but visibly. */
  needsReview: number;
  /** Of needsReview: the items the provider never settles, as opposed to ones the chaos delayed past their deadline. */
  needsReviewNeverSettled: number;
  /** More than one debit of the merchant's account at the provider for one externalId. */
  doubleDebits: number;
  /** Accepted but absent: not in the batch's list, or listed as started yet unknown to the engine. */
  lost: number;
  /** Still PENDING or STARTED after the trial's deadline, or NEEDS_REVIEW without a reason. */
  stuckWithoutReason: number;
  /** The engine's final state contradicts the provider's money: COMPLETED without exactly one net debit, FAILED or CANCELLED with money gone. */
  ledgerMismatches: number;
  /** NEEDS_REVIEW items by the kind of their reason (the text before its first colon). */
  reviewReasons: Record<string, number>;
  /** One line per problem, for the report. */
  problems: string[];
}

interface Money {
  debits: number;
  refunds: number;
}

/** Per externalId: entries taking money from the merchant's account (debits) and entries giving it back (refunds). */
export function moneyByExternalId(
  ledger: readonly LedgerEntryView[],
  merchantAccount: string,
  transfers: ReadonlyMap<string, string>,
): Map<string, Money> {
  const money = new Map<string, Money>();
  for (const entry of ledger) {
    const externalId = entry.externalId ?? (entry.operationId ? transfers.get(entry.operationId) : undefined);
    if (!externalId) continue;
    const merchantLines = entry.lines.filter((line) => line.account === merchantAccount);
    const debit = merchantLines.some((line) => line.amountCents < 0);
    const refund = merchantLines.some((line) => line.amountCents > 0);
    if (!debit && !refund) continue;
    const current = money.get(externalId) ?? { debits: 0, refunds: 0 };
    money.set(externalId, { debits: current.debits + (debit ? 1 : 0), refunds: current.refunds + (refund ? 1 : 0) });
  }
  return money;
}

/** A verdict's figures, which a run adds up over its trials. */
export type TrialCounts = Omit<TrialVerdict, 'problems' | 'reviewReasons'>;

export const zeroCounts = (): TrialCounts => ({
  payouts: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  needsReview: 0,
  needsReviewNeverSettled: 0,
  doubleDebits: 0,
  lost: 0,
  stuckWithoutReason: 0,
  ledgerMismatches: 0,
});

export function checkTrial(evidence: TrialEvidence): TrialVerdict {
  const verdict: TrialVerdict = {
    ...zeroCounts(),
    payouts: evidence.submitted.length,
    reviewReasons: {},
    problems: [],
  };
  const money = moneyByExternalId(evidence.ledger, evidence.merchantAccount, evidence.transfers);
  const listed = new Map((evidence.items ?? []).map((item) => [item.externalId, item.status]));
  const problem = (externalId: string, what: string): void => {
    verdict.problems.push(`${externalId}: ${what}`);
  };

  for (const externalId of evidence.submitted) {
    const { debits, refunds } = money.get(externalId) ?? { debits: 0, refunds: 0 };
    if (debits > 1) {
      verdict.doubleDebits += 1;
      problem(externalId, `${debits} debits at the provider`);
    }
    const status = listed.get(externalId);
    if (status === undefined) {
      verdict.lost += 1;
      problem(externalId, evidence.items ? 'missing from the batch item list' : 'the engine does not know its batch');
      continue;
    }
    const netDebits = debits - refunds;
    switch (status) {
      case 'COMPLETED':
        verdict.completed += 1;
        if (netDebits !== 1) {
          verdict.ledgerMismatches += 1;
          problem(externalId, `COMPLETED with ${netDebits} net debits at the provider`);
        }
        break;
      case 'FAILED':
      case 'CANCELLED':
        if (status === 'FAILED') verdict.failed += 1;
        else verdict.cancelled += 1;
        if (netDebits !== 0) {
          verdict.ledgerMismatches += 1;
          problem(externalId, `${status} with ${netDebits} net debits at the provider`);
        }
        break;
      case 'NEEDS_REVIEW':
      case 'PENDING':
      case 'STARTED': {
        const payout = evidence.payouts.get(externalId);
        if (status !== 'PENDING' && payout?.known === false) {
          verdict.lost += 1;
          problem(externalId, `${status} in its batch but unknown to the engine`);
        } else if (status === 'NEEDS_REVIEW' && payout?.reviewReason) {
          verdict.needsReview += 1;
          if (evidence.neverSettling.has(externalId)) verdict.needsReviewNeverSettled += 1;
          const kind = payout.reviewReason.split(':')[0] ?? payout.reviewReason;
          verdict.reviewReasons[kind] = (verdict.reviewReasons[kind] ?? 0) + 1;
        } else {
          verdict.stuckWithoutReason += 1;
          problem(
            externalId,
            status === 'NEEDS_REVIEW' ? 'NEEDS_REVIEW without a reason' : `still ${status} at the deadline`,
          );
        }
        break;
      }
    }
  }
  return verdict;
}
