/**
 * An infraction as the engine keeps it: what it needs of the provider's record (read by record-reader.ts),
 * in centavos and ISO times. No payer data: the provider's record has none the engine reads.
 */

export interface InfractionRecord {
  infractionId: string;
  /** The provider's id of the PIX cash-in the claim is about. */
  transactionId: string;
  /** WAITING_PSP, ACCEPTED, REJECTED, CANCELLED (or a status the spec does not list: not final). */
  providerStatus: string;
  reason: string;
  amountCents: number;
  createdAt: string;
  /** ISO time; from the provider's record, or the documented default (createdAt + 7 days). */
  defenseDeadline: string;
  defendedAt?: string;
  analise?: string;
  resolvedAt?: string;
}

/** When the provider's record carries no deadline (docs/assumptions.md §8: MED gives 7 days). */
export const DEFAULT_DEFENSE_WINDOW_MS = 7 * 24 * 3_600_000;

export { FINAL_PROVIDER_STATUSES, isFinalProviderStatus, type FinalProviderStatus } from './provider-status';
