/**
 * The merchant's side of a chaos run: one endpoint, registered for every event type, on a receiver that
 * flaps (up for 2 to 6 s, answering 200 but one request in ten 500; then down for 1 to 4 s, answering
 * 503 or dropping the connection), while the engine's parts are killed as for the rest. After each trial
 * every final state the engine shows that merchants are told about must have reached the receiver: at
 * least once, with the same event id on every attempt, the same bytes, and a valid signature.
 */
import { endpointWithSecretSchema } from '../../src/api/merchant-events/schemas';
import type { StackClient } from '../cluster/stack-client';
import { startWebhookReceiver, type ReceiverAnswer, type WebhookReceiver } from '../stack/webhook-receiver';
import { pollUntil } from '../../src/util/poll';
import { verifyMerchantWebhook } from '../../src/merchant-events/merchant-webhook-signature';
import { MERCHANT_EVENT_TYPES, type MerchantEventType } from '../../src/merchant-events/merchant-event';
import type { Prng } from './prng';

/** An event a final state calls for: its type and what it is about (an externalId, a batchId, an infractionId). */
export type ExpectedEvent = readonly [MerchantEventType, string];

export interface Reception {
  id: string;
  type: MerchantEventType;
  subject: string;
  rawBody: string;
  signatureValid: boolean;
}

export interface WebhookVerdict {
  /** Events the final states call for. */
  expected: number;
  /** Of those, at the receiver. */
  delivered: number;
  /** Called for by a final state, never received. */
  lost: number;
  /** One event (type and subject) received under more than one id, or one id with different bytes. */
  changedOnRetry: number;
  badSignatures: number;
  /** Requests the receiver got, refusals and drops included, and how many it refused or dropped. */
  receptions: number;
  problems: string[];
}

export const emptyWebhookVerdict = (): WebhookVerdict => ({
  expected: 0,
  delivered: 0,
  lost: 0,
  changedOnRetry: 0,
  badSignatures: 0,
  receptions: 0,
  problems: [],
});

/** Pure: what the receiver got against what was expected. */
export function checkDeliveries(expected: readonly ExpectedEvent[], received: readonly Reception[]): WebhookVerdict {
  const verdict = emptyWebhookVerdict();
  const byEvent = new Map<string, Reception[]>();
  for (const reception of received) {
    const key = `${reception.type} ${reception.subject}`;
    byEvent.set(key, [...(byEvent.get(key) ?? []), reception]);
  }
  for (const [type, subject] of expected) {
    verdict.expected += 1;
    const receptions = byEvent.get(`${type} ${subject}`) ?? [];
    verdict.receptions += receptions.length;
    if (receptions.length === 0) {
      verdict.lost += 1;
      verdict.problems.push(`${type} of ${subject}: never received`);
      continue;
    }
    verdict.delivered += 1;
    const ids = new Set(receptions.map((reception) => reception.id));
    const bodies = new Set(receptions.map((reception) => reception.rawBody));
    if (ids.size > 1 || bodies.size > 1) {
      verdict.changedOnRetry += 1;
      verdict.problems.push(
        `${type} of ${subject}: ${receptions.length} attempts under ${ids.size} ids with ${bodies.size} different bodies`,
      );
    }
    const unsigned = receptions.filter((reception) => !reception.signatureValid).length;
    if (unsigned > 0) {
      verdict.badSignatures += 1;
      verdict.problems.push(`${type} of ${subject}: ${unsigned} attempts failed the signature check`);
    }
  }
  return verdict;
}

export function addWebhookVerdict(sum: WebhookVerdict, next: WebhookVerdict): WebhookVerdict {
  return {
    expected: sum.expected + next.expected,
    delivered: sum.delivered + next.delivered,
    lost: sum.lost + next.lost,
    changedOnRetry: sum.changedOnRetry + next.changedOnRetry,
    badSignatures: sum.badSignatures + next.badSignatures,
    receptions: sum.receptions + next.receptions,
    problems: [...sum.problems, ...next.problems],
  };
}

