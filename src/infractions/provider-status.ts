/**
 * The provider's infraction statuses that end a claim. Pure and free of zod: the infraction workflow imports
 * it, and every module the workflow bundle holds is evaluated again for each new workflow (payouts too).
 */
export const FINAL_PROVIDER_STATUSES = ['ACCEPTED', 'REJECTED', 'CANCELLED'] as const;
export type FinalProviderStatus = (typeof FINAL_PROVIDER_STATUSES)[number];

export function isFinalProviderStatus(status: string): status is FinalProviderStatus {
  return (FINAL_PROVIDER_STATUSES as readonly string[]).includes(status);
}
