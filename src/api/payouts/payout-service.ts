/**
 * Between the HTTP routes and Temporal: starts payout workflows under their business id and talks to
 * them through the shared message definitions. Knows nothing about HTTP beyond the ApiErrors it throws.
 */
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { BatchStore } from '../../batches/batch-store';
import type { Config } from '../../config/env';
import { PayoutStatus } from '../../temporal/search-attributes';
import {
  cancelPayoutUpdate,
  payoutStatusQuery,
  payoutWorkflowId,
  recheckPayoutUpdate,
  type CancelOutcome,
  type PayoutInput,
  type PayoutTiming,
  type PayoutView,
} from '../../../workflows/payout/messages';
import { startPayoutWorkflow } from '../../payouts/start-payout';
import { ApiError } from '../errors';
import { rethrowAsApiError } from '../temporal-errors';
import { payoutRequestHash, type PayoutRequest } from './payout-request';

export interface SubmittedPayout {
  created: boolean;
  externalId: string;
  workflowId: string;
  status: string;
}

export type TimingConfig = Pick<
  Config,
  'TEMPORAL_TASK_QUEUE' | 'PAYOUT_CALLBACK_WAIT_MS' | 'PAYOUT_POLL_INITIAL_MS' | 'PAYOUT_POLL_MAX_MS' | 'PAYOUT_REVIEW_AFTER_MS' | 'PAYOUT_SUBMIT_DEADLINE_MS'
>;

export function payoutTiming(config: TimingConfig): PayoutTiming {
  return {
    callbackWaitMs: config.PAYOUT_CALLBACK_WAIT_MS,
    pollInitialMs: config.PAYOUT_POLL_INITIAL_MS,
    pollMaxMs: config.PAYOUT_POLL_MAX_MS,
    reviewAfterMs: config.PAYOUT_REVIEW_AFTER_MS,
    submitDeadlineMs: config.PAYOUT_SUBMIT_DEADLINE_MS,
  };
}

export function payoutInput(request: PayoutRequest, config: TimingConfig): PayoutInput {
  return { ...request, requestHash: payoutRequestHash(request), timing: payoutTiming(config) };
}

function notFound(externalId: string): ApiError {
  return new ApiError(404, 'PAYOUT_NOT_FOUND', `No payout with externalId ${externalId}`);
}

export class PayoutService {
  constructor(
    private readonly client: Client,
    private readonly config: TimingConfig,
    private readonly batches: BatchStore,
  ) {}

  async submit(request: PayoutRequest): Promise<SubmittedPayout> {
    // One id, one payout: an item of a batch is paid by its batch, never by a single request too.
    if (!this.batches.registerPayout(request.externalId)) {
      const batchId = this.batches.payoutOwner(request.externalId)?.batchId;
      if (batchId) throw new ApiError(409, 'PAYOUT_IN_BATCH', `externalId ${request.externalId} is an item of batch ${batchId}`);
    }
    const input = payoutInput(request, this.config);
    const started = await startPayoutWorkflow(this.client, input, this.config.TEMPORAL_TASK_QUEUE).catch(rethrowAsApiError);
    if (started === 'started') return { created: true, externalId: request.externalId, workflowId: payoutWorkflowId(request.externalId), status: 'RECEIVED' };
    return this.existing(request.externalId, input.requestHash);
  }

  private async existing(externalId: string, requestHash: string): Promise<SubmittedPayout> {
    const workflowId = payoutWorkflowId(externalId);
    const description = await this.client.workflow.getHandle(workflowId).describe().catch(rethrowAsApiError);
    if (description.memo?.requestHash !== requestHash) {
      throw new ApiError(409, 'PAYOUT_CONFLICT', `A different payout with externalId ${externalId} already exists`);
    }
    const status = description.typedSearchAttributes.get(PayoutStatus) ?? 'RECEIVED';
    return { created: false, externalId, workflowId, status };
  }

  async get(externalId: string): Promise<PayoutView> {
    try {
      return await this.client.workflow.getHandle(payoutWorkflowId(externalId)).query(payoutStatusQuery);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw notFound(externalId);
      return rethrowAsApiError(error);
    }
  }

  async recheck(externalId: string): Promise<PayoutView> {
    await this.get(externalId);
    return this.client.workflow
      .getHandle(payoutWorkflowId(externalId))
      .executeUpdate(recheckPayoutUpdate)
      .catch((error: unknown) => this.afterUpdateFailure(externalId, error));
  }

  async cancel(externalId: string, reason: string): Promise<CancelOutcome> {
    await this.get(externalId);
    try {
      return await this.client.workflow.getHandle(payoutWorkflowId(externalId)).executeUpdate(cancelPayoutUpdate, { args: [{ reason }] });
    } catch (error) {
      const view = await this.afterUpdateFailure(externalId, error);
      return { cancelled: false, reason: `the payout is already ${view.state}`, view };
    }
  }

  /** An update to a workflow that just closed fails; its final view is the answer. */
  private async afterUpdateFailure(externalId: string, error: unknown): Promise<PayoutView> {
    if (error instanceof WorkflowNotFoundError) return this.get(externalId);
    return rethrowAsApiError(error);
  }
}
