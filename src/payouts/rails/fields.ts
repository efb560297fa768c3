/** Request fields every rail shares, validated the same way everywhere. */
import { positiveReaisToCentavosSchema } from '../../money/reais-schemas';
import { plainTextSchema } from '../../validation/plain-text';

const MAX_PAYOUT_REAIS = 1_000_000; // per payout, the provider's documented bound

export const payoutAmountSchema = positiveReaisToCentavosSchema(MAX_PAYOUT_REAIS);

/**
 * Free text shown to people (bank statements, operators): no control or bidi characters. Not trimmed
 * here (a document must mean one thing, and whitespace is read differently by every regex engine):
 * `trimmedDescription` trims when the request is normalized.
 */
export const descriptionSchema = plainTextSchema.max(140);

export function trimmedDescription(description: string | undefined): { description?: string } {
  const trimmed = description?.trim();
  return trimmed ? { description: trimmed } : {};
}
