/**
 * Between the HTTP routes and Temporal: starts payout workflows under their business id and talks to
 * them through the shared message definitions, every call within a deadline. Knows nothing about HTTP
 * beyond the ApiErrors it throws.
 */
import { WorkflowNotFoundError } from '@temporalio/common';
import {
  WorkflowUpdateStage,
  type Client,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
  type WorkflowUpdateHandle,
} from '@temporalio/client';
import type { BatchStore } from '../../batches/batch-store';
import type { ViewSource } from '../lifecycle-view';
import type { IntentKey, IntentStore } from '../../intents/intent-store';
import type { Config } from '../../config/env';
import { payoutTiming, type PayoutTimingConfig } from '../../payouts/payout-input';
import type { z } from 'zod';
import { reaisToCentavos } from '../../money/centavos';
import { PaymentApiError } from '../../payment-api/errors';
import type { CryptoFeesResponse } from '../../payment-api/schemas/crypto';
import type { PayoutRequest } from '../../payouts/payout-request';
import type { CryptoFeeReader } from '../../payouts/rails/crypto/fee-reader';
import { quoteCrypto, type CryptoQuote } from '../../payouts/rails/crypto/quote';
import {
  previewCopyPaste,
  type copyPastePreviewRequestSchema,
  type CopyPastePreview,
  type PixOutFeeSchedule,
} from '../../payouts/rails/pix-copy-paste/preview';
import { pollUntil } from '../../util/poll';
import { railUnavailable, type RailSettings } from '../../payouts/rails/availability';
import { methodOfFlow } from '../../payouts/rails/methods';
import { AmountCents, BatchId, Flow, PayoutStatus } from '../../temporal/search-attributes';
import {
  cancelPayoutUpdate,
  payoutStatusQuery,
  payoutWorkflowId,
  recheckAskedSignal,
  recheckPayoutUpdate,
  type CancelOutcome,
  type PayoutView,
  type PayoutWorkflow,
  PAYOUT_STATES,
  type PayoutState,
  payoutInput,
  startPayoutWorkflow,
  payoutHandle,
} from '../../lifecycles/payout-client';
import { ApiError } from '../errors';
import { readWorkflow } from '../workflow-reading';
import { withinDeadline } from '../temporal-calls';
import { sendUpdate, sendUpdateUnlessBusy, type UpdateOutcome } from '../workflow-updates';
import {
  FENCE_RUN_PREFIX,
  intentView,
  unfinishedStatus,
  type IntentView,
  type UnfinishedStatus,
} from '../unfinished-workflow';
import { recordedInput } from './payout-rerun';
import { acceptedPayout } from '../../read-model/payout-records';
import type { ReadModel } from '../../read-model/read-model';
import { differingFields } from '../../payouts/request-differences';

/** What POST /v1/payouts answers (`created` aside, which says whether this request started it). */
export interface SubmittedPayout {
  created: boolean;
  externalId: string;
  status: string;
  workflowId: string;
}

/**
 * Where a view came from: the workflow itself, or (no worker answered in time) the visibility index. A
 * payout whose workflow closed without its outcome (terminated, say) says so, with its submission intent.
 */
export type PayoutReading = { source: ViewSource; view: PayoutView } & {
  unfinished?: { executionStatus: UnfinishedStatus; runId: string; submission: IntentView };
  /** The PIX key it was sent to, masked, from the read model. */
  destination?: { keyType: string; pixKey: string };
};

export type PayoutServiceConfig = PayoutTimingConfig &
  RailSettings &
  Pick<
    Config,
    'TEMPORAL_TASK_QUEUE' | 'TEMPORAL_CALL_DEADLINE_MS' | 'PROVIDER_PIX_FEE_FIXED' | 'PROVIDER_PIX_FEE_PERCENT'
  >;

// An update's answer may wait for a provider call (30 s, retried): bounded, but longer than a plain call.
const UPDATE_ANSWER_DEADLINE_MS = 120_000;
/**
 * How long a recheck waits for the workflow to take it as an update: a free worker takes it in milliseconds (a
 * loaded one within a second); past this its task is busy (a local activity waiting for the provider), and the
 * recheck goes by signal instead. At most TEMPORAL_CALL_DEADLINE_MS.
 */
const RECHECK_ACCEPT_MS = 2_000;

function notFound(externalId: string): ApiError {
  return new ApiError(404, 'PAYOUT_NOT_FOUND', `No payout with externalId ${externalId}`);
}

function submissionKey(externalId: string): IntentKey {
  return { businessId: externalId, kind: 'payout-submission' };
}

function isPayoutState(value: string | undefined): value is PayoutState {
  return (PAYOUT_STATES as readonly string[]).includes(value ?? '');
}

