/**
 * How a lifecycle tells the merchant: a move into a state that has an event type queues the event, and
 * the queue is handed over to the merchant-event client (it starts the event's own delivery workflow when
 * an endpoint subscribes). The operation never waits for a delivery: handing over is a local write-and-start,
 * retried until it lands. Two ways to hand over, the same announcements either way:
 *
 *  - 'own-activity' (charge, card payment, infraction): one `announceEvent` local activity per event, sent as
 *    soon as it is queued; the workflow only waits for them (`drained()`) before it closes.
 *  - 'carried' (payout): the lifecycle takes the queue (`take()`) into a local activity it runs at that point
 *    anyway, so its events cost no marker and no workflow task of their own (issue 29: a payout completed by
 *    callback keeps its 16 events and 2 workflow tasks, version 3).
 *
 * Workflows recorded before events existed replay without them: the `merchant-events` patch in 'own-activity'
 * mode; a carrying lifecycle decides by the activity that carries them.
 */
import { condition, patched, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { MerchantEventActivities } from '../../activities/merchant-event-activities';
import type { Announcement } from '../../src/merchant-events/announce';
import type { MerchantEventType } from '../../src/merchant-events/merchant-event';
import type { Lifecycle } from './lifecycle';

const { announceEvent } = proxyLocalActivities<MerchantEventActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export const MERCHANT_EVENTS_PATCH = 'merchant-events';

export type HandOver = 'own-activity' | 'carried';

interface Queued {
  type: MerchantEventType;
  occurredAt: string;
  /** The move's index in the lifecycle's history: two events of one type (two partial refunds) differ by it. */
  seq: number;
  /** Read when the event is handed over, so details set right after the move are in it. */
  data: () => Record<string, unknown>;
  /** An event type added after histories were recorded: announced only where this patch is (or is now) marked. */
  patch?: string;
}

/** Per event type, the patch that marks the histories announcing it (types added after the first ones). */
export type EventPatches = Partial<Record<MerchantEventType, string>>;

export class MerchantEventOutbox {
  private readonly queue: Queued[] = [];
  private sending = false;
  private enabled: boolean | undefined;

  constructor(private readonly handOver: HandOver = 'own-activity') {}

  /** Announces `types[state]` on each move into such a state, with `data(state)`; a type in `patches` only where its patch is marked. */
  watch<S extends string>(
    lifecycle: Lifecycle<S>,
    types: Partial<Record<S, MerchantEventType>>,
    data: (state: S) => Record<string, unknown>,
    patches: EventPatches = {},
  ): void {
    lifecycle.onMove((transition, index) => {
      const type = types[transition.to];
      const patch = type ? patches[type] : undefined;
      if (type)
        this.announce({
          type,
          occurredAt: transition.at,
          seq: index,
          data: () => data(transition.to),
          ...(patch ? { patch } : {}),
        });
    });
  }

  announce(event: Queued): void {
    this.queue.push(event);
    if (this.handOver === 'own-activity' && !this.sending) void this.send();
  }

  /** 'carried': the queued events as announcements (their data read now), for the lifecycle's own activity to hand over. */
  take(): Announcement[] {
    if (this.handOver !== 'carried') throw new Error('only a carried outbox is taken: this one sends its own events');
    return this.queue.splice(0).map(announcementOf);
  }

  /**
   * Hands over now, by its own local activity, the event of the lifecycle's latest move: a carrying lifecycle's
   * state that waits for a person (a payout in review) cannot wait for the end to be told.
   */
  async announceLatestMove<S extends string>(
    lifecycle: Lifecycle<S>,
    type: MerchantEventType,
    data: () => Record<string, unknown>,
  ): Promise<void> {
    const seq = lifecycle.history.length - 1;
    const move = lifecycle.history[seq];
    if (!move) throw new Error('a lifecycle always has its first move');
    await announceEvent(announcementOf({ type, occurredAt: move.at, seq, data }));
  }

  /** Resolves once every queued event is handed over: a workflow awaits it before it returns. */
  drained(): Promise<void> {
    return condition(() => this.queue.length === 0 && !this.sending);
  }

  private async send(): Promise<void> {
    this.sending = true;
    try {
      for (let next = this.queue[0]; next; next = this.queue[0]) {
        // A later type's own patch first: a history without it is not asked about the first patch at a point where it never was.
        if (next.patch === undefined || patched(next.patch)) {
          this.enabled ??= patched(MERCHANT_EVENTS_PATCH);
          if (this.enabled) await announceEvent(announcementOf(next));
        }
        this.queue.shift();
      }
    } finally {
      this.sending = false;
    }
  }
}

/** The event's id derives from its source (this workflow), its type and its seq: handed over twice, it is still one event. */
function announcementOf(event: Queued): Announcement {
  return {
    sourceId: workflowInfo().workflowId,
    seq: event.seq,
    type: event.type,
    occurredAt: event.occurredAt,
    data: event.data(),
  };
}
