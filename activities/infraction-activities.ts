/**
 * The MED side of the provider: the sync that reads every page of the infraction list and brings each
 * infraction's workflow up to date (signal-with-start, only when something changed; a record it cannot read
 * starts its workflow in review, the others sync all the same), the defense (sent once: any 2xx is sent; a
 * retry first looks for it at the provider), and the link to the engine's charges.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { AcceptedInfraction, ChargeRefunds } from '../src/infractions/charge-refunds';
import { z } from 'zod';
import { defenseRequestSchema, type Defense } from '../src/infractions/defense';
import { DIFFERENT_DEFENSE_SENT, sameDefense } from '../src/infractions/same-defense';
import { isFinalProviderStatus, type InfractionRecord } from '../src/infractions/infraction-record';
import {
  morePagesAfter,
  readInfractionPage,
  UnreadableListError,
  type InfractionPage,
  type MedReading,
} from '../src/infractions/infraction-page';
import { providerAnswerText } from '../src/infractions/provider-answer';
import { readInfractionRecord, valueAt } from '../src/infractions/record-reader';
import { unreadableProblem } from '../src/infractions/unreadable-record';
import type { PaymentApiClient } from '../src/payment-api/client';
import type { Intent, IntentKey, IntentStore } from '../src/intents/intent-store';
import { keptAnswer } from '../src/intents/kept-answer';
import { BadResponseError, InvalidRequestError, NotFoundError } from '../src/payment-api/errors';
import { claimingRun } from './claiming-run';
import {
  DEFENDABLE_STATES,
  infractionWorkflowId,
  runningInfractionStates,
  signalInfractionRecord,
  startInfractionReview,
  type InfractionState,
} from '../src/lifecycles/infraction-client';

export interface InfractionActivityDependencies {
  api: Pick<PaymentApiClient, 'listInfractions' | 'submitInfractionDefense'>;
  temporal: Client;
  taskQueue: string;
  charges: ChargeRefunds;
  intents: IntentStore;
  /** Where endpoint 7's list is and what its records' fields are called (MED_LIST_ENVELOPE, MED_RECORD_FIELDS). */
  med: MedReading;
  /** INFRACTION_DUE_SOON_LEAD_MS: given to each infraction workflow it starts, which keeps it. */
  dueSoonLeadMs: number;
}

export interface SyncedPage {
  /** This page's number, plus one while a page after it may hold more (the sync reads on until it does not). */
  totalPages: number;
  /** Records on the page, read or not: the next call is told the longest page so far. */
  size: number;
  seen: number;
  /** Infraction workflows started (new infractions). */
  started: number;
  /** Running infraction workflows told of a change. */
  signalled: number;
  /** Records the engine could not read: each with an id started in NEEDS_REVIEW (`reviews`), the others named in `problems`. */
  unreadable: number;
  reviews: number;
  /** Records without a readable id: their field names, and what was missing (at most MAX_PROBLEMS). */
  problems: string[];
}

/**
 * `record`: the provider's record in its answer, when it carries one the engine can read; `providerAnswer`: the answer,
 * bounded and masked; `submittedAt`: when the defense was taken, when an earlier run kept it.
 */
export type DefenseAnswer =
  | { kind: 'submitted'; record?: InfractionRecord; providerAnswer?: string; submittedAt?: string }
  | { kind: 'refused'; reason: string };

/** What a run keeps of the defense the provider took (sealed in its intent): a later run answers the same defense from it, never sends. */
const keptDefenseSchema = z.object({
  defense: defenseRequestSchema,
  providerAnswer: z.string().optional(),
  submittedAt: z.string(),
});
type KeptDefense = z.output<typeof keptDefenseSchema>;

function keptDefense(intent: Intent): KeptDefense | undefined {
  return intent.state === 'SENT' ? keptAnswer(intent, keptDefenseSchema) : undefined;
}

/** The answer to `defense` from the one a run kept: the same is taken, another is refused. */
function answerFromKept(kept: KeptDefense, defense: Defense): DefenseAnswer {
  if (!sameDefense(kept.defense, defense)) return { kind: 'refused', reason: DIFFERENT_DEFENSE_SENT };
  return {
    kind: 'submitted',
    submittedAt: kept.submittedAt,
    ...(kept.providerAnswer ? { providerAnswer: kept.providerAnswer } : {}),
  };
}

