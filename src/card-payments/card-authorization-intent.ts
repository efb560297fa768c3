/**
 * The intent of a card payment's authorization (endpoint 2, src/intents): the checkout claims it before it sends the
 * card, and records the provider's answer in it: data.id once accepted, the reason once refused. A second checkout
 * of the same order (a re-run of its workflow) finds the claim and never sends the card again; the workflow reads the
 * recorded answer when the checkout's signal did not reach it. Only the provider's own answer is recorded here,
 * never an id a callback named.
 */
import type { Intent, IntentKey } from '../intents/intent-store';

export function cardAuthorizationKey(externalId: string): IntentKey {
  return { businessId: externalId, kind: 'card-authorization' };
}

/** What the checkout's record says endpoint 2 answered. */
export type RecordedAuthorization =
  /** No checkout sent a card for this order. */
  | { state: 'none' }
  | { state: 'accepted'; paymentId: number }
  | { state: 'refused'; reason: string }
  /** Sent, and its answer was lost (or is being awaited). */
  | { state: 'unknown' };

/** The `answer` kept with a refusal: its reason (the provider's message), for a workflow that did not hear it. */
export function refusalAnswer(reason: string): string {
  return JSON.stringify({ reason });
}

function refusalReason(answer: string | undefined): string {
  try {
    const parsed: unknown = JSON.parse(answer ?? '');
    if (typeof parsed === 'object' && parsed !== null && 'reason' in parsed && typeof parsed.reason === 'string')
      return parsed.reason;
  } catch {
    // Not ours to read: the refusal stands without its words.
  }
  return 'the provider refused the card payment';
}

export function recordedAuthorization(intent: Intent | undefined): RecordedAuthorization {
  if (intent === undefined) return { state: 'none' };
  const paymentId = intent.providerId === undefined ? undefined : Number(intent.providerId);
  if (intent.state === 'SENT' && paymentId !== undefined && Number.isSafeInteger(paymentId))
    return { state: 'accepted', paymentId };
  if (intent.state === 'REFUSED') return { state: 'refused', reason: refusalReason(intent.answer) };
  return { state: 'unknown' };
}
