/**
 * The charge lifecycle's client for infractions: a charge found by the provider's id of the PIX that paid it
 * (the charge indexes it when it is paid), and told of an accepted infraction by a signal.
 */
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { ChargeRefunds } from '../infractions/charge-refunds';
import { ProviderTransactionId, Flow } from '../temporal/search-attributes';
import { chargeWorkflowId, infractionAcceptedSignal } from '../../workflows/charge/messages';
import { CHARGE_FLOW } from '../../workflows/charge/search-attributes';

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
        await temporal.workflow.getHandle(chargeWorkflowId(chargeExternalId)).signal(infractionAcceptedSignal, infraction);
        return true;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },
  };
}
