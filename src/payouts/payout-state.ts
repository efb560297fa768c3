/**
 * What a payout can be, and where it stands as it reports itself to whoever records outcomes (its batch).
 * The moves between the states are the workflow's (src/contracts/payout.ts). No PII.
 */
export const PAYOUT_STATES = ['RECEIVED', 'SUBMITTED', 'COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/** Where a payout stands (final, or waiting for review), as it reports it to whoever records outcomes (its batch). No PII. */
export interface PayoutSettlement {
  externalId: string;
  state: PayoutState;
  feeCents?: number;
  failureReason?: string;
}
