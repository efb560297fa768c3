/**
 * A charge's only contact with the provider: create it (endpoint 10 or its JWT alternative 6, by
 * configuration) and ask where it stands (endpoint 9). Creating moves no money and the provider
 * de-duplicates by transactionId (the charge's externalId), so a retried creation answers the same charge.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { CASH_IN_CALLBACK_PATH } from '../src/charges/callback-path';
import { checkChargeCode } from '../src/charges/charge-code';
import { centavosToReais, reaisToCentavos } from '../src/money/centavos';
import type { PaymentApiClient } from '../src/payment-api/client';
import { ConflictError, InvalidRequestError, NotFoundError } from '../src/payment-api/errors';
import type { ChargeInput } from '../workflows/charge/messages';

export type ChargePaymentApi = Pick<PaymentApiClient, 'createPixCashIn' | 'createDeposit' | 'checkTransaction'>;

export interface ChargeActivityDependencies {
  api: ChargePaymentApi;
  /** The engine's public base URL: the provider posts cash-in callbacks to its /callbacks/cash-in. */
  callbackBaseUrl: string;
  /** The merchant name (field 59) the provider's codes must carry (CHARGE_MERCHANT_NAME); unset: not compared. */
  chargeMerchantName?: string | undefined;
}

export type CreatedCharge =
  | { kind: 'created'; qrcode: string; providerExpiresAt?: string; providerTransactionId?: string }
  | { kind: 'refused'; reason: string };

export type ChargeCheck =
  | { kind: 'pending' }
  /** feeCents absent when the check does not say it; `at` the check's updatedAt, else when the engine learned it. */
  | { kind: 'paid'; providerTransactionId: string; feeCents?: number; at: string }
  | { kind: 'failed'; providerTransactionId: string };

export function createChargeActivities({ api, callbackBaseUrl, chargeMerchantName }: ChargeActivityDependencies) {
  async function createCharge({ request, endpoint }: ChargeInput): Promise<CreatedCharge> {
    const body = {
      amount: centavosToReais(request.amountCents),
      payerName: request.payer.name,
      payerDocument: request.payer.document,
      transactionId: request.externalId,
      projectWebhook: `${callbackBaseUrl}${CASH_IN_CALLBACK_PATH}`,
      ...(request.description ? { description: request.description } : {}),
      ...(request.payer.email ? { payerEmail: request.payer.email } : {}),
      ...(request.split ? { splitUser: request.split.email, splitTax: request.split.percent } : {}),
    };
    let answer;
    try {
      answer = endpoint === 'deposit' ? await api.createDeposit(body) : await api.createPixCashIn(body);
    } catch (error) {
      if (error instanceof InvalidRequestError) return { kind: 'refused', reason: error.message };
      if (error instanceof ConflictError) throw ApplicationFailure.nonRetryable(error.message, 'Conflict');
      throw error;
    }
    const { qrcode, expiresAt, transactionId } = answer.qrCodeResponse;
    const code = checkChargeCode(qrcode, { amountCents: request.amountCents, merchantName: chargeMerchantName });
    if (!code.ok) throw ApplicationFailure.nonRetryable(`the provider's code failed the engine's check: ${code.problem}`, 'BadChargeCode');
    return {
      kind: 'created',
      qrcode,
      ...(expiresAt ? { providerExpiresAt: expiresAt } : {}),
      // The provider's id of the charge, when it is not ours echoed: callbacks may name the charge by it.
      ...(transactionId !== request.externalId ? { providerTransactionId: transactionId } : {}),
    };
  }

  /** Asked by the charge's externalId (the transactionId it was created with). */
  async function checkCharge(externalId: string): Promise<ChargeCheck> {
    try {
      const { transaction } = await api.checkTransaction(externalId);
      switch (transaction.transactionState) {
        case 'COMPLETO':
          return {
            kind: 'paid',
            providerTransactionId: transaction.transactionId,
            ...(transaction.fee === undefined ? {} : { feeCents: reaisToCentavos(transaction.fee) }),
            at: transaction.updatedAt ?? new Date().toISOString(),
          };
        case 'FALHA':
          return { kind: 'failed', providerTransactionId: transaction.transactionId };
        default:
          return { kind: 'pending' };
      }
    } catch (error) {
      // Created moments ago and not yet visible to the check: look again later.
      if (error instanceof NotFoundError) return { kind: 'pending' };
      throw error;
    }
  }

  return { createCharge, checkCharge };
}

export type ChargeActivities = ReturnType<typeof createChargeActivities>;
