/**
 * The card payment workflow's calls out (activities/card-payment-activities.ts): endpoint 3, and the checkout's record
 * of endpoint 2's answer. Each fails quickly into "unknown": the workflow's own timers and deadlines ask again.
 */
import { log, proxyActivities } from '@temporalio/workflow';
import type { CardPaymentActivities } from '../../activities/card-payment-activities';
import { failureMessage } from '../shared/activity-failures';
import type { AuthorizationAnswer } from '../../src/contracts/card-payment';

const activities = proxyActivities<CardPaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

export const { checkCardPayment } = activities;

/** What the checkout recorded of endpoint 2's answer (its intent), as the answer it would have signalled; undefined when it holds none. */
export async function recordedAnswer(externalId: string): Promise<AuthorizationAnswer | undefined> {
  let recorded: Awaited<ReturnType<typeof activities.findCardAuthorization>>;
  try {
    recorded = await activities.findCardAuthorization(externalId);
  } catch (error) {
    log.warn('card_payment.authorization_record_unread', { reason: failureMessage(error) });
    return undefined;
  }
  if (recorded.state === 'accepted') return { kind: 'accepted', paymentId: recorded.paymentId };
  if (recorded.state === 'refused') return { kind: 'refused', reason: recorded.reason };
  return undefined;
}
