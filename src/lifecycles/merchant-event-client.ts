/**
 * Starting a merchant event's delivery workflow, the one way both the announcing activity and the
 * API's redelivery do it: id `event:<eventId>`, indexed by type, time and status from its start.
 * Announcing: when an endpoint subscribes to an announcement's type, the event's delivery workflow is
 * started (once: its id is derived from what it announces); when none does, nothing is kept.
 */
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  type SearchAttributePair,
} from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Config } from '../config/env';
import type { Announce } from '../merchant-events/announce';
import type { WebhookEndpointStore } from '../merchant-events/endpoint-store';
import { merchantEventId } from '../merchant-events/event-id';
import type { MerchantEvent } from '../merchant-events/merchant-event';
import type { DeliveryTiming } from '../merchant-events/delivery-timing';
import {
  attemptsOf,
  MERCHANT_EVENT_FLOW,
  merchantEventWorkflowId,
  type MerchantEventInput,
  type MerchantEventWorkflow,
} from '../contracts/merchant-event';
import {
  Flow,
  WebhookAttempts,
  WebhookDeliveryStatus,
  WebhookEventAt,
  WebhookEventType,
} from '../temporal/search-attributes';
import { lifecycleHandle } from './lifecycle-client';

/** The workflow's contract (ids, states, signals, queries, updates, view): code outside workflows/ takes it from here. */
export * from '../contracts/merchant-event';

/** A merchant event's workflow by its eventId. */
export const merchantEventHandle = lifecycleHandle<MerchantEventWorkflow>(merchantEventWorkflowId);

export type DeliveryTimingConfig = Pick<
  Config,
  'MERCHANT_WEBHOOK_RETRY_INITIAL_MS' | 'MERCHANT_WEBHOOK_RETRY_MAX_MS' | 'MERCHANT_WEBHOOK_RETRY_FOR_MS'
>;

export function deliveryTiming(config: DeliveryTimingConfig): DeliveryTiming {
  return {
    initialIntervalMs: config.MERCHANT_WEBHOOK_RETRY_INITIAL_MS,
    maximumIntervalMs: config.MERCHANT_WEBHOOK_RETRY_MAX_MS,
    retryForMs: config.MERCHANT_WEBHOOK_RETRY_FOR_MS,
  };
}

function startAttributes(input: MerchantEventInput): SearchAttributePair[] {
  return [
    { key: Flow, value: MERCHANT_EVENT_FLOW },
    { key: WebhookEventType, value: input.event.type },
    { key: WebhookEventAt, value: new Date(input.event.createdAt) },
    { key: WebhookDeliveryStatus, value: 'PENDING' },
    { key: WebhookAttempts, value: attemptsOf(input.earlier ?? []) },
  ];
}

/** The workflow's task queue (TEMPORAL_TASK_QUEUE) and its POSTs' (MERCHANT_WEBHOOK_TASK_QUEUE). */
export interface EventDeliveryQueues {
  workflow: string;
  deliveries: string;
}

export function eventDeliveryQueues(
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'MERCHANT_WEBHOOK_TASK_QUEUE'>,
): EventDeliveryQueues {
  return { workflow: config.TEMPORAL_TASK_QUEUE, deliveries: config.MERCHANT_WEBHOOK_TASK_QUEUE };
}

/**
 * 'exists' when the event's workflow was already started (running or, for a first delivery, closed).
 * `redelivery`: a new run of a closed event's workflow, carrying its deliveries so far.
 */
export async function startEventDelivery(
  client: Client,
  input: Omit<MerchantEventInput, 'deliveryTaskQueue'>,
  queues: EventDeliveryQueues,
  redelivery = false,
): Promise<'started' | 'exists'> {
  try {
    await client.workflow.start<MerchantEventWorkflow>('merchantEventWorkflow', {
      workflowId: merchantEventWorkflowId(input.event.id),
      taskQueue: queues.workflow,
      args: [{ ...input, deliveryTaskQueue: queues.deliveries }],
      workflowIdReusePolicy: redelivery
        ? WorkflowIdReusePolicy.ALLOW_DUPLICATE
        : WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: startAttributes(input),
      staticSummary: `${input.event.type} to ${input.endpointIds.length === 1 ? '1 endpoint' : `${input.endpointIds.length} endpoints`}`,
    });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'exists';
    throw error;
  }
}

export interface AnnouncerDependencies {
  endpoints: Pick<WebhookEndpointStore, 'subscribedTo'>;
  temporal: Client;
  queues: EventDeliveryQueues;
  timing: DeliveryTiming;
}

export function eventAnnouncer({ endpoints, temporal, queues, timing }: AnnouncerDependencies): Announce {
  return async (announcement) => {
    const subscribed = await endpoints.subscribedTo(announcement.type);
    if (subscribed.length === 0) return {};
    const event: MerchantEvent = {
      id: merchantEventId(announcement.sourceId, announcement.type, announcement.seq),
      type: announcement.type,
      createdAt: announcement.occurredAt,
      data: announcement.data,
    };
    const endpointIds = subscribed.map((endpoint) => endpoint.id);
    await startEventDelivery(temporal, { event, endpointIds, timing }, queues);
    return { eventId: event.id, endpointIds };
  };
}
