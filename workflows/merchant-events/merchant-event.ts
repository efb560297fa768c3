/**
 * A merchant event's delivery: every subscribed endpoint gets the same signed POST until it answers
 * 2xx, with doubling waits (durable timers) for the whole retry period; every attempt is recorded. One
 * attempt is one activity that is not retried by Temporal: the workflow owns the schedule, so each
 * attempt's answer is kept and a redelivery can cut a wait short.
 */
import {
  type ActivityOptions,
  condition,
  patched,
  proxyActivities,
  proxyLocalActivities,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { MerchantEventActivities } from '../../activities/merchant-event-activities';
import { WebhookAttempts, WebhookDeliveryStatus } from '../../src/temporal/search-attributes';
import { failureMessage } from '../shared/activity-failures';
import { Lifecycle } from '../shared/lifecycle';
import {
  attemptsOf,
  type DeliveryAttempt,
  type EndpointDelivery,
  type MerchantEventInput,
  type MerchantEventView,
  EVENT_DELIVERY_TRANSITIONS,
  type EventDeliveryState,
} from '../../src/contracts/merchant-event';
import { nowMs } from '../shared/clock';
import { LatestRow } from '../shared/latest-row';
import type { EventDeliveryRecord } from '../../src/read-model/event-deliveries';

// The activity bounds its own POST (MERCHANT_WEBHOOK_TIMEOUT_MS, at most a minute); this only catches a lost worker.
const DELIVERY: ActivityOptions = { startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 1 } };

/** Marks histories whose POSTs run on the deliveries' own task queue, apart from the slots provider calls need. */
export const WEBHOOK_TASK_QUEUE_PATCH = 'webhook-task-queue';

/** The delivery activity on the input's queue; on the workflow's own for histories from before the patch (or an input without one). */
function deliveryActivity(input: MerchantEventInput): MerchantEventActivities['deliverEvent'] {
  const taskQueue = patched(WEBHOOK_TASK_QUEUE_PATCH) ? input.deliveryTaskQueue : undefined;
  return proxyActivities<MerchantEventActivities>(taskQueue ? { ...DELIVERY, taskQueue } : DELIVERY).deliverEvent;
}

const { recordEventDelivery } = proxyLocalActivities<MerchantEventActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Marks histories whose deliveries keep their row of the read model (what GET /v1/events answers from). */
export const EVENT_READ_MODEL_PATCH = 'event-read-model';

export class EventDelivery {
  private readonly lifecycle: Lifecycle<EventDeliveryState>;
  private readonly deliveries: EndpointDelivery[];
  private readonly running = new Set<string>();
  private attemptsMade: number;
  /** Bumped by each redelivery: a delivery waiting out its backoff tries again at once. */
  private redeliveries = 0;
  private closing = false;
  /** Absent in histories recorded before the read model kept deliveries. */
  private readonly row: LatestRow<EventDeliveryRecord> | undefined;
  private readonly deliverEvent: MerchantEventActivities['deliverEvent'];

  constructor(private readonly input: MerchantEventInput) {
    this.lifecycle = new Lifecycle({
      table: EVENT_DELIVERY_TRANSITIONS,
      initial: 'PENDING',
      cause: input.earlier ? 'redelivery asked by the merchant' : `${input.event.type} announced`,
      stateAttribute: WebhookDeliveryStatus,
      initialIndexed: true,
    });
    this.deliveries = input.earlier
      ? input.earlier.map(({ endpointId, attempts, state }) => ({
          endpointId,
          attempts,
          state: state === 'ENDPOINT_DELETED' ? state : 'PENDING',
        }))
      : input.endpointIds.map((endpointId) => ({ endpointId, state: 'PENDING', attempts: [] }));
    this.attemptsMade = attemptsOf(this.deliveries);
    if (patched(EVENT_READ_MODEL_PATCH)) this.row = new LatestRow(() => this.record(), recordEventDelivery);
    this.deliverEvent = deliveryActivity(input);
    // A first delivery was listed PENDING by its announcer; a redelivery's new run says it is PENDING again.
    if (input.earlier) this.moved();
  }

  private record(): EventDeliveryRecord {
    return {
      eventId: this.input.event.id,
      state: this.lifecycle.state,
      deliveries: this.deliveries,
      at: new Date(nowMs()).toISOString(),
    };
  }

