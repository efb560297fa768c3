/**
 * An infraction as the engine keeps it: what it needs of the provider's record (a tolerant reader of
 * endpoint 7's items), in centavos and epoch milliseconds. No payer data: the provider's record has none
 * the engine reads.
 */
import { reaisToCentavos } from '../money/centavos';
import type { Infraction } from '../payment-api/schemas/infractions';

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

export function toInfractionRecord(infraction: Infraction): InfractionRecord {
  // The schema promises one of the two; the documented window gives the other.
  const createdAt = new Date(infraction.createdAt ?? Date.parse(infraction.defenseDeadline ?? '') - DEFAULT_DEFENSE_WINDOW_MS).toISOString();
  const deadline = infraction.defenseDeadline ?? new Date(Date.parse(createdAt) + DEFAULT_DEFENSE_WINDOW_MS).toISOString();
  return {
    infractionId: infraction.id,
    transactionId: infraction.transactionId,
    providerStatus: infraction.status,
    reason: infraction.reason ?? '',
    amountCents: reaisToCentavos(infraction.amount),
    createdAt,
    defenseDeadline: new Date(deadline).toISOString(),
    ...(infraction.defendedAt ? { defendedAt: new Date(infraction.defendedAt).toISOString() } : {}),
    ...(infraction.analise ? { analise: infraction.analise } : {}),
    ...(infraction.resolvedAt ? { resolvedAt: new Date(infraction.resolvedAt).toISOString() } : {}),
  };
}
