/**
 * The charge lifecycle's client. The API creates a charge with update-with-start: the workflow starts (or
 * is found) and answers the created charge in the same round trip. For infractions: a charge found by the
 * provider's id of the PIX that paid it (the charge indexes it when it is paid), and told of an accepted
 * infraction by a signal.
 */
import { WithStartWorkflowOperation, type Client, type WorkflowUpdateHandle } from '@temporalio/client';
import { WorkflowIdReusePolicy, WorkflowNotFoundError } from '@temporalio/common';
import type { ChargeInput } from '../charges/charge-input';
import { chargeDetails, chargeSummary } from '../charges/summary';
import type { ChargeRefunds } from '../infractions/charge-refunds';
import { ChargeStatus, Flow, ProviderTransactionId } from '../temporal/search-attributes';
import { lifecycleHandle, startAttributes } from './lifecycle-client';
import {
  CHARGE_FLOW,
  chargeWorkflowId,
  createChargeUpdate,
  infractionAcceptedSignal,
  type ChargeView,
  type ChargeWorkflow,
} from '../contracts/charge';

/** The workflow's contract (ids, states, signals, queries, updates, view): code outside workflows/ takes it from here. */
export * from '../contracts/charge';

/** A charge's workflow by its externalId. */
export const chargeHandle = lifecycleHandle<ChargeWorkflow>(chargeWorkflowId);

/**
 * The charge's workflow started (or found) with the createCharge update, resolved once Temporal accepted the
 * update. The update id carries the request's hash: a retried request joins the first one's update (or gets its answer).
 */
export function startCreateCharge(
  client: Client,
  input: ChargeInput,
  taskQueue: string,
): Promise<WorkflowUpdateHandle<ChargeView>> {
  const start = new WithStartWorkflowOperation<ChargeWorkflow>('chargeWorkflow', {
    workflowId: chargeWorkflowId(input.request.externalId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A closed charge keeps its id: a retry after it closed is answered from its result, never a second charge.
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    memo: { requestHash: input.requestHash },
    typedSearchAttributes: startAttributes(CHARGE_FLOW, [ChargeStatus, 'PENDING'], input.request.amountCents),
    staticSummary: chargeSummary(input.request),
    staticDetails: chargeDetails(input.request),
  });
  return client.workflow.startUpdateWithStart(createChargeUpdate, {
    args: [input.requestHash],
    updateId: `create:${input.requestHash}`,
    startWorkflowOperation: start,
    waitForStage: 'ACCEPTED',
  });
}

const CHARGE_ID_PREFIX = chargeWorkflowId('');
/** A provider id goes into a visibility query: only the characters such ids are made of. */
const PROVIDER_ID = /^[\w.:-]{1,128}$/;

export function chargeRefunds(temporal: Client): ChargeRefunds {
  return {
    async findByProviderTransactionId(transactionId) {
      if (!PROVIDER_ID.test(transactionId)) return null;
      const query = `${Flow.name} = '${CHARGE_FLOW}' AND ${ProviderTransactionId.name} = '${transactionId}'`;
      for await (const workflow of temporal.workflow.list({ query, pageSize: 1 })) {
        return workflow.workflowId.slice(CHARGE_ID_PREFIX.length);
      }
      return null;
    },

    async recordAcceptedInfraction(chargeExternalId, infraction) {
      try {
        await temporal.workflow
          .getHandle(chargeWorkflowId(chargeExternalId))
          .signal(infractionAcceptedSignal, infraction);
        return true;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },
  };
}
