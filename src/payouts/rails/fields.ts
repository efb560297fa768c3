/** Request fields every rail shares, validated the same way everywhere, and the payout every rail makes of them. */
import { z } from 'zod';
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

/**
 * A rail's payout: what every rail carries (its method, the merchant's id, the amount in centavos, the trimmed
 * description of a rail that takes one) and the rail's own destination fields.
 */
export function railPayout<M extends string, D extends object>(
  method: M,
  request: { externalId: string; description?: string },
  amountCents: number,
  destination: D,
): { method: M; externalId: string; amountCents: number; description?: string } & D {
  return {
    method,
    externalId: request.externalId,
    amountCents,
    ...destination,
    ...trimmedDescription(request.description),
  };
}

/** Refuses a request for a rule no JSON Schema states (a 422): each issue at its field's path in the request. */
export function refuse(ctx: z.RefinementCtx, issues: readonly { path: string[]; message: string }[]): typeof z.NEVER {
  for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
  return z.NEVER;
}
