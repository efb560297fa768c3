/**
 * The transactionId a charge is created under at the provider (its "provider reference"). It is the
 * charge's externalId, unless an earlier creation under it may have reached the provider with its answer
 * lost: the spec gives no way to read a charge's code back (the transaction check has no qrcode), so the
 * engine creates the charge anew under a derived reference, `_r<n>_<externalId>`. The lost charge may
 * still be paid (the provider may have sent its code to the payer: the spec's `payerEmail`), so the charge
 * keeps watching every reference it created (`referencesUpTo`).
 *
 * A derived reference starts with "_", which no externalId may (they start with a letter or digit), so it
 * can never name another charge, and a callback naming it is mapped back to its charge by
 * `externalIdOfReference`.
 */
const DERIVED = /^_r(\d+)_(.+)$/;

/** The reference after `current` for this charge: `_r2_<externalId>` after the externalId itself, then `_r3_…`. */
export function nextProviderReference(externalId: string, current: string): string {
  const derived = DERIVED.exec(current);
  const n = derived?.[2] === externalId ? Number(derived[1]) + 1 : 2;
  return `_r${n}_${externalId}`;
}

/** The charge's externalId of a provider reference (the reference itself when it is not derived). */
export function externalIdOfReference(reference: string): string {
  return DERIVED.exec(reference)?.[2] ?? reference;
}

/**
 * Every reference a charge may have been created under at the provider, oldest first, up to `current`: the
 * externalId, then `_r2_…` up to it. Each was claimed before it was sent, so none outside this list exists.
 */
export function referencesUpTo(externalId: string, current: string): string[] {
  const derived = DERIVED.exec(current);
  const last = derived?.[2] === externalId ? Number(derived[1]) : 1;
  return [externalId, ...Array.from({ length: Math.max(0, last - 1) }, (_, index) => `_r${index + 2}_${externalId}`)];
}
