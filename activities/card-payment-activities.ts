/**
 * The card payment workflow's contacts with the outside: endpoint 3, the truth a PAYMENT_UPDATED callback only hints
 * at, and the checkout's record of endpoint 2's answer (its intent). Endpoint 2 is called by the API process, which
 * alone ever holds the card.
 */
import { reaisToCentavos } from '../src/money/centavos';
import {
  recordedAuthorization,
  cardAuthorizationKey,
  type RecordedAuthorization,
} from '../src/card-payments/card-authorization-intent';
import type { IntentStore } from '../src/intents/intent-store';
import { BadResponseError, NotFoundError } from '../src/payment-api/errors';
import type { PaymentApiClient } from '../src/payment-api/client';

export type CardPaymentApi = Pick<PaymentApiClient, 'getCardPayment'>;

export interface CardPaymentActivityDependencies {
  api: CardPaymentApi;
  intents: Pick<IntentStore, 'find'>;
}

export type CardPaymentCheck =
  | {
      kind: 'found';
      status: string;
      providerStatus?: string;
      brand?: string;
      last4?: string;
      netValueCents?: number;
      /** What binds the provider's payment to an order: its amount, and its reference and installments where endpoint 3 shows them. */
      externalReference?: string;
      amountCents: number;
      installmentCount?: number;
    }
  | { kind: 'not-found' }
  /** Endpoint 3 answered, without what settles an order (its status, its amount): `problem` names what is missing. */
  | { kind: 'unreadable'; problem: string };

export function createCardPaymentActivities({ api, intents }: CardPaymentActivityDependencies) {
  async function checkCardPayment(paymentId: number): Promise<CardPaymentCheck> {
    try {
      const { data } = await api.getCardPayment(paymentId);
      return {
        kind: 'found',
        status: data.status,
        ...(data.providerStatus ? { providerStatus: data.providerStatus } : {}),
        ...(data.brand === undefined ? {} : { brand: data.brand }),
        ...(data.last4 === undefined ? {} : { last4: data.last4 }),
        ...(data.netValue === undefined ? {} : { netValueCents: reaisToCentavos(data.netValue) }),
        ...(data.externalReference ? { externalReference: data.externalReference } : {}),
        amountCents: reaisToCentavos(data.amount),
        ...(data.installmentCount === undefined ? {} : { installmentCount: data.installmentCount }),
      };
    } catch (error) {
      if (error instanceof NotFoundError) return { kind: 'not-found' };
      // Asking again gets the same shape: the workflow shows what is missing and goes on by its own timers.
      if (error instanceof BadResponseError) return { kind: 'unreadable', problem: error.message };
      throw error;
    }
  }

  /** What the checkout recorded of endpoint 2's answer for this order. */
  async function findCardAuthorization(externalId: string): Promise<RecordedAuthorization> {
    return recordedAuthorization(await intents.find(cardAuthorizationKey(externalId)));
  }

  return { checkCardPayment, findCardAuthorization };
}

export type CardPaymentActivities = ReturnType<typeof createCardPaymentActivities>;
