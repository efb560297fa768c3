/**
 * A charge's only contact with the provider: create it (endpoint 10 or its JWT alternative 6, by
 * configuration) and ask where it stands (endpoint 9). Creating claims its intent first (src/intents):
 * a second payable code for one charge is what a payer could pay twice, and the spec promises no
 * de-duplication by transactionId, so a run made by a reset or a re-run answers the code the earlier run
 * was given instead of creating another. When no code was recorded (an answer lost, a run terminated
 * mid-creation) the charge is created anew under a derived provider reference (src/charges/provider-reference.ts),
 * recorded in the intent before it is sent; the workflow watches every reference for a payment.
 */
import { ApplicationFailure, log } from '@temporalio/activity';
import { z } from 'zod';
import type { Intent, IntentKey, IntentStore } from '../src/intents/intent-store';
import { keptAnswer } from '../src/intents/kept-answer';
import { claimingRun } from './claiming-run';
import { CASH_IN_CALLBACK_PATH } from '../src/charges/callback-path';
import { checkChargeCode } from '../src/charges/charge-code';
import { nextProviderReference } from '../src/charges/provider-reference';
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
  /** providerReference: the transactionId it was created under, when not its externalId (checks ask by it). */
  | {
      kind: 'created';
      qrcode: string;
      providerExpiresAt?: string;
      providerTransactionId?: string;
      providerReference?: string;
    }
  | { kind: 'refused'; reason: string };

export type ChargeCheck =
  | { kind: 'pending' }
  /** feeCents absent when the check does not say it; `at` the check's updatedAt, else when the engine learned it. */
  | { kind: 'paid'; providerTransactionId: string; feeCents?: number; at: string }
  | { kind: 'failed'; providerTransactionId: string };

/** What the intent keeps of a created charge: what its re-run answers (the code its payer is shown). */
const createdAnswerSchema = z.object({
  qrcode: z.string().min(1),
  providerExpiresAt: z.string().optional(),
  providerTransactionId: z.string().optional(),
  providerReference: z.string().optional(),
});
/** What a CLAIMED intent keeps once a creation under a derived reference is about to be sent. */
const pendingAnswerSchema = z.object({ reference: z.string().min(1) });

/**
 * What the intent recorded, read by its schema. A sealed answer that does not open as this charge's (copied from
 * another row, altered) fails the creation for good: it is never shown to a payer. One written in clear, before
 * answers were sealed, is read (and its code checked as a fresh one is, by the caller).
 */
function intentAnswer<S extends z.ZodType>(intent: Intent, schema: S): z.output<S> | undefined {
  if (intent.answerRefused !== undefined)
    throw ApplicationFailure.nonRetryable(
      `the charge's recorded answer ${intent.answerRefused}: it is not shown`,
      'TamperedIntent',
    );
  return keptAnswer(intent, schema);
}

export function createChargeActivities({
  api,
  callbackBaseUrl,
  chargeMerchantName,
  intents,
}: ChargeActivityDependencies) {
  async function createCharge(input: ChargeInput): Promise<CreatedCharge> {
    const { externalId } = input.request;
    const key: IntentKey = { businessId: externalId, kind: 'charge-creation' };
    const runId = claimingRun();
    const claim = await intents.claim(key, runId);
    if (claim.intent.answerUnsealed)
      log.warn('charge.intent_answer_unsealed', { externalId, intentState: claim.intent.state });
    // Created already, by this run (an attempt that recorded it and was lost after) or an earlier one: its code, checked
    // again as the provider's answer was (a stored code is shown to the payer as it is).
    const recorded = intentAnswer(claim.intent, createdAnswerSchema);
    if (recorded)
      return { kind: 'created', ...recorded, qrcode: checkedCode(recorded.qrcode, input, 'the recorded code') };
    let reference = intentAnswer(claim.intent, pendingAnswerSchema)?.reference ?? externalId;
    if (claim.by === 'earlier-run') {
      // Claimed by a run a reset or a re-run replaced, with no code recorded: it may have created the charge,
      // and an attempt of it may still be in flight. Taken over under the next reference, so that the code this
      // run answers is one it was given (the workflow still watches the earlier references for a payment).
      reference = nextProviderReference(externalId, reference);
      if (!(await intents.takeOver(key, claim.intent.runId, runId, JSON.stringify({ reference })))) {
        throw ApplicationFailure.retryable(
          'another run took over the creation of this charge meanwhile: its claim is read again',
          'IntentMoved',
        );
      }
    } else if (!claim.fresh && (await chargeExists(reference))) {
      // A retry of this run whose earlier attempt created the charge and lost the answer: the code cannot be read back.
      reference = nextProviderReference(externalId, reference);
      await intents.record(key, runId, { state: 'CLAIMED', answer: JSON.stringify({ reference }) });
    }
    const created = await createAtProvider(input, reference);
    await intents.record(
      key,
      runId,
      created.kind === 'created'
        ? { state: 'SENT', answer: JSON.stringify(createdAnswerSchema.parse(created)) }
        : { state: 'REFUSED' },
    );
    return created;
  }

  async function createAtProvider({ request, endpoint }: ChargeInput, reference: string): Promise<CreatedCharge> {
    const body = {
      amount: centavosToReais(request.amountCents),
      payerName: request.payer.name,
      payerDocument: request.payer.document,
      transactionId: reference,
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
    return {
      kind: 'created',
      qrcode: checkedCode(qrcode, { request }, "the provider's code"),
      ...(expiresAt ? { providerExpiresAt: expiresAt } : {}),
      // The provider's id of the charge, when it is not ours echoed: callbacks may name the charge by it.
      ...(transactionId !== reference ? { providerTransactionId: transactionId } : {}),
      ...(reference !== request.externalId ? { providerReference: reference } : {}),
    };
  }

  /** A code a payer will be shown, from the provider's answer or the intent's record of it: checked before it is. */
  function checkedCode(qrcode: string, { request }: Pick<ChargeInput, 'request'>, whose: string): string {
    const code = checkChargeCode(qrcode, { amountCents: request.amountCents, merchantName: chargeMerchantName });
    if (!code.ok)
      throw ApplicationFailure.nonRetryable(`${whose} failed the engine's check: ${code.problem}`, 'BadChargeCode');
    return qrcode;
  }

  async function chargeExists(reference: string): Promise<boolean> {
    try {
      await api.checkTransaction(reference);
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  /** Asked by the transactionId the charge was created under: its externalId, or its derived provider reference. */
  async function checkCharge(reference: string): Promise<ChargeCheck> {
    try {
      const { transaction } = await api.checkTransaction(reference);
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
