/**
 * The MED side of the provider: the sync that reads every page of the infraction list and brings each
 * infraction's workflow up to date (signal-with-start, only when something changed), the defense (sent
 * once: a retry first looks for it at the provider), and the link to the engine's charges.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { AcceptedInfraction, ChargeRefunds } from '../src/infractions/charge-refunds';
import type { Defense } from '../src/infractions/defense';
import { isFinalProviderStatus, toInfractionRecord, type InfractionRecord } from '../src/infractions/infraction-record';
import type { PaymentApiClient } from '../src/payment-api/client';
import type { Intent, IntentKey, IntentStore } from '../src/intents/intent-store';
import { InvalidRequestError, NotFoundError } from '../src/payment-api/errors';
import { claimingRun } from './claiming-run';
import { DEFENDABLE_STATES, infractionWorkflowId, runningInfractionStates, signalInfractionRecord, type InfractionState } from '../src/lifecycles/infraction-client';

export interface InfractionActivityDependencies {
  api: Pick<PaymentApiClient, 'listInfractions' | 'submitInfractionDefense'>;
  temporal: Client;
  taskQueue: string;
  charges: ChargeRefunds;
  intents: IntentStore;
}

export interface SyncedPage {
  totalPages: number;
  seen: number;
  /** Infraction workflows started (new infractions). */
  started: number;
  /** Running infraction workflows told of a change. */
  signalled: number;
}

export type DefenseAnswer = { kind: 'submitted'; record: InfractionRecord } | { kind: 'refused'; reason: string };

/** Whether the provider's record says something the workflow in `state` does not know yet. */
function hasNews(record: InfractionRecord, state: InfractionState): boolean {
  if (isFinalProviderStatus(record.providerStatus)) return true;
  return record.defendedAt !== undefined && DEFENDABLE_STATES.includes(state);
}

/** The pages there are, as far as this one tells: its totalPages, else its total, else one more while pages come full. */
function pageCount(list: { data: readonly unknown[]; total?: number | undefined; totalPages?: number | undefined }, page: number, perPage: number): number {
  if (list.totalPages !== undefined) return list.totalPages;
  if (list.total !== undefined) return Math.ceil(list.total / perPage);
  return list.data.length < perPage ? page : page + 1;
}

export const DEFENSE_SENT_BEFORE =
  'a defense of this infraction was sent by an earlier run of its workflow (a reset or a re-run) and the provider does not show it yet: look again before sending another';

/**
 * How long after a run last touched its claim an attempt of it may still send: each attempt touches the
 * claim when it starts and sends only within its start-to-close timeout; the margin covers clocks of
 * workers that differ by a few seconds.
 */
const CLOCK_MARGIN_MS = 5_000;

/**
 * The takeover rule of a defense claimed by an earlier run (a reset, or a run after a terminate) when the
 * provider shows no defense: the earlier run is over, but an attempt of it may still be on its way. Once
 * no attempt of it can still send (its claim untouched for a whole attempt), this run takes the claim over
 * and sends; before that it is looked at again (a retryable failure: the activity's retry waits). A claim
 * the earlier run recorded as SENT is never sent again: the provider will show it.
 */
async function takeOverDefense(intents: IntentStore, key: IntentKey, earlier: Intent, runId: string, attemptMs: number): Promise<'taken' | 'sent-before'> {
  if (earlier.state !== 'CLAIMED') return 'sent-before';
  const idleMs = Date.now() - earlier.updatedAt.getTime();
  if (idleMs < attemptMs + CLOCK_MARGIN_MS) {
    throw ApplicationFailure.retryable(
      `an attempt of the run that claimed this defense ${Math.round(idleMs / 1_000)} s ago may still send it, and the provider shows none: looked at again once ${Math.round((attemptMs + CLOCK_MARGIN_MS) / 1_000)} s have passed`,
      'EarlierClaimMaySend',
    );
  }
  if (!(await intents.takeOver(key, earlier.runId, runId))) throw ApplicationFailure.retryable('another run took over this defense meanwhile: its claim is read again', 'IntentMoved');
  return 'taken';
}