  /** The read model's row follows the delivery. */
  private moved(): void {
    this.row?.changed();
  }

  view(): MerchantEventView {
    return {
      event: this.input.event,
      ...this.lifecycle.view(),
      deliveries: this.deliveries,
    };
  }

  /** Update validator: a delivery that has decided its outcome and is closing cannot take a redelivery; a new run will. */
  validateRedeliver(): void {
    if (this.closing) throw new Error('the delivery is closing: ask again in a moment');
  }

  redeliver(): MerchantEventView {
    this.redeliveries += 1;
    if (this.lifecycle.state !== 'PENDING') this.lifecycle.moveTo('PENDING', 'redelivery asked by the merchant');
    for (const delivery of this.deliveries) {
      if (delivery.state === 'ENDPOINT_DELETED' || this.running.has(delivery.endpointId)) continue;
      delivery.state = 'PENDING';
      this.start(delivery);
    }
    this.moved();
    return this.view();
  }

  async run(): Promise<MerchantEventView> {
    for (const delivery of this.deliveries) if (delivery.state === 'PENDING') this.start(delivery);
    await condition(() => this.running.size === 0);
    this.settle();
    this.closing = true;
    this.moved();
    if (this.row) await this.row.drained();
    return this.view();
  }

  private start(delivery: EndpointDelivery): void {
    this.running.add(delivery.endpointId);
    void this.deliverTo(delivery).finally(() => this.running.delete(delivery.endpointId));
  }

  private async deliverTo(delivery: EndpointDelivery): Promise<void> {
    const { initialIntervalMs, maximumIntervalMs, retryForMs } = this.input.timing;
    let giveUpAt = nowMs() + retryForMs;
    let wait = initialIntervalMs;
    for (;;) {
      const asked = this.redeliveries;
      const { attempt, endpointDeleted } = await this.attempt(delivery);
      if (attempt.outcome === 'delivered') {
        delivery.state = 'DELIVERED';
        return this.moved();
      }
      if (endpointDeleted) {
        delivery.state = 'ENDPOINT_DELETED';
        return this.moved();
      }
      if (this.redeliveries !== asked) {
        this.moved();
        giveUpAt = nowMs() + retryForMs;
        wait = initialIntervalMs;
        continue;
      }
      if (nowMs() + wait > giveUpAt) {
        delivery.state = 'FAILED';
        return this.moved();
      }
      delivery.nextAttemptAt = new Date(nowMs() + wait).toISOString();
      this.moved();
      const redelivered = await condition(() => this.redeliveries !== asked, wait);
      delete delivery.nextAttemptAt;
      if (redelivered) {
        giveUpAt = nowMs() + retryForMs;
        wait = initialIntervalMs;
      } else wait = Math.min(wait * 2, maximumIntervalMs);
    }
  }

  private async attempt(delivery: EndpointDelivery): Promise<{ attempt: DeliveryAttempt; endpointDeleted: boolean }> {
    const number = delivery.attempts.length + 1;
    const startedAt = nowMs();
    let result: { attempt: DeliveryAttempt; endpointDeleted: boolean };
    try {
      result = await this.deliverEvent({ event: this.input.event, endpointId: delivery.endpointId, number });
    } catch (error) {
      // The attempt did not report (a lost worker, a timeout): it counts as failed; the receiver de-duplicates by id.
      const attempt: DeliveryAttempt = {
        number,
        at: new Date(startedAt).toISOString(),
        outcome: 'failed',
        error: failureMessage(error),
        durationMs: nowMs() - startedAt,
      };
      result = { attempt, endpointDeleted: false };
    }
    delivery.attempts.push(result.attempt);
    this.attemptsMade += 1;
    upsertSearchAttributes({ [WebhookAttempts.name]: [this.attemptsMade] });
    return result;
  }

  private settle(): void {
    const states = this.deliveries.map((delivery) => delivery.state);
    if (states.includes('FAILED')) {
      this.lifecycle.moveTo('FAILED', 'an endpoint gave no 2xx answer for the whole retry period');
    } else if (states.every((state) => state === 'ENDPOINT_DELETED')) {
      this.lifecycle.moveTo('CANCELLED', 'every endpoint it was for was deleted');
    } else this.lifecycle.moveTo('DELIVERED', 'every endpoint answered 2xx');
  }
}