/** What the visibility index knows of a payout (state, amount, batch), for when its workflow cannot answer now (furthest). */
function indexView(externalId: string, description: WorkflowExecutionDescription): PayoutView {
  const state = description.typedSearchAttributes.get(PayoutStatus);
  const batchId = description.typedSearchAttributes.get(BatchId);
  return {
    externalId,
    method: methodOfFlow(description.typedSearchAttributes.get(Flow)) ?? 'pix_key',
    state: isPayoutState(state) ? state : 'RECEIVED',
    amountCents: description.typedSearchAttributes.get(AmountCents) ?? 0,
    requestHash: typeof description.memo?.requestHash === 'string' ? description.memo.requestHash : '',
    ...(batchId ? { batchId } : {}),
    callbacksReceived: 0,
    checksMade: 0,
    transitions: [],
  };
}

/** How far along each state is: SUBMITTED precedes review, which precedes the final states. */
const PROGRESS: Record<PayoutState, number> = {
  RECEIVED: 0,
  SUBMITTED: 1,
  NEEDS_REVIEW: 2,
  COMPLETED: 3,
  FAILED: 3,
  CANCELLED: 3,
};

/**
 * When the workflow cannot answer: the index's view or the read model's, whichever is further along. The index
 * leaves out SUBMITTED (payouts of version 5 on), which the read model has from the provider's answer on.
 */
function furthest(indexed: PayoutView, stored: PayoutView | undefined): PayoutView {
  return stored && PROGRESS[stored.state] > PROGRESS[indexed.state] ? stored : indexed;
}

/** `later`: the workflow was asked to look when its task lets it; the reading is its view before that look. */
export interface RecheckAnswer {
  later: boolean;
  reading: PayoutReading;
}

export class PayoutService {
  private readonly feeSchedule: PixOutFeeSchedule;

  constructor(
    private readonly client: Client,
    private readonly config: PayoutServiceConfig,
    private readonly batches: BatchStore,
    private readonly cryptoFees: CryptoFeeReader,
    private readonly intents: Pick<IntentStore, 'find' | 'claim'>,
    private readonly readModel: Pick<ReadModel, 'recordPayout' | 'findPayout'>,
  ) {
    // Percent with 2 places → basis points: the same exact "× 100 from the digits" as reais → centavos.
    this.feeSchedule = {
      fixedCents: reaisToCentavos(config.PROVIDER_PIX_FEE_FIXED),
      percentBasisPoints: reaisToCentavos(config.PROVIDER_PIX_FEE_PERCENT),
    };
  }

  async submit(request: PayoutRequest): Promise<SubmittedPayout> {
    const unavailable = railUnavailable(request.method, this.config);
    if (unavailable)
      throw new ApiError(422, 'RAIL_NOT_AVAILABLE', `${unavailable}; nothing was started`, [
        { path: 'method', message: unavailable },
      ]);
    // One id, one payout: an item of a batch is paid by its batch, never by a single request too.
    const batchId = (await this.batches.payoutOwner(request.externalId))?.batchId;
    if (batchId)
      throw new ApiError(409, 'PAYOUT_IN_BATCH', `externalId ${request.externalId} is an item of batch ${batchId}`);
    // Out of the provider's bounds is refused before anything starts; the workflow checks again when it submits.
    if (request.method === 'crypto') await this.quoteCrypto(request.amountCents);
    const input = payoutInput(request, payoutTiming(this.config));
    const started = await this.call(() => startPayoutWorkflow(this.client, input, this.config.TEMPORAL_TASK_QUEUE));
    // Registered once its workflow exists, so that a start that failed leaves the id free for a batch.
    await this.batches.registerPayout(request.externalId);
    if (started === 'started') {
      await this.readModel.recordPayout(acceptedPayout(input));
      return {
        created: true,
        externalId: request.externalId,
        status: 'RECEIVED',
        workflowId: payoutWorkflowId(request.externalId),
      };
    }
    return this.existing(request, input.requestHash);
  }

  private async existing(request: PayoutRequest, requestHash: string): Promise<SubmittedPayout> {
    const { externalId } = request;
    const workflowId = payoutWorkflowId(externalId);
    const description = await this.call(() => this.handle(externalId).describe());
    if (description.memo?.requestHash !== requestHash) throw await this.conflict(request);
    const status = (await this.knownView(externalId, description)).state;
    return { created: false, externalId, status, workflowId };
  }