const MAX_PROBLEMS = 5;
/** A provider that answers the same full page whatever `page` asks would be read forever. */
export const MAX_LIST_PAGES = 1_000;

/** Whether the provider's record says something the workflow in `state` does not know yet. */
function hasNews(record: InfractionRecord, state: InfractionState): boolean {
  // Waiting for a record it can read: this one is.
  if (state === 'NEEDS_REVIEW' || isFinalProviderStatus(record.providerStatus)) return true;
  return record.defendedAt !== undefined && DEFENDABLE_STATES.includes(state);
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
async function takeOverDefense(
  intents: IntentStore,
  key: IntentKey,
  earlier: Intent,
  runId: string,
  attemptMs: number,
): Promise<'taken' | 'sent-before'> {
  if (earlier.state !== 'CLAIMED') return 'sent-before';
  const idleMs = Date.now() - earlier.updatedAt.getTime();
  if (idleMs < attemptMs + CLOCK_MARGIN_MS) {
    throw ApplicationFailure.retryable(
      `an attempt of the run that claimed this defense ${Math.round(idleMs / 1_000)} s ago may still send it, and the provider shows none: looked at again once ${Math.round((attemptMs + CLOCK_MARGIN_MS) / 1_000)} s have passed`,
      'EarlierClaimMaySend',
    );
  }
  if (!(await intents.takeOver(key, earlier.runId, runId)))
    throw ApplicationFailure.retryable(
      'another run took over this defense meanwhile: its claim is read again',
      'IntentMoved',
    );
  return 'taken';
}

export function createInfractionActivities({
  api,
  temporal,
  taskQueue,
  charges,
  intents,
  med,
  dueSoonLeadMs,
}: InfractionActivityDependencies) {
  /** One page of endpoint 7, read; a list the engine cannot find fails for good (the setting must say where it is). */
  async function readPage(page: number, perPage: number): Promise<InfractionPage> {
    try {
      return readInfractionPage(await api.listInfractions({ page, perPage }), med);
    } catch (error) {
      if (error instanceof UnreadableListError)
        throw ApplicationFailure.nonRetryable(error.message, 'UnreadableInfractionList');
      throw error;
    }
  }

  async function bringUpToDate(
    record: InfractionRecord,
    running: Map<string, InfractionState>,
  ): Promise<'started' | 'signalled' | 'unchanged'> {
    const state = running.get(infractionWorkflowId(record.infractionId));
    if (state !== undefined && !hasNews(record, state)) return 'unchanged';
    if ((await signalInfractionRecord(temporal, record, { taskQueue, dueSoonLeadMs })) === 'closed') return 'unchanged';
    return state === undefined ? 'started' : 'signalled';
  }

  /** The provider's record of one infraction, read through the list (the provider has no GET by id), whatever page size it applies. */
  async function findRecord(infractionId: string): Promise<InfractionRecord | undefined> {
    let longest: number | undefined;
    for (let page = 1; page <= MAX_LIST_PAGES; page += 1) {
      const read = await readPage(page, 100);
      const found = read.records.find((record) => record.infractionId === infractionId);
      if (found) return found;
      if (!morePagesAfter(read.size, longest)) return undefined;
      longest = Math.max(longest ?? 0, read.size);
    }
    return undefined;
  }

  /** A record the engine cannot read: started in review when it has an id and no workflow yet; else named in the page's problems. */
  async function setAside(
    read: InfractionPage,
    running: Map<string, InfractionState>,
    result: SyncedPage,
  ): Promise<void> {
    for (const unreadable of read.unreadable) {
      const { infractionId } = unreadable;
      if (infractionId === undefined) {
        if (result.problems.length < MAX_PROBLEMS) result.problems.push(unreadableProblem(unreadable));
        continue;
      }
      // A running workflow keeps the record it last read.
      if (running.has(infractionWorkflowId(infractionId))) continue;
      if (
        (await startInfractionReview(temporal, { ...unreadable, infractionId }, { taskQueue, dueSoonLeadMs })) ===
        'started'
      )
        result.reviews += 1;
    }
  }

  return {
    /**
     * One page of the provider's list; every infraction on it brought up to date, those it cannot read set
     * aside. `longestBefore`: the longest page the sync has read so far. Idempotent.
     */
    async syncInfractionPage(page: number, perPage: number, longestBefore?: number): Promise<SyncedPage> {
      const read = await readPage(page, perPage);
      const ids = [
        ...read.records.map((record) => record.infractionId),
        ...read.unreadable.flatMap((unreadable) => unreadable.infractionId ?? []),
      ];
      const running = await runningInfractionStates(temporal, ids);
      const more = morePagesAfter(read.size, longestBefore);
      const result: SyncedPage = {
        totalPages: more ? page + 1 : page,
        size: read.size,
        seen: read.size,
        started: 0,
        signalled: 0,
        unreadable: read.unreadable.length,
        reviews: 0,
        problems: [],
      };
      for (const record of read.records) {
        const outcome = await bringUpToDate(record, running);
        if (outcome !== 'unchanged') result[outcome] += 1;
      }
      await setAside(read, running, result);
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
      const kept = keptDefense(claim.intent);
      if (kept) return answerFromKept(kept, defense);
      // This attempt may send from now on: the claim says so (an earlier-run rule counts from here).
      if (claim.by === 'this-run' && !claim.fresh && claim.intent.state === 'CLAIMED')
        await intents.record(key, runId, { state: 'CLAIMED' });
      const mayHaveBeenSent = claim.by === 'earlier-run' || !claim.fresh || attempt > 1;
      if (mayHaveBeenSent) {
        const existing = await findRecord(infractionId);
        if (existing?.defendedAt) return { kind: 'submitted', record: existing };
        if (
          claim.by === 'earlier-run' &&
          (await takeOverDefense(intents, key, claim.intent, runId, startToCloseTimeoutMs)) === 'sent-before'
        ) {
          return { kind: 'refused', reason: DEFENSE_SENT_BEFORE };
        }
      }
      // Past its start-to-close timeout this attempt is given up by Temporal: it must not send any more.
      if (Date.now() - startedAt >= startToCloseTimeoutMs)
        throw ApplicationFailure.retryable(
          'the attempt ran out of its time before sending the defense',
          'AttemptTimedOut',
        );
      const taken = async (answer: DefenseAnswer & { kind: 'submitted' }): Promise<DefenseAnswer> => {
        const submittedAt = answer.record?.defendedAt ?? new Date().toISOString();
        await intents.record(key, runId, {
          state: 'SENT',
          answer: JSON.stringify({ defense, submittedAt, providerAnswer: answer.providerAnswer } satisfies KeptDefense),
        });
        return { ...answer, submittedAt };
      };
      try {
        const answer = await api.submitInfractionDefense(infractionId, {
          analise: defense.analise,
          justificativa: defense.justificativa,
          ...(defense.proofs.length > 0 ? { proofs: defense.proofs } : {}),
        });
        return await taken(takenDefense(infractionId, answer, med));
      } catch (error) {
        // Taken (a 2xx) with an answer that is not JSON: sent all the same, and never sent again.
        if (error instanceof BadResponseError && isSuccess(error.details.status))
          return taken({ kind: 'submitted', providerAnswer: 'a 2xx answer that is not JSON' });
        // Refused after a send whose answer was lost, by a provider that does not show defenses: most likely refused
        // because it holds that first one. Taken, with the refusal as the provider's answer for the merchant to read.
        if (error instanceof InvalidRequestError && mayHaveBeenSent) {
          return taken({
            kind: 'submitted',
            providerAnswer: `not confirmed: the answer to an earlier send was lost, and the provider refused it sent again: ${error.message}`,
          });
        }
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

const isSuccess = (status: unknown): boolean => typeof status === 'number' && status >= 200 && status < 300;

/** Endpoint 8's 2xx (shape not shown): the record it carries (under `infraction`, or as the answer itself) when it is this one's and readable. */
function takenDefense(infractionId: string, answer: unknown, med: MedReading): DefenseAnswer & { kind: 'submitted' } {
  const providerAnswer = providerAnswerText(answer);
  for (const candidate of [valueAt(answer, 'infraction'), answer]) {
    const read = readInfractionRecord(candidate, med.fields);
    if (read.kind === 'read' && read.record.infractionId === infractionId)
      return { kind: 'submitted', record: read.record, providerAnswer };
  }
  return { kind: 'submitted', providerAnswer };
}