export function createInfractionActivities({ api, temporal, taskQueue, charges, intents }: InfractionActivityDependencies) {
  async function bringUpToDate(record: InfractionRecord, running: Map<string, InfractionState>): Promise<'started' | 'signalled' | 'unchanged'> {
    const state = running.get(infractionWorkflowId(record.infractionId));
    if (state !== undefined && !hasNews(record, state)) return 'unchanged';
    if ((await signalInfractionRecord(temporal, record, taskQueue)) === 'closed') return 'unchanged';
    return state === undefined ? 'started' : 'signalled';
  }

  /** The provider's record of one infraction, read through the list (the provider has no GET by id). */
  async function findRecord(infractionId: string): Promise<InfractionRecord | undefined> {
    for (let page = 1; ; page += 1) {
      const list = await api.listInfractions({ page, perPage: 100 });
      const found = list.data.find((infraction) => infraction.id === infractionId);
      if (found) return toInfractionRecord(found);
      if (page >= pageCount(list, page, 100)) return undefined;
    }
  }

  return {
    /** One page of the provider's list; every infraction on it brought up to date. Idempotent. */
    async syncInfractionPage(page: number, perPage: number): Promise<SyncedPage> {
      const list = await api.listInfractions({ page, perPage });
      const records = list.data.map(toInfractionRecord);
      const running = await runningInfractionStates(temporal, records.map((record) => record.infractionId));
      const result: SyncedPage = { totalPages: pageCount(list, page, perPage), seen: records.length, started: 0, signalled: 0 };
      for (const record of records) {
        const outcome = await bringUpToDate(record, running);
        if (outcome !== 'unchanged') result[outcome] += 1;
      }
      return result;
    },

    /**
     * Sent once: the intent is claimed first; an attempt after the first, or a claim this run made before,
     * looks for the defense at the provider before sending it again; a claim of an earlier run looks, and is
     * taken over only once no attempt of that run can still send (takeOverDefense).
     */
    async submitDefense(infractionId: string, defense: Defense): Promise<DefenseAnswer> {
      const { attempt, startToCloseTimeoutMs } = Context.current().info;
      const startedAt = Date.now();
      const key: IntentKey = { businessId: infractionId, kind: 'defense-submission' };
      const runId = claimingRun();
      const claim = await intents.claim(key, runId);
      // This attempt may send from now on: the claim says so (an earlier-run rule counts from here).
      if (claim.by === 'this-run' && !claim.fresh && claim.intent.state === 'CLAIMED') await intents.record(key, runId, { state: 'CLAIMED' });
      if (claim.by === 'earlier-run' || !claim.fresh || attempt > 1) {
        const existing = await findRecord(infractionId);
        if (existing?.defendedAt) return { kind: 'submitted', record: existing };
        if (claim.by === 'earlier-run' && (await takeOverDefense(intents, key, claim.intent, runId, startToCloseTimeoutMs)) === 'sent-before') {
          return { kind: 'refused', reason: DEFENSE_SENT_BEFORE };
        }
      }
      // Past its start-to-close timeout this attempt is given up by Temporal: it must not send any more.
      if (Date.now() - startedAt >= startToCloseTimeoutMs) throw ApplicationFailure.retryable('the attempt ran out of its time before sending the defense', 'AttemptTimedOut');
      try {
        const { infraction } = await api.submitInfractionDefense(infractionId, {
          analise: defense.analise,
          justificativa: defense.justificativa,
          ...(defense.proofs.length > 0 ? { proofs: defense.proofs } : {}),
        });
        await intents.record(key, runId, { state: 'SENT' });
        return { kind: 'submitted', record: toInfractionRecord(infraction) };
      } catch (error) {
        if (error instanceof InvalidRequestError || error instanceof NotFoundError) {
          await intents.record(key, runId, { state: 'REFUSED' });
          return { kind: 'refused', reason: error.message };
        }
        throw error;
      }
    },

    findCharge(transactionId: string): Promise<string | null> {
      return charges.findByProviderTransactionId(transactionId);
    },

    recordRefundOnCharge(chargeExternalId: string, infraction: AcceptedInfraction): Promise<boolean> {
      return charges.recordAcceptedInfraction(chargeExternalId, infraction);
    },
  };
}

export type InfractionActivities = ReturnType<typeof createInfractionActivities>;
