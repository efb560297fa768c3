/**
 * Events to the merchant: announcing one (a local activity of the operation's workflow: it starts the
 * event's delivery workflow when an endpoint subscribes to its type) and one delivery attempt to one
 * endpoint (a signed POST to a public address; the answer's status is kept, never its body), and the delivery's
 * row of the read model as it moves (what GET /v1/events answers from).
 *
 * A failed attempt is recorded for the merchant with one generic error: what went wrong (refused
 * connection, a TLS name, an address that is not public) would tell whoever registers URLs what the
 * engine's network looks like. The engine's log has the reason.
 */
import type { Logger } from '../src/logging/logger';
import { networkErrorCode } from '../src/net/network-error-code';
import { webhookDeliveries } from '../src/metrics/engine-metrics';
import type { Announce, Announcement } from '../src/merchant-events/announce';
import type { WebhookEndpointStore } from '../src/merchant-events/endpoint-store';
import type { EndpointTransport } from '../src/merchant-events/endpoint-transport';
import type { MerchantEvent } from '../src/merchant-events/merchant-event';
import { merchantWebhookHeaders } from '../src/merchant-events/merchant-webhook-signature';
import type { DeliveryAttempt } from '../src/lifecycles/merchant-event-client';
import type { EventDeliveryRecord } from '../src/read-model/event-deliveries';
import type { ReadModel } from '../src/read-model/read-model';

export interface MerchantEventActivityDependencies {
  endpoints: Pick<WebhookEndpointStore, 'get' | 'secretsOf'>;
  announce: Announce;
  /** How long one delivery waits for the endpoint's answer. */
  webhookTimeoutMs: number;
  /** Reaches public endpoints only (endpoint-transport.ts). */
  transport: EndpointTransport;
  logger: Logger;
  readModel: Pick<ReadModel, 'recordDelivery'>;
}

const USER_AGENT = 'payout-engine-webhooks/1';
/** All the merchant learns of an attempt that got no HTTP answer. */
export const DELIVERY_FAILED = 'the endpoint could not be reached';

/** The reason for the engine's log (ECONNREFUSED, a refused address, ...). Read by shape: errors may come from another realm (a test runner's). */
function failureReason(error: unknown): string {
  const { name, message } =
    typeof error === 'object' && error !== null ? (error as { name?: unknown; message?: unknown }) : {};
  if (name === 'TimeoutError' || name === 'AbortError') return 'no answer in time';
  if (name === 'EndpointRefusedError' && typeof message === 'string') return `refused: ${message}`;
  return networkErrorCode(error) ?? (typeof message === 'string' ? message : String(error));
}

export function createMerchantEventActivities({
  endpoints,
  announce,
  webhookTimeoutMs,
  transport,
  logger,
  readModel,
}: MerchantEventActivityDependencies) {
  /** The event's id when some endpoint wants it; nothing is started when none does. */
  function announceEvent(announcement: Announcement): Promise<{ eventId?: string }> {
    return announce(announcement);
  }

  async function deliverEvent({
    event,
    endpointId,
    number,
  }: {
    event: MerchantEvent;
    endpointId: string;
    number: number;
  }): Promise<{ attempt: DeliveryAttempt; endpointDeleted: boolean }> {
    const at = new Date();
    const [endpoint, secrets] = await Promise.all([endpoints.get(endpointId), endpoints.secretsOf(endpointId, at)]);
    const base = { number, at: at.toISOString() };
    if (!endpoint || !secrets) {
      webhookDeliveries.inc({ outcome: 'endpoint_deleted' });
      return {
        attempt: { ...base, outcome: 'failed', error: 'the endpoint was deleted', durationMs: 0 },
        endpointDeleted: true,
      };
    }
    const body = JSON.stringify(event);
    const signing = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])];
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    try {
      // A redirect is an answer that is not 2xx: the transport does not follow it to where the event was not registered.
      const status = await transport.post(endpoint.url, {
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': USER_AGENT,
          ...merchantWebhookHeaders(endpoint.signatureScheme, event.id, signing, body, Math.floor(at.getTime() / 1000)),
        },
        body,
        timeoutMs: webhookTimeoutMs,
      });
      const delivered = status >= 200 && status < 300;
      webhookDeliveries.inc({ outcome: delivered ? 'delivered' : 'http_error' });
      return {
        attempt: { ...base, outcome: delivered ? 'delivered' : 'failed', httpStatus: status, durationMs: elapsed() },
        endpointDeleted: false,
      };
    } catch (error) {
      webhookDeliveries.inc({ outcome: 'no_answer' });
      logger.warn('webhook.delivery_failed', {
        eventId: event.id,
        endpointId,
        attempt: number,
        reason: failureReason(error),
      });
      return {
        attempt: { ...base, outcome: 'failed', error: DELIVERY_FAILED, durationMs: elapsed() },
        endpointDeleted: false,
      };
    }
  }

  /** The delivery's row of the read model as it moves (a local activity); a row of a later move is kept. */
  async function recordEventDelivery(record: EventDeliveryRecord): Promise<void> {
    await readModel.recordDelivery(record);
  }

  return { announceEvent, deliverEvent, recordEventDelivery };
}

export type MerchantEventActivities = ReturnType<typeof createMerchantEventActivities>;
