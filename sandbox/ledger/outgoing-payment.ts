/**
 * The ledger entries of a payment leaving a user (PIX out, crypto withdrawal): at creation the user pays the
 * amount and the fee at once, the amount held in the product's pending account; at its final status the amount
 * moves on to the product's settled account, or on a failure comes back to the user with the fee.
 */
import { ACCOUNTS, type Ledger } from './ledger';

/** A product's two accounts for money on its way out. */
export interface OutgoingAccounts {
  pending: string;
  settled: string;
}

export interface OutgoingPayment {
  id: string;
  userId: string;
  externalId: string | null;
  amountCents: number;
  feeCents: number;
}

export function postOutgoingDebit(
  ledger: Ledger,
  product: string,
  accounts: OutgoingAccounts,
  payment: OutgoingPayment,
): void {
  ledger.post({
    kind: `${product}.debit`,
    operationId: payment.id,
    externalId: payment.externalId,
    lines: [
      { account: ACCOUNTS.user(payment.userId), amountCents: -(payment.amountCents + payment.feeCents) },
      { account: accounts.pending, amountCents: payment.amountCents },
      { account: ACCOUNTS.fees, amountCents: payment.feeCents },
    ],
  });
}

export function postOutgoingOutcome(
  ledger: Ledger,
  product: string,
  accounts: OutgoingAccounts,
  payment: OutgoingPayment,
  status: 'COMPLETED' | 'FAILED',
): void {
  const lines =
    status === 'COMPLETED'
      ? [
          { account: accounts.pending, amountCents: -payment.amountCents },
          { account: accounts.settled, amountCents: payment.amountCents },
        ]
      : [
          { account: accounts.pending, amountCents: -payment.amountCents },
          { account: ACCOUNTS.fees, amountCents: -payment.feeCents },
          { account: ACCOUNTS.user(payment.userId), amountCents: payment.amountCents + payment.feeCents },
        ];
  ledger.post({
    kind: `${product}.${status === 'COMPLETED' ? 'settle' : 'refund'}`,
    operationId: payment.id,
    externalId: payment.externalId,
    lines,
  });
}
