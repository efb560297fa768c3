/**
 * What every rail does at the provider, written once per rail (./<rail>/provider.ts): submit the payout
 * exactly once, and say where it stands. Called only from the payout activities, which turn the
 * payment API's errors into the workflow's outcomes (a refusal, a conflict, or a retry) and decide, by the
 * payout's intent, whether a submission may be sent at all or only looked up.
 */
import type { CallbackKind } from '../../payment-api/schemas/callback-fields';
import { reaisToCentavos } from '../../money/centavos';
import type { PaymentApiClient } from '../../payment-api/client';
import { NotFoundError } from '../../payment-api/errors';
import { readEndToEndId } from '../../pix/end-to-end-id';
import type { CryptoQuote } from './crypto/quote';

/** The slice of the payment API the payout rails use; PaymentApiClient implements it. */
export type PayoutPaymentApi = Pick<
  PaymentApiClient,
  | 'withdraw'
  | 'payPixCopyPaste'
  | 'internalTransfer'
  | 'checkTransaction'
  | 'getCryptoFees'
  | 'createCryptoWithdrawal'
  | 'getCryptoStatus'
>;

export interface SubmitContext {
  api: PayoutPaymentApi;
  /** 1 on the first attempt; a later one follows attempts that, by the payout's intent, did nothing at the provider. */
  attempt: number;
  /** Where the provider posts this rail's callbacks. */
  callbackUrl: string;
}

export type SubmitOutcome =
  /** The fee and total when the provider said them (or, reconciled, its check did). */
  | {
      kind: 'accepted';
      transactionId: string;
      providerStatus: string;
      feeCents?: number;
      totalCents?: number;
      reconciled: boolean;
      quote?: CryptoQuote;
    }
  | { kind: 'rejected'; reason: string }
  /** The request may have reached the provider and cannot be looked up or safely sent again: an operator decides. */
  | { kind: 'unknown'; reason: string };

export type ProviderState = 'PENDING' | 'COMPLETED' | 'FAILED';

export type CheckOutcome =
  | { kind: 'not-found' }
  /** The provider cannot be asked about this payout (no id it knows it by). */
  | { kind: 'unknowable'; reason: string }
  /** endToEndId: the PIX end-to-end id, when the provider's answer carries one. */
  | {
      kind: 'found';
      transactionId: string;
      state: ProviderState;
      providerState: string;
      feeCents?: number;
      reason?: string;
      endToEndId?: string;
    };

/** What a check needs to know of a payout: no destination, no personal data. */
export interface PayoutRef {
  externalId: string;
  /** The provider's id, once it answered one. */
  providerTransactionId?: string;
}

/** What every payout callback carries, whatever else its rail adds: enough to route it and hint the workflow. */
/** The callback kinds of payout rails. */
export type PayoutCallbackKind = Extract<CallbackKind, 'withdrawals' | 'pix-copy-paste' | 'crypto'>;

export interface RailCallback {
  /** The engine's path where the provider posts this rail's callbacks. */
  path: string;
  /** Whose field names the engine reads them by (its <KIND>_CALLBACK_FIELDS setting). */
  kind: PayoutCallbackKind;
}

export interface RailProvider<P> {
  /** None: the rail has no callbacks (the answer to the request is final). */
  callback?: RailCallback;
  submit(payout: P, context: SubmitContext): Promise<SubmitOutcome>;
  check(ref: PayoutRef, api: PayoutPaymentApi): Promise<CheckOutcome>;
}

/** transactionState → our view; anything unknown is "not final yet, look again". */
export function classifyTransactionState(state: string): ProviderState {
  if (state === 'COMPLETO') return 'COMPLETED';
  if (state === 'FALHA') return 'FAILED';
  return 'PENDING';
}

export function optionalCentavos(reais: number | undefined): number | undefined {
  if (reais === undefined) return undefined;
  try {
    return reaisToCentavos(reais);
  } catch {
    return undefined;
  }
}

/** The id endpoint 9 is asked by (rule 2): the provider's own once it answered one, ours before. */
export function checkIdOf(ref: PayoutRef): string {
  return ref.providerTransactionId ?? ref.externalId;
}

/** Endpoint 9 by an id the provider knows (our external_id, or its own id); not-found when it has none. */
export async function transactionCheck(api: PayoutPaymentApi, id: string): Promise<CheckOutcome> {
  try {
    const { transaction } = await api.checkTransaction(id);
    const feeCents = optionalCentavos(transaction.fee);
    const endToEndId = readEndToEndId(transaction);
    return {
      kind: 'found',
      transactionId: transaction.transactionId,
      state: classifyTransactionState(transaction.transactionState),
      providerState: transaction.transactionState,
      ...(feeCents === undefined ? {} : { feeCents }),
      ...(endToEndId ? { endToEndId } : {}),
    };
  } catch (error) {
    if (error instanceof NotFoundError) return { kind: 'not-found' };
    throw error;
  }
}

/** A payout the provider's check found: accepted, as reconciled, with the fee the check showed (if any). */
export function acceptedFromCheck(found: Extract<CheckOutcome, { kind: 'found' }>, amountCents: number): SubmitOutcome {
  const fee =
    found.feeCents === undefined ? {} : { feeCents: found.feeCents, totalCents: amountCents + found.feeCents };
  return {
    kind: 'accepted',
    transactionId: found.transactionId,
    providerStatus: found.providerState,
    ...fee,
    reconciled: true,
  };
}

/**
 * A send for rails the provider can be asked about by external_id (endpoint 9). It runs only when the payout's
 * intent says no earlier attempt can have reached the provider (src/intents; activities/payout-activities.ts): an
 * attempt after the first still asks first (cheap, and safe against an attempt made before intents were
 * kept), and posts only when the provider has no record. Nothing here relies on the provider de-duplicating.
 */
export async function reconcileThenPost(
  context: SubmitContext,
  payout: { externalId: string; amountCents: number },
  post: () => Promise<SubmitOutcome>,
): Promise<SubmitOutcome> {
  if (context.attempt > 1) {
    const existing = await transactionCheck(context.api, payout.externalId);
    if (existing.kind === 'found') return acceptedFromCheck(existing, payout.amountCents);
  }
  return post();
}
