/**
 * Between the HTTP routes and Temporal for merchant events: lists them from visibility, reads one
 * from its delivery workflow, and redelivers (an update of a running delivery, a new run of a closed one).
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Config } from '../../config/env';
import {
  WebhookAttempts,
  WebhookDeliveryStatus,
  WebhookEventAt,
  WebhookEventType,
} from '../../temporal/search-attributes';
import type { MerchantEventType } from '../../merchant-events/merchant-event';
import {
  deliveryTiming,
  startEventDelivery,
  type DeliveryTimingConfig,
  MERCHANT_EVENT_FLOW,
  merchantEventQuery,
  redeliverEventUpdate,
  type MerchantEventView,
  type MerchantEventWorkflow,
  isEventDeliveryState,
  merchantEventHandle,
} from '../../lifecycles/merchant-event-client';
import { ApiError } from '../errors';
import { withinDeadline } from '../temporal-calls';
import { sendUpdate } from '../workflow-updates';
import { visibilityPage } from '../visibility-page';
import { readWorkflow, workerUnavailable, type WorkflowReading } from '../workflow-reading';

export type EventServiceConfig = Pick<Config, 'TEMPORAL_CALL_DEADLINE_MS' | 'TEMPORAL_TASK_QUEUE'> &
  DeliveryTimingConfig;

export interface EventListItem {
  id: string;
  type: string;
  createdAt: string;
  status: string;
  attempts: number;
}

function notFound(eventId: string): ApiError {
  return new ApiError(
    404,
    'EVENT_NOT_FOUND',
    `No event ${eventId} (events are kept as long as Temporal keeps closed workflows)`,
  );
}

export class EventService {
  constructor(
    private readonly client: Client,
    private readonly config: EventServiceConfig,
  ) {}

  async list(filter: {
    type?: MerchantEventType;
    cursor?: string;
    limit: number;
  }): Promise<{ items: EventListItem[]; nextCursor?: string }> {
    const clauses = [
      `PayoutFlow = '${MERCHANT_EVENT_FLOW}'`,
      ...(filter.type ? [`WebhookEventType = '${filter.type}'`] : []),
    ];
    const page = await this.call(() =>
      visibilityPage(this.client, {
        query: clauses.join(' AND '),
        pageSize: filter.limit,
        ...(filter.cursor ? { cursor: filter.cursor } : {}),
      }),
    );
    return {
      items: page.workflows.map((workflow) => {
        const status = workflow.searchAttributes.get(WebhookDeliveryStatus);
        return {
          id: workflow.workflowId.replace(/^event:/, ''),
          type: workflow.searchAttributes.get(WebhookEventType) ?? '',
          createdAt: workflow.searchAttributes.get(WebhookEventAt)?.toISOString() ?? '',
          status: isEventDeliveryState(status) ? status : 'PENDING',
          attempts: workflow.searchAttributes.get(WebhookAttempts) ?? 0,
        };
      }),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  }

  async read(eventId: string): Promise<MerchantEventView> {
    return (await this.reading(eventId)).view;
  }

  private reading(eventId: string): Promise<WorkflowReading<MerchantEventView, never>> {
    return readWorkflow(this.client, this.handle(eventId), {
      deadlineMs: this.config.TEMPORAL_CALL_DEADLINE_MS,
      query: merchantEventQuery,
      notFound: () => notFound(eventId),
      fromIndex: workerUnavailable(`event ${eventId}`),
    });
  }

  /** Every endpoint of the event is tried again now, with a fresh retry period; attempts so far are kept. */
  async redeliver(eventId: string): Promise<MerchantEventView> {
    const { view: current, running } = await this.reading(eventId);
    if (!running) {
      const earlier = current.deliveries;
      const input = {
        event: current.event,
        endpointIds: earlier.map((delivery) => delivery.endpointId),
        timing: deliveryTiming(this.config),
        earlier,
      };
      const started = await this.call(() =>
        startEventDelivery(this.client, input, this.config.TEMPORAL_TASK_QUEUE, true),
      );
      if (started === 'started')
        return {
          ...current,
          state: 'PENDING',
          deliveries: earlier.map((delivery) =>
            delivery.state === 'ENDPOINT_DELETED' ? delivery : { ...delivery, state: 'PENDING' },
          ),
        };
    }
    const deadline = this.config.TEMPORAL_CALL_DEADLINE_MS;
    const outcome = await sendUpdate(this.client, { acceptMs: deadline, answerMs: deadline }, () =>
      this.handle(eventId).startUpdate(redeliverEventUpdate, { waitForStage: 'ACCEPTED' }),
    );
    if (outcome.kind === 'answered') return outcome.result;
    throw new ApiError(409, 'EVENT_CLOSING', `Event ${eventId} is closing its delivery: retry in a moment`);
  }

  private handle(eventId: string): WorkflowHandle<MerchantEventWorkflow> {
    return merchantEventHandle(this.client, eventId);
  }

  private call<T>(call: () => Promise<T>): Promise<T> {
    return withinDeadline(this.client, this.config.TEMPORAL_CALL_DEADLINE_MS, call);
  }
}
