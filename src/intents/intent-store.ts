/**
 * The engine's durable record of each money movement it is about to make, in its own database (the one
 * that holds the payout registry): an activity that can move money claims its intent before it calls the
 * provider. The key is the business id and the kind of operation, never the workflow run, so that a run
 * made by a reset, a terminate-and-re-run or a replayed batch finds the intent an earlier run claimed and
 * reconciles instead of sending again. Retries within one run (an activity attempt after a timeout, a
 * local activity run again after a lost workflow task) find their own run's claim and keep their path.
 */
import { z } from 'zod';

export const INTENT_KINDS = [
  'payout-submission',
  'charge-creation',
  'defense-submission',
  'card-authorization',
] as const;
export type IntentKind = (typeof INTENT_KINDS)[number];

/**
 * CLAIMED: about to be sent, or sent with no answer recorded yet. SENT: the provider answered (its id in
 * providerId). REFUSED: the provider refused it, nothing moved: a later run may claim it again.
 * UNKNOWN: the request left and its answer was lost.
 */
export const INTENT_STATES = ['CLAIMED', 'SENT', 'REFUSED', 'UNKNOWN'] as const;
export type IntentState = (typeof INTENT_STATES)[number];

/** A row as either dialect returns it (SQLite: times as milliseconds; PostgreSQL: as dates). */
export const intentRowSchema = z
  .object({
    business_id: z.string(),
    kind: z.enum(INTENT_KINDS),
    run_id: z.string(),
    state: z.enum(INTENT_STATES),
    provider_id: z.string().nullable(),
    answer: z.string().nullable(),
    claimed_at: z.coerce.date(),
    updated_at: z.coerce.date(),
  })
  .transform((row) => ({
    businessId: row.business_id,
    kind: row.kind,
    runId: row.run_id,
    state: row.state,
    ...(row.provider_id === null ? {} : { providerId: row.provider_id }),
    ...(row.answer === null ? {} : { answer: row.answer }),
    claimedAt: row.claimed_at,
    updatedAt: row.updated_at,
  }));
/**
 * An intent as the store reads it: `answer` opened (sealed-answer.ts); `answerUnsealed` when the row was written in
 * clear, before answers were sealed; `answerRefused` (and no answer) when the sealed answer does not open as this row's.
 */
export type Intent = Omit<z.output<typeof intentRowSchema>, 'answer'> & {
  answer?: string;
  answerUnsealed?: true;
  answerRefused?: string;
};

export interface IntentKey {
  businessId: string;
  kind: IntentKind;
}

/**
 * `this-run`: claimed now (`fresh`), or earlier by the same run (a retry, which may follow a send whose
 * answer was lost); `earlier-run`: another run holds it.
 */
export type Claim = { by: 'this-run'; fresh: boolean; intent: Intent } | { by: 'earlier-run'; intent: Intent };

export interface IntentUpdate {
  /** CLAIMED with an answer: what is about to be sent (a charge's provider reference), for the run's next attempt. */
  state: IntentState;
  providerId?: string;
  /** JSON of what a re-run needs of the answer (see the table's comment); the store seals it. */
  answer?: string;
}

export interface IntentStore {
  /**
   * Inserts the intent unless it exists; one the provider refused is taken over by the new run. Atomic:
   * of two runs claiming at once, one gets `this-run` and the other `earlier-run`.
   */
  claim(key: IntentKey, runId: string, at?: Date): Promise<Claim>;
  /** What became of the send; only the run that holds the intent writes (a stale run changes nothing). */
  record(key: IntentKey, runId: string, update: IntentUpdate, at?: Date): Promise<void>;
  /**
   * Moves a CLAIMED intent from the run that holds it (`fromRunId`, a run that is over) to `toRunId`, with
   * `answer`. Atomic: true when this call moved it; false when the intent is no longer that run's claim
   * (another run took it over, or the holder recorded what became of it meanwhile).
   */
  takeOver(key: IntentKey, fromRunId: string, toRunId: string, answer?: string, at?: Date): Promise<boolean>;
  find(key: IntentKey): Promise<Intent | undefined>;
  /** The business id whose intent of `kind` the provider answered with `providerId`, if any. */
  businessIdOfProviderId(kind: IntentKind, providerId: string): Promise<string | undefined>;
  close(): Promise<void>;
}
