/**
 * Between the HTTP routes and Temporal: starts payout workflows under their business id and talks to
 * them through the shared message definitions. Knows nothing about HTTP beyond the ApiErrors it throws.
 */
import { WorkflowIdReusePolicy, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
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
import type { payoutWorkflow } from '../../../workflows/payout/payout-workflow';
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
  ) {}

  async submit(request: PayoutRequest): Promise<SubmittedPayout> {
    const input = payoutInput(request, this.config);
    const workflowId = payoutWorkflowId(request.externalId);
    try {
      await this.client.workflow.start<typeof payoutWorkflow>('payoutWorkflow', {
        workflowId,
        taskQueue: this.config.TEMPORAL_TASK_QUEUE,
        args: [input],
        // A closed payout keeps its id for the namespace's retention; past that the provider's external_id check holds.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        memo: { requestHash: input.requestHash },
      });
      return { created: true, externalId: request.externalId, workflowId, status: 'RECEIVED' };
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) rethrowAsApiError(error);
    }
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
