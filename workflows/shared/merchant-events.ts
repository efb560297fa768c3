/**
 * How a lifecycle tells the merchant: a move into a state that has an event type queues the event,
 * and one local activity per event hands it over (it starts the event's own delivery workflow when an
 * endpoint subscribes). The operation never waits for a delivery: handing over is a local write-and-start,
 * retried until it lands, and the workflow only waits for it before it closes.
 *
 * Workflows recorded before events existed replay without them (the `merchant-events` patch).
 */
import { condition, patched, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { MerchantEventActivities } from '../../activities/merchant-event-activities';
import type { MerchantEventType } from '../../src/webhooks/merchant-event';
import type { Lifecycle } from './lifecycle';

const { announceEvent } = proxyLocalActivities<MerchantEventActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export const MERCHANT_EVENTS_PATCH = 'merchant-events';

interface Queued {
  type: MerchantEventType;
  occurredAt: string;
  /** The move's index in the lifecycle's history: two events of one type (two partial refunds) differ by it. */
  seq: number;
  /** Read when the event is handed over, so details set right after the move are in it. */
  data: () => Record<string, unknown>;
}

export class MerchantEventOutbox {
  private readonly queue: Queued[] = [];
  private sending = false;
  private enabled: boolean | undefined;

  /** Announces `types[state]` on each move into such a state, with `data(state)`. */
  watch<S extends string>(lifecycle: Lifecycle<S>, types: Partial<Record<S, MerchantEventType>>, data: (state: S) => Record<string, unknown>): void {
    lifecycle.onMove((transition, index) => {
      const type = types[transition.to];
      if (type) this.announce({ type, occurredAt: transition.at, seq: index, data: () => data(transition.to) });
    });
  }

  announce(event: Queued): void {
    this.queue.push(event);
    if (!this.sending) void this.send();
  }

  /** Resolves once every queued event is handed over: a workflow awaits it before it returns. */
  drained(): Promise<void> {
    return condition(() => this.queue.length === 0 && !this.sending);
  }

  private async send(): Promise<void> {
    this.sending = true;
    try {
      for (let next = this.queue[0]; next; next = this.queue[0]) {
        this.enabled ??= patched(MERCHANT_EVENTS_PATCH);
        if (this.enabled) {
          await announceEvent({ sourceId: workflowInfo().workflowId, seq: next.seq, type: next.type, occurredAt: next.occurredAt, data: next.data() });
        }
        this.queue.shift();
      }
    } finally {
      this.sending = false;
    }
  }
}
