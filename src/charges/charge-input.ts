/** What a charge workflow starts with: the request, its hash, and the timing and endpoint from configuration. */
import type { Config } from '../config/env';
import { chargeRequestHash, type ChargeRequest } from './charge-request';

export type CashInEndpoint = 'transactions' | 'deposit';

export interface ChargeTiming {
  /** How long to wait for the provider's callback before asking its check. */
  callbackWaitMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  /** After EXPIRED, how long a payment the provider confirms still makes the charge PAID. */
  latePaymentWindowMs: number;
  /** After PAID, how long the charge listens for accepted MED infractions before it closes. */
  refundWindowMs: number;
}

export interface ChargeInput {
  request: ChargeRequest;
  requestHash: string;
  /** Which provider endpoint creates it (CASH_IN_ENDPOINT). */
  endpoint: CashInEndpoint;
  timing: ChargeTiming;
}
/** Charges wait for callbacks and poll like payouts; their own windows come from the CASH_IN_* settings. */
export type ChargeConfig = Pick<
  Config,
  | 'CASH_IN_ENDPOINT'
  | 'CASH_IN_LATE_PAYMENT_WINDOW_MS'
  | 'CASH_IN_REFUND_WINDOW_MS'
  | 'PAYOUT_CALLBACK_WAIT_MS'
  | 'PAYOUT_POLL_INITIAL_MS'
  | 'PAYOUT_POLL_MAX_MS'
>;

export function chargeTiming(config: ChargeConfig): ChargeTiming {
  return {
    callbackWaitMs: config.PAYOUT_CALLBACK_WAIT_MS,
    pollInitialMs: config.PAYOUT_POLL_INITIAL_MS,
    pollMaxMs: config.PAYOUT_POLL_MAX_MS,
    latePaymentWindowMs: config.CASH_IN_LATE_PAYMENT_WINDOW_MS,
    refundWindowMs: config.CASH_IN_REFUND_WINDOW_MS,
  };
}

export function chargeInput(request: ChargeRequest, config: ChargeConfig): ChargeInput {
  return {
    request,
    requestHash: chargeRequestHash(request),
    endpoint: config.CASH_IN_ENDPOINT,
    timing: chargeTiming(config),
  };
}