  /**
   * A different request under an id already taken: the 409 names the fields that differ from the stored request
   * (read back from the payout's history), never their values. Unreadable in time: the 409 without the names.
   */
  private async conflict(request: PayoutRequest): Promise<ApiError> {
    const taken = `A different payout with externalId ${request.externalId} already exists`;
    let fields: string[];
    try {
      const stored = await this.call(() =>
        recordedInput(this.client, this.handle(request.externalId), request.externalId),
      );
      fields = differingFields(stored, request);
    } catch {
      fields = [];
    }
    if (fields.length === 0) return new ApiError(409, 'PAYOUT_CONFLICT', taken);
    const issues = fields.map((field) => ({ path: field, message: 'differs from the stored request' }));
    return new ApiError(
      409,
      'PAYOUT_CONFLICT',
      `${taken}: ${fields.join(', ')} differ${fields.length === 1 ? 's' : ''} from the stored request`,
      issues,
    );
  }

  /** Without paying: the payee, amount and fee of a copy-and-paste code. */
  previewCopyPaste(request: z.output<typeof copyPastePreviewRequestSchema>): CopyPastePreview {
    const read = previewCopyPaste(request, this.feeSchedule);
    if (!read.ok)
      throw new ApiError(
        422,
        'PAYOUT_NOT_PAYABLE',
        'The code cannot be paid',
        read.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      );
    return read.preview;
  }

  /** Without paying: what a crypto payout of this amount costs and delivers at the provider's current fees. */
  async quoteCrypto(amountCents: number): Promise<CryptoQuote> {
    let fees: CryptoFeesResponse;
    try {
      fees = await this.cryptoFees.read();
    } catch (error) {
      if (error instanceof PaymentApiError)
        throw new ApiError(
          503,
          'PROVIDER_UNAVAILABLE',
          `The provider's crypto fees could not be read; retry later (${error.message})`,
        );
      throw error;
    }
    const quoted = quoteCrypto(amountCents, fees);
    if (!quoted.ok)
      throw new ApiError(422, 'AMOUNT_OUT_OF_RANGE', quoted.reason, [{ path: 'amount', message: quoted.reason }]);
    return quoted.quote;
  }

  /**
   * A closed payout answers from its result; a running one from its query, or from the index (state, amount, batch) when no worker answers;
   * one whose workflow Temporal no longer has (retention) from the read model. The masked destination comes from the read model.
   */
  async read(externalId: string): Promise<PayoutReading> {
    const stored = await this.readModel.findPayout(externalId);
    const destination =
      stored?.keyType && stored.destination
        ? { destination: { keyType: stored.keyType, pixKey: stored.destination } }
        : {};
    try {
      return { ...(await this.readFromTemporal(externalId, stored?.view)), ...destination };
    } catch (error) {
      if (!stored || !(error instanceof ApiError) || error.status !== 404) throw error;
      return { source: 'store', view: stored.view, ...destination };
    }
  }

  private async readFromTemporal(externalId: string, stored: PayoutView | undefined): Promise<PayoutReading> {
    const reading = await readWorkflow(this.client, this.handle(externalId), {
      deadlineMs: this.config.TEMPORAL_CALL_DEADLINE_MS,
      query: payoutStatusQuery,
      notFound: () => notFound(externalId),
      fromIndex: (description) => furthest(indexView(externalId, description), stored),
    });
    const executionStatus = unfinishedStatus(reading.executionStatus);
    const { source, view } = reading;
    if (!executionStatus) return { source, view };
    const submission = intentView(await this.intents.find(submissionKey(externalId)));
    return { source, view, unfinished: { executionStatus, runId: reading.runId, submission } };
  }

  /**
   * "Look now". Taken by the workflow at once (its task free), the answer is its view once the provider was asked.
   * Its task busy (a submission waiting for a slow provider holds it), or still being submitted, the workflow is
   * asked by a signal to look when it can, and the answer is its current view, `later`. Final: its view. A payout
   * whose workflow closed unfinished is re-run, and the re-run asks the provider.
   */
  async recheck(externalId: string): Promise<RecheckAnswer> {
    const acceptMs = Math.min(RECHECK_ACCEPT_MS, this.config.TEMPORAL_CALL_DEADLINE_MS);
    const outcome = await sendUpdateUnlessBusy(this.client, { acceptMs, answerMs: UPDATE_ANSWER_DEADLINE_MS }, () =>
      this.handle(externalId).startUpdate(recheckPayoutUpdate, { waitForStage: WorkflowUpdateStage.ACCEPTED }),
    );
    if (outcome.kind === 'answered') return { later: false, reading: { source: 'workflow', view: outcome.result } };
    if (outcome.kind === 'busy')
      return (await this.askToLook(externalId))
        ? { later: true, reading: await this.indexed(externalId) }
        : this.recheckClosed(externalId);
    return this.recheckClosed(externalId);
  }