export interface FlappingEndpoint {
  receiver: WebhookReceiver;
  secret: string;
  /** Answers the receiver gave other than 200. */
  refused: number;
  close(): Promise<void>;
}

/** Starts the flapping receiver and registers it for every event type. */
export async function startFlappingEndpoint(client: StackClient, rng: Prng): Promise<FlappingEndpoint> {
  let down = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const flap = () => {
    if (closed) return;
    down = !down;
    timer = setTimeout(flap, down ? rng.int(1_000, 4_000) : rng.int(2_000, 6_000));
  };
  timer = setTimeout(flap, rng.int(2_000, 6_000));
  const endpoint = { refused: 0 };
  const answer = (): ReceiverAnswer => {
    const next: ReceiverAnswer = down ? (rng.chance(1 / 3) ? 'drop' : 503) : rng.chance(0.1) ? 500 : 200;
    if (next !== 200) endpoint.refused += 1;
    return next;
  };
  const receiver = await startWebhookReceiver(answer);
  try {
    const registered = await client.engine('POST', '/v1/webhook-endpoints', endpointWithSecretSchema, {
      url: receiver.url,
      events: MERCHANT_EVENT_TYPES,
    });
    return Object.assign(endpoint, {
      receiver,
      secret: registered.secret,
      async close() {
        closed = true;
        clearTimeout(timer);
        await receiver.close();
      },
    });
  } catch (error) {
    closed = true;
    clearTimeout(timer);
    await receiver.close();
    throw error;
  }
}

const subjectOf = (data: Record<string, unknown>): string => {
  const subject = data.externalId ?? data.batchId ?? data.infractionId;
  return typeof subject === 'string' ? subject : '';
};

function receptions(endpoint: FlappingEndpoint): Reception[] {
  return endpoint.receiver.received.map(({ event, rawBody, headers }) => ({
    id: event.id,
    type: event.type,
    subject: subjectOf(event.data),
    rawBody: rawBody.toString('utf8'),
    signatureValid: verifyMerchantWebhook({ rawBody, headers, secret: endpoint.secret }).ok,
  }));
}

/** Waits (bounded) until every expected event reached the receiver, then judges what it got. */
export async function checkWebhooks(
  endpoint: FlappingEndpoint,
  expected: readonly ExpectedEvent[],
  timeoutMs: number,
  log: (line: string) => void,
): Promise<WebhookVerdict> {
  const missing = () => checkDeliveries(expected, receptions(endpoint)).lost;
  await pollUntil(() => (missing() === 0 ? true : undefined), {
    timeoutMs,
    intervalMs: 500,
    description: 'every expected event at the receiver',
  }).catch(() =>
    log(`webhooks: ${missing()} of ${expected.length} expected events not received within ${timeoutMs} ms`),
  );
  return checkDeliveries(expected, receptions(endpoint));
}

/** The event a final state of each lifecycle calls for (undefined: merchants are not told of it). */
const EVENT_OF_STATE: Record<string, Record<string, MerchantEventType>> = {
  payout: { COMPLETED: 'payout.completed', FAILED: 'payout.failed', CANCELLED: 'payout.cancelled' },
  charge: {
    PAID: 'charge.paid',
    EXPIRED: 'charge.expired',
    FAILED: 'charge.failed',
    PARTIALLY_REFUNDED: 'charge.partially_refunded',
    REFUNDED: 'charge.refunded',
  },
  cardPayment: { PAID: 'card_payment.paid', FAILED: 'card_payment.failed', EXPIRED: 'card_payment.expired' },
  infraction: { ACCEPTED: 'infraction.accepted', REJECTED: 'infraction.rejected', CANCELLED: 'infraction.cancelled' },
};

export function expectedEvent(
  lifecycle: keyof typeof EVENT_OF_STATE,
  state: string,
  subject: string,
): ExpectedEvent | undefined {
  const type = EVENT_OF_STATE[lifecycle]?.[state];
  return type ? [type, subject] : undefined;
}
