/**
 * How a callback that names its operation only by the provider's id finds the workflow: first the intent store,
 * where the route's operation claims one (the provider's answer wrote its id there, before the workflow moved on,
 * so it is found at once and costs the workflow no visibility write); then the visibility index, where charges and
 * payouts of before version 5 indexed it (ProviderTransactionId) once the provider answered.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { IntentStore } from '../../intents/intent-store';
import { ProviderTransactionId } from '../../temporal/search-attributes';
import { isTemporalUnavailable, temporalUnavailable } from '../temporal-calls';
import type { CallbackRoute } from './callback-route';

/** Waits before each visibility lookup of a provider id: well within the provider's webhook timeout. */
const INDEX_LOOKUP_PAUSES_MS = [0, 250, 750, 1_500];
/** Only a plain token goes into a visibility query: nothing to escape, nothing to inject. */
const PLAIN = /^[\w.:-]{1,128}$/;

export type ProviderIdLookup = (providerId: string) => Promise<string | undefined>;

export function providerIdLookup(
  client: Client,
  intents: Pick<IntentStore, 'businessIdOfProviderId'>,
  route: Pick<CallbackRoute<never, unknown>, 'flows' | 'intent'>,
): ProviderIdLookup {
  return async (providerId) => {
    if (route.intent) {
      const businessId = await intents.businessIdOfProviderId(route.intent.kind, providerId);
      if (businessId !== undefined) return route.intent.workflowId(businessId);
    }
    return indexedWorkflow(client, providerId, route.flows);
  };
}

/** The workflow (running or closed) indexed under the provider's id among `flows`, if any; none found means unmatched, and the workflow's own polling still finds the outcome. */
async function indexedWorkflow(
  client: Client,
  providerId: string,
  flows: readonly string[],
): Promise<string | undefined> {
  if (!PLAIN.test(providerId) || !flows.every((flow) => PLAIN.test(flow))) return undefined;
  const query = `${ProviderTransactionId.name} = '${providerId}' AND PayoutFlow IN (${flows.map((flow) => `'${flow}'`).join(', ')})`;
  // Visibility trails the workflow by a moment: a callback right after the provider's answer looks again briefly.
  for (const pauseMs of INDEX_LOOKUP_PAUSES_MS) {
    if (pauseMs > 0) await sleep(pauseMs);
    try {
      for await (const execution of client.workflow.list({ query, pageSize: 1 })) return execution.workflowId;
    } catch (error) {
      if (isTemporalUnavailable(error)) throw temporalUnavailable();
      throw error;
    }
  }
  return undefined;
}
