/**
 * Events to the merchant: announcing one (a local activity of the operation's workflow: it starts the
 * event's delivery workflow when an endpoint subscribes to its type) and one delivery attempt to one
 * endpoint (a signed POST; the answer's status is kept, never its body).
 */
import { networkErrorCode } from '../src/net/network-error-code';
import { webhookDeliveries } from '../src/metrics/engine-metrics';
import type { Announce, Announcement } from '../src/webhooks/announce';
import type { WebhookEndpointStore } from '../src/webhooks/endpoint-store';
import type { MerchantEvent } from '../src/webhooks/merchant-event';
import { merchantWebhookHeaders } from '../src/webhooks/merchant-webhook-signature';
import type { DeliveryAttempt } from '../workflows/merchant-event/messages';

export interface MerchantEventActivityDependencies {
  endpoints: Pick<WebhookEndpointStore, 'get' | 'secretsOf'>;
  announce: Announce;
  /** How long one delivery waits for the endpoint's answer. */
  webhookTimeoutMs: number;
}

const USER_AGENT = 'payout-engine-webhooks/1';

/** The reason in a word or two (ECONNREFUSED, ENOTFOUND, ...). Read by shape: fetch's errors may come from another realm (a test runner's). */
function attemptError(error: unknown): string {
  const { name, message } = typeof error === 'object' && error !== null ? (error as { name?: unknown; message?: unknown }) : {};
  if (name === 'TimeoutError') return 'no answer in time';
  return networkErrorCode(error) ?? (typeof message === 'string' ? message : String(error));
}

export function createMerchantEventActivities({ endpoints, announce, webhookTimeoutMs }: MerchantEventActivityDependencies) {
  /** The event's id when some endpoint wants it; nothing is started when none does. */
  function announceEvent(announcement: Announcement): Promise<{ eventId?: string }> {
    return announce(announcement);
  }

  async function deliverEvent({ event, endpointId, number }: { event: MerchantEvent; endpointId: string; number: number }): Promise<{ attempt: DeliveryAttempt; endpointDeleted: boolean }> {
    const at = new Date();
    const [endpoint, secrets] = await Promise.all([endpoints.get(endpointId), endpoints.secretsOf(endpointId, at)]);
    const base = { number, at: at.toISOString() };
    if (!endpoint || !secrets) {
      webhookDeliveries.inc({ outcome: 'endpoint_deleted' });
      return { attempt: { ...base, outcome: 'failed', error: 'the endpoint was deleted', durationMs: 0 }, endpointDeleted: true };
    }
    const body = JSON.stringify(event);
    const signing = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])];
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT, ...merchantWebhookHeaders(event.id, signing, body, Math.floor(at.getTime() / 1000)) },
        body,
        // A redirect is an answer that is not 2xx: following it would send the event where it was not registered.
        redirect: 'manual',
        signal: AbortSignal.timeout(webhookTimeoutMs),
      });
      // The body is not kept; reading it frees the connection.
      await response.arrayBuffer().catch(() => undefined);
      const delivered = response.status >= 200 && response.status < 300;
      webhookDeliveries.inc({ outcome: delivered ? 'delivered' : 'http_error' });
      return { attempt: { ...base, outcome: delivered ? 'delivered' : 'failed', httpStatus: response.status, durationMs: elapsed() }, endpointDeleted: false };
    } catch (error) {
      webhookDeliveries.inc({ outcome: 'no_answer' });
      return { attempt: { ...base, outcome: 'failed', error: attemptError(error), durationMs: elapsed() }, endpointDeleted: false };
    }
  }

  return { announceEvent, deliverEvent };
}

export type MerchantEventActivities = ReturnType<typeof createMerchantEventActivities>;
