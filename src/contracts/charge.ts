/**
 * Everything the outside world says to a charge workflow, defined once: the engine API, the callback
 * router, the infraction lifecycle and the workflow import these.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ChargeInput } from '../charges/charge-input';
import type { AcceptedInfraction } from '../infractions/charge-refunds';
import type { ActivityProblem } from './activity-problem';
import type { Transition, TransitionTable } from './lifecycle';

/**
 * A PIX charge's states and the only moves between them. The provider's check decides payment; the
 * engine's own expiry decides EXPIRED, which a payment the provider confirms later still overturns
 * (money arrived). An accepted MED infraction returns part or all of a paid charge.
 */
export const CHARGE_STATES = ['PENDING', 'PAID', 'EXPIRED', 'FAILED', 'PARTIALLY_REFUNDED', 'REFUNDED'] as const;
export type ChargeState = (typeof CHARGE_STATES)[number];

export const CHARGE_TRANSITIONS: TransitionTable<ChargeState> = {
  PENDING: ['PAID', 'EXPIRED', 'FAILED'],
  // A late payment: confirmed by the provider within the late-payment window after the engine's expiry.
  EXPIRED: ['PAID'],
  PAID: ['PARTIALLY_REFUNDED', 'REFUNDED'],
  PARTIALLY_REFUNDED: ['PARTIALLY_REFUNDED', 'REFUNDED'],
  FAILED: [],
  REFUNDED: [],
};

export function isChargeState(value: unknown): value is ChargeState {
  return typeof value === 'string' && (CHARGE_STATES as readonly string[]).includes(value);
}

export interface ChargeRefund {
  infractionId: string;
  amountCents: number;
  at: string;
}

export interface ChargeView {
  externalId: string;
  state: ChargeState;
  requestHash: string;
  amountCents: number;
  payerName: string;
  description?: string;
  split?: { email: string; percent: number };
  /** The provider's copy-and-paste code, checked (CRC16, amount) before it is handed out. */
  qrcode?: string;
  expiresAt?: string;
  /** The transactionId it was created under at the provider, when not its externalId (an earlier creation's answer was lost). */
  providerReference?: string;
  /** Re-created: every reference it was created under, oldest first, each watched for a payment. */
  providerReferences?: string[];
  /** Re-created: the reference whose payment settled the order. */
  paidReference?: string;
  /** Re-created: payments of another reference after the order was paid, to be refunded to their payers. */
  secondPayments?: SecondPayment[];
  feeCents?: number;
  paidAt?: string;
  /** The provider's id of the PIX that paid it: what MED infractions refer to. */
  providerTransactionId?: string;
  failureReason?: string;
  refunds: ChargeRefund[];
  callbacksReceived: number;
  checksMade: number;
  transitions: readonly Transition<ChargeState>[];
  /**
   * Added to the status query's answer by the workflow interceptor while an activity keeps failing; set by
   * the charge itself when a second reference was paid (it names both references).
   */
  problem?: ActivityProblem;
}

/** What a cash-in callback says: a hint, confirmed by the transaction check. */
export interface CashInHint {
  status: string;
  paidAt?: string;
  receivedAt: string;
}

export type ChargeWorkflow = (input: ChargeInput) => Promise<ChargeView>;

/**
 * Sent with the start (update-with-start): answered once the provider created the charge (or refused
 * it). Its argument is the request's hash: a different request under the same externalId is refused.
 */
export const createChargeUpdate = defineUpdate<ChargeView, [string]>('createCharge');
export const chargeStatusQuery = defineQuery<ChargeView>('status');
export const cashInCallbackSignal = defineSignal<[CashInHint]>('cashInCallback');
/** From the infraction lifecycle: a MED claim against this charge was accepted. */
export const infractionAcceptedSignal = defineSignal<[AcceptedInfraction]>('infractionAccepted');

/** The search attribute `PayoutFlow` of a charge. */
export const CHARGE_FLOW = 'pix-cash-in';

export function chargeWorkflowId(externalId: string): string {
  return `charge:${externalId}`;
}

/** A payment of a reference other than the one that settled the order: to be refunded by hand. */
export interface SecondPayment {
  reference: string;
  providerTransactionId: string;
  at: string;
}
