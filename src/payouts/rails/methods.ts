/**
 * The payout rails. Pure constants: the workflow imports them (its search attribute per rail), so
 * nothing with I/O may be added here.
 */
export const PAYOUT_METHODS = ['pix_key', 'pix_copy_paste', 'internal', 'crypto'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** The `PayoutFlow` search attribute of each rail, so that operators filter by rail in the Temporal UI. */
export const PAYOUT_FLOWS: Readonly<Record<PayoutMethod, string>> = {
  pix_key: 'pix-withdrawal',
  pix_copy_paste: 'pix-copy-paste',
  internal: 'internal-transfer',
  crypto: 'crypto-withdrawal',
};

/**
 * Rails the provider can be asked about by our external_id: a submission may run as a local activity,
 * whose re-run after a lost workflow task asks first (workflows/payouts/provider-calls.ts). An internal
 * transfer cannot be asked for by our id, so only a server-counted attempt may send it.
 */
export const METHODS_CHECKED_BY_EXTERNAL_ID: ReadonlySet<PayoutMethod> = new Set([
  'pix_key',
  'pix_copy_paste',
  'crypto',
]);

export function methodOfFlow(flow: string | undefined): PayoutMethod | undefined {
  return PAYOUT_METHODS.find((method) => PAYOUT_FLOWS[method] === flow);
}