  /** Refused (still being submitted, or final) or closed: its view, asked to look when it can while it is still being submitted. */
  private async recheckClosed(externalId: string): Promise<RecheckAnswer> {
    const current = await this.read(externalId);
    // Temporal no longer has it: it ended long ago, and its last view is the answer.
    if (current.source === 'store') return { later: false, reading: current };
    if (current.unfinished) return { later: false, reading: await this.rerun(externalId, current.unfinished) };
    if (current.view.state === 'RECEIVED' && (await this.askToLook(externalId)))
      return { later: true, reading: current };
    return { later: false, reading: current };
  }

  /** False when the workflow had closed meanwhile. */
  private async askToLook(externalId: string): Promise<boolean> {
    try {
      await this.call(() => this.handle(externalId).signal(recheckAskedSignal));
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }

  /** The view the visibility index (or the read model) holds, without waiting for the workflow's task. */
  private async indexed(externalId: string): Promise<PayoutReading> {
    const description = await this.call(() => this.handle(externalId).describe());
    return { source: 'index', view: await this.knownView(externalId, description) };
  }

  /** The index's view or the read model's, whichever is further along (furthest), without asking the workflow. */
  private async knownView(externalId: string, description: WorkflowExecutionDescription): Promise<PayoutView> {
    return furthest(indexView(externalId, description), (await this.readModel.findPayout(externalId))?.view);
  }

  async cancel(externalId: string, reason: string): Promise<CancelOutcome> {
    const current = await this.read(externalId);
    if (current.source === 'store')
      return { cancelled: false, reason: `the payout is already ${current.view.state}`, view: current.view };
    const outcome = await this.update(() =>
      this.handle(externalId).startUpdate(cancelPayoutUpdate, {
        args: [{ reason }],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      }),
    );
    if (outcome.kind === 'answered') return outcome.result;
    const { view } = await this.read(externalId);
    return {
      cancelled: false,
      reason: outcome.kind === 'refused' ? outcome.reason : `the payout is already ${view.state}`,
      view,
    };
  }

  /**
   * A new run of a payout whose workflow closed unfinished, when something may be at the provider: it
   * reconciles through the intent the closed run claimed, and its view is the answer once it has asked
   * (or the call deadline passed). With no intent, nothing was sent: the intent is claimed for the recheck
   * (a late attempt of the closed run then sends nothing either) and the answer is 409.
   */
  private async rerun(
    externalId: string,
    unfinished: NonNullable<PayoutReading['unfinished']>,
  ): Promise<PayoutReading> {
    if (unfinished.submission.intent === 'NONE') {
      const fence = await this.intents.claim(submissionKey(externalId), `${FENCE_RUN_PREFIX}${unfinished.runId}`);
      if (fence.by === 'this-run' || fence.intent.runId.startsWith(FENCE_RUN_PREFIX)) {
        throw new ApiError(
          409,
          'PAYOUT_NEVER_SENT',
          `The payout's workflow was ${unfinished.executionStatus} before its submission was claimed: nothing was sent to the provider, and nothing will be`,
        );
      }
    }
    const input = await this.call(() => recordedInput(this.client, this.handle(externalId), externalId));
    await this.call(() => startPayoutWorkflow(this.client, input, this.config.TEMPORAL_TASK_QUEUE, { rerun: true }));
    try {
      return await pollUntil(
        async () => {
          const reading = await this.read(externalId);
          return reading.unfinished || reading.view.state === 'RECEIVED' ? undefined : reading;
        },
        {
          timeoutMs: this.config.TEMPORAL_CALL_DEADLINE_MS,
          intervalMs: 100,
          description: `the re-run of payout ${externalId} to ask the provider`,
        },
      );
    } catch {
      // Still asking: its view so far is the answer; the payout goes on by itself.
      return this.read(externalId);
    }
  }

  /** Accepted (or refused) within the call deadline; the answer within a longer, still bounded, one. */
  private update<R>(start: () => Promise<WorkflowUpdateHandle<R>>): Promise<UpdateOutcome<R>> {
    return sendUpdate(
      this.client,
      { acceptMs: this.config.TEMPORAL_CALL_DEADLINE_MS, answerMs: UPDATE_ANSWER_DEADLINE_MS },
      start,
    );
  }

  private handle(externalId: string): WorkflowHandle<PayoutWorkflow> {
    return payoutHandle(this.client, externalId);
  }

  private call<T>(call: () => Promise<T>): Promise<T> {
    return withinDeadline(this.client, this.config.TEMPORAL_CALL_DEADLINE_MS, call);
  }
}
