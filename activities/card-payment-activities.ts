/**
 * The card payment workflow's only contact with the provider: endpoint 3, the truth a PAYMENT_UPDATED
 * callback only hints at. Endpoint 2 is called by the API process, which alone ever holds the card.
 */
import { reaisToCentavos } from '../src/money/centavos';
import { NotFoundError } from '../src/payment-api/errors';
import type { PaymentApiClient } from '../src/payment-api/client';

export type CardPaymentApi = Pick<PaymentApiClient, 'getCardPayment'>;

export interface CardPaymentActivityDependencies {
  api: CardPaymentApi;
}

export type CardPaymentCheck =
  | {
      kind: 'found';
      status: string;
      providerStatus?: string;
      brand?: string;
      last4?: string;
      netValueCents?: number;
      /** What binds the provider's payment to an order: the workflow settles only a payment whose reference, amount and installments are the order's. */
      externalReference?: string;
      amountCents: number;
      installmentCount?: number;
    }
  | { kind: 'not-found' };

export function createCardPaymentActivities({ api }: CardPaymentActivityDependencies) {
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
      throw error;
    }
  }

  return { checkCardPayment };
}

export type CardPaymentActivities = ReturnType<typeof createCardPaymentActivities>;
