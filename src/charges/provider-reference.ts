/**
 * The transactionId a charge is created under at the provider (its "provider reference"). It is the
 * charge's externalId, unless an earlier creation under it may have reached the provider with its answer
 * lost: the spec gives no way to read a charge's code back (the transaction check has no qrcode), so the
 * engine creates the charge anew under a derived reference, `_r<n>_<externalId>`. The lost charge stays
 * unpayable, since nobody was ever shown its code.
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
