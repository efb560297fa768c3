/**
 * Between the HTTP routes and the engine for merchant events: lists them and reads one from the read model
 * (src/read-model/event-deliveries.ts: written when an event is handed to its endpoints and as its deliveries
 * move), so that neither lags nor asks Temporal, and both outlive its retention; redelivers through Temporal
 * (an update of a running delivery, a new run of a closed or forgotten one).
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Config } from '../../config/env';
import type { MerchantEventType } from '../../merchant-events/merchant-event';
import {
  deliveryTiming,
  eventDeliveryQueues,
  startEventDelivery,
  type DeliveryTimingConfig,
  merchantEventQuery,
  redeliverEventUpdate,
  type MerchantEventView,
  type MerchantEventWorkflow,
  merchantEventHandle,
} from '../../lifecycles/merchant-event-client';
import type { ReadModel } from '../../read-model/read-model';
import { ApiError } from '../errors';
import { decodeCursor, encodeCursor } from '../list-cursor';
import { withinDeadline } from '../temporal-calls';
import { sendUpdate } from '../workflow-updates';
import { readWorkflow, workerUnavailable } from '../workflow-reading';
import type { EventListResponse } from './schemas';

export type EventServiceConfig = Pick<
  Config,
  'TEMPORAL_CALL_DEADLINE_MS' | 'TEMPORAL_TASK_QUEUE' | 'MERCHANT_WEBHOOK_TASK_QUEUE'
> &
  DeliveryTimingConfig;

function notFound(eventId: string): ApiError {
  return new ApiError(
    404,
    'EVENT_NOT_FOUND',
    `No event ${eventId} delivered to an endpoint (an event no endpoint subscribed to is not kept for delivery)`,
  );
}

/** What the service reads: from the read model, and the delivery workflow for a redelivery. */
interface EventReading {
  view: MerchantEventView;
  running: boolean;
}

export class EventService {
  constructor(
    private readonly client: Client,
    private readonly config: EventServiceConfig,
    private readonly readModel: Pick<ReadModel, 'listEvents' | 'findEvent'>,
  ) {}

  async list(filter: { type?: MerchantEventType; cursor?: string; limit: number }): Promise<EventListResponse> {
    const page = await this.readModel.listEvents({
      limit: filter.limit,
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.cursor ? { after: decodeCursor(filter.cursor) } : {}),
    });
    return {
      data: page.events.map((event) => ({
        id: event.id,
        type: event.type,
        createdAt: event.createdAt.toISOString(),
        status: event.state,
        attempts: event.attempts,
      })),
      ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}),
    };
  }

  /**
   * From the read model. An event announced before the read model kept deliveries (docs/old-versions.md) is
   * read from its delivery workflow while Temporal keeps it.
   */
  async read(eventId: string): Promise<MerchantEventView> {
    const stored = await this.readModel.findEvent(eventId);
    if (stored) return { ...stored, transitions: [] };
    return (await this.fromWorkflow(eventId)).view;
  }

  private async fromWorkflow(eventId: string): Promise<EventReading> {
    const reading = await readWorkflow(this.client, this.handle(eventId), {
      deadlineMs: this.config.TEMPORAL_CALL_DEADLINE_MS,
      query: merchantEventQuery,
      notFound: () => notFound(eventId),
      fromIndex: workerUnavailable(`event ${eventId}`),
    });
    return { view: reading.view, running: reading.running };
  }

  /** Its delivery workflow; one Temporal no longer has (retention) from the read model, as a closed one. */
  private async current(eventId: string): Promise<EventReading> {
    try {
      return await this.fromWorkflow(eventId);
    } catch (error) {
      const stored =
        error instanceof ApiError && error.status === 404 ? await this.readModel.findEvent(eventId) : undefined;
      if (!stored) throw error;
      return { view: { ...stored, transitions: [] }, running: false };
    }
  }

  /** Every endpoint of the event is tried again now, with a fresh retry period; attempts so far are kept. */
  async redeliver(eventId: string): Promise<MerchantEventView> {
    const { view: current, running } = await this.current(eventId);
    if (!running) {
      const earlier = current.deliveries;
      const input = {
        event: current.event,
        endpointIds: earlier.map((delivery) => delivery.endpointId),
        timing: deliveryTiming(this.config),
        earlier,
      };
      const started = await this.call(() =>
        startEventDelivery(this.client, input, eventDeliveryQueues(this.config), true),
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
