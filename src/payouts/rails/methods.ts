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
 * Rails whose provider de-duplicates by external_id (the same request again answers the withdrawal it
 * made): a submission may be sent again without asking first, as a local activity re-run after a lost
 * workflow task does. An internal transfer cannot be asked for by our id, so only a server-counted
 * attempt may send it.
 */
export const RESENDABLE_METHODS: ReadonlySet<PayoutMethod> = new Set(['pix_key', 'pix_copy_paste', 'crypto']);

export function methodOfFlow(flow: string | undefined): PayoutMethod | undefined {
  return PAYOUT_METHODS.find((method) => PAYOUT_FLOWS[method] === flow);
}
