/**
 * A charge's only contact with the provider: create it (endpoint 10 or its JWT alternative 6, by
 * configuration) and ask where it stands (endpoint 9). Creating claims its intent first (src/intents):
 * a second payable code for one charge is what a payer could pay twice, and the spec promises no
 * de-duplication by transactionId, so a run made by a reset or a re-run answers the code the earlier run
 * was given instead of creating another; a retry of the same run creates again only if the charge is not
 * at the provider yet.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { z } from 'zod';
import type { IntentKey, IntentStore } from '../src/intents/intent-store';
import { claimingRun } from './claiming-run';
import { CASH_IN_CALLBACK_PATH } from '../src/charges/callback-path';
import { checkChargeCode } from '../src/charges/charge-code';
import { centavosToReais, reaisToCentavos } from '../src/money/centavos';
import type { PaymentApiClient } from '../src/payment-api/client';
import { ConflictError, InvalidRequestError, NotFoundError } from '../src/payment-api/errors';
import type { ChargeInput } from '../src/charges/charge-input';

export type ChargePaymentApi = Pick<PaymentApiClient, 'createPixCashIn' | 'createDeposit' | 'checkTransaction'>;

export interface ChargeActivityDependencies {
  api: ChargePaymentApi;
  /** The engine's public base URL: the provider posts cash-in callbacks to its /callbacks/cash-in. */
  callbackBaseUrl: string;
  /** The merchant name (field 59) the provider's codes must carry (CHARGE_MERCHANT_NAME); unset: not compared. */
  chargeMerchantName?: string | undefined;
  intents: IntentStore;
}

export type CreatedCharge =
  | { kind: 'created'; qrcode: string; providerExpiresAt?: string; providerTransactionId?: string }
  | { kind: 'refused'; reason: string };

export type ChargeCheck =
  | { kind: 'pending' }
  /** feeCents absent when the check does not say it; `at` the check's updatedAt, else when the engine learned it. */
  | { kind: 'paid'; providerTransactionId: string; feeCents?: number; at: string }
  | { kind: 'failed'; providerTransactionId: string };

/** What the intent keeps of a created charge: what its re-run answers (the code its payer is shown). */
const createdAnswerSchema = z.object({ qrcode: z.string().min(1), providerExpiresAt: z.string().optional(), providerTransactionId: z.string().optional() });

export const CHARGE_ANSWER_LOST = 'the provider has this charge from an attempt whose answer was lost, and its code cannot be read back: the engine does not create a second one';
export const CHARGE_CREATED_BEFORE = 'the charge was created by an earlier run of its workflow (a reset or a re-run) whose code was not recorded: the engine does not create a second one';

export function createChargeActivities({ api, callbackBaseUrl, chargeMerchantName, intents }: ChargeActivityDependencies) {
  async function createCharge(input: ChargeInput): Promise<CreatedCharge> {
    const key: IntentKey = { businessId: input.request.externalId, kind: 'charge-creation' };
    const runId = claimingRun();
    const claim = await intents.claim(key, runId);
    if (claim.by === 'earlier-run') {
      const earlier = claim.intent.answer === undefined ? undefined : createdAnswerSchema.safeParse(JSON.parse(claim.intent.answer));
      return earlier?.success ? { kind: 'created', ...earlier.data } : { kind: 'refused', reason: CHARGE_CREATED_BEFORE };
    }
    // A retry of this run whose first attempt may have reached the provider: only an absent charge is created.
    if (!claim.fresh && (await chargeExists(input.request.externalId))) return { kind: 'refused', reason: CHARGE_ANSWER_LOST };
    const created = await createAtProvider(input);
    await intents.record(key, runId, created.kind === 'created' ? { state: 'SENT', answer: JSON.stringify(createdAnswerSchema.parse(created)) } : { state: 'REFUSED' });
    return created;
  }

  async function createAtProvider({ request, endpoint }: ChargeInput): Promise<CreatedCharge> {
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

  async function chargeExists(externalId: string): Promise<boolean> {
    try {
      await api.checkTransaction(externalId);
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
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
