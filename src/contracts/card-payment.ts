/**
 * Everything the outside world says to a card payment workflow, defined once: the engine API (checkout
 * and merchant routes), the callback router and the workflow import these. Nothing here carries card
 * data: brand, last four digits and the provider's payment id only.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { CardPaymentInput } from '../card-payments/card-payment-input';
import type { CardOrder } from '../card-payments/card-payment-request';
import type { ActivityProblem } from './activity-problem';
import type { Transition, TransitionTable } from './lifecycle';

/**
 * A card payment's states and the only moves between them. AUTHORIZING is the window in which the
 * API holds the card and asks the provider; a workflow that does not hear the provider's answer in time
 * goes to NEEDS_REVIEW (the provider may have charged the card), from where the payment id, when it
 * arrives (late answer or the provider's callback), still settles it by the check.
 */
export const CARD_PAYMENT_STATES = [
  'AWAITING_CARD',
  'AUTHORIZING',
  'PENDING',
  'PAID',
  'FAILED',
  'EXPIRED',
  'NEEDS_REVIEW',
] as const;
export type CardPaymentState = (typeof CARD_PAYMENT_STATES)[number];

export function isCardPaymentState(value: string | undefined): value is CardPaymentState {
  return (CARD_PAYMENT_STATES as readonly string[]).includes(value ?? '');
}

export const CARD_PAYMENT_TRANSITIONS: TransitionTable<CardPaymentState> = {
  AWAITING_CARD: ['AUTHORIZING', 'FAILED', 'EXPIRED'],
  AUTHORIZING: ['PENDING', 'FAILED', 'NEEDS_REVIEW'],
  PENDING: ['PAID', 'FAILED', 'NEEDS_REVIEW'],
  NEEDS_REVIEW: ['PENDING', 'PAID', 'FAILED'],
  PAID: [],
  FAILED: [],
  EXPIRED: [],
};

export interface CardPaymentView {
  externalId: string;
  state: CardPaymentState;
  amountCents: number;
  installmentCount: number;
  expiresAt: string;
  brand?: string;
  last4?: string;
  providerPaymentId?: number;
  providerStatus?: string;
  netValueCents?: number;
  /** The ECI of the 3DS authentication endpoint 2 accepted the payment with (the security module's result); absent without 3DS. */
  eci?: string;
  failureReason?: string;
  reviewReason?: string;
  requestHash: string;
  callbacksReceived: number;
  checksMade: number;
  transitions: readonly Transition<CardPaymentState>[];
  /** Added to the status query's answer by the workflow interceptor while an activity keeps failing. */
  problem?: ActivityProblem;
}

/** The card the buyer submitted, as much of it as the engine keeps. */
export interface SubmittedCard {
  brand: string;
  last4: string;
}

/** What endpoint 2 said, as the API reports it once it called the provider (data.id always; the rest as far as its answer showed it). */
export type AuthorizationAnswer =
  | {
      kind: 'accepted';
      paymentId: number;
      brand?: string;
      last4?: string;
      providerStatus?: string;
      netValueCents?: number;
      eci?: string;
    }
  | { kind: 'refused'; reason: string }
  /** The request may have reached the provider and no answer came back: only the payment id can settle it. */
  | { kind: 'unknown'; reason: string };

/**
 * A PAYMENT_UPDATED callback: a hint, confirmed by endpoint 3. A signed one names the payment (the provider echoing
 * this order's reference), so it can settle a payment whose answer was lost; an unsigned one names none: it only
 * says "look now".
 */
export interface CardCallbackHint {
  paymentId?: number;
  status: string;
  receivedAt: string;
}

export type CardPaymentWorkflow = (input: CardPaymentInput) => Promise<CardPaymentView>;

export const cardPaymentStatusQuery = defineQuery<CardPaymentView>('status');
/** The checkout took a card: AWAITING_CARD → AUTHORIZING, answered with the order to send to the provider. Refused (validator) unless awaiting a card. */
export const startAuthorizationUpdate = defineUpdate<CardOrder, [SubmittedCard]>('startAuthorization');
/** The buyer could not authenticate (3DS denied or abandoned): AWAITING_CARD → FAILED. Refused (validator) unless awaiting a card. */
export const failCheckoutUpdate = defineUpdate<CardPaymentView, [{ reason: string }]>('failCheckout');
/** Ask the provider now (operators), naming the payment when the workflow never learned it. Refused (validator) unless PENDING or NEEDS_REVIEW. */
export const recheckCardPaymentUpdate = defineUpdate<CardPaymentView, [{ providerPaymentId?: number }]>('recheck');
/** An operator found no charge at the provider: NEEDS_REVIEW → FAILED. Refused (validator) once a payment id is known. */
export const closeCardPaymentUpdate = defineUpdate<CardPaymentView, [{ reason: string }]>('close');
export const authorizationAnswerSignal = defineSignal<[AuthorizationAnswer]>('authorizationAnswer');
export const cardCallbackSignal = defineSignal<[CardCallbackHint]>('cardCallback');

/** The search attribute `PayoutFlow` of a card payment. */
export const CARD_PAYMENT_FLOW = 'card-payment';

export function cardPaymentWorkflowId(externalId: string): string {
  return `card-payment:${externalId}`;
}
