/**
 * PIX copy-and-paste payment (endpoint 5): the engine reads the BR Code itself before anything starts
 * (TLV structure, CRC16, the PIX merchant account, the amount), so a bad code is refused naming the problem.
 */
import { z } from 'zod';
import { centavosToReais } from '../../../money/centavos';
import { BrCodeError, parseBrCode, type ParsedBrCode } from '../../../pix/brcode';
import { externalIdSchema } from '../../../validation/external-id';
import { descriptionSchema, payoutAmountSchema, railPayout, refuse } from '../fields';

export const pixCopyPasteRequestSchema = z.strictObject({
  externalId: externalIdSchema,
  method: z.literal('pix_copy_paste'),
  emv: z.string().min(1, 'emv is required').max(512),
  /** Required when the code carries no amount; when it does, absent or equal to it. */
  amount: payoutAmountSchema.optional(),
  description: descriptionSchema.optional(),
});

export interface PixCopyPastePayout {
  method: 'pix_copy_paste';
  externalId: string;
  amountCents: number;
  emv: string;
  description?: string;
}

/** The code and the amount it will pay, or the issues that make it unpayable (field paths of the request). */
export function readCode(
  emv: string,
  amountCents: number | undefined,
):
  { ok: true; code: ParsedBrCode; amountCents: number } | { ok: false; issues: { path: string[]; message: string }[] } {
  let code: ParsedBrCode;
  try {
    code = parseBrCode(emv);
  } catch (error) {
    if (!(error instanceof BrCodeError)) throw error;
    return { ok: false, issues: [{ path: ['emv'], message: `is not a valid PIX BR Code: ${error.message}` }] };
  }
  if (code.amountCentavos === undefined) {
    if (amountCents === undefined)
      return { ok: false, issues: [{ path: ['amount'], message: 'is required: the code carries no amount' }] };
    return { ok: true, code, amountCents };
  }
  if (amountCents !== undefined && amountCents !== code.amountCentavos) {
    return {
      ok: false,
      issues: [
        {
          path: ['amount'],
          message: `must equal the code's amount ${centavosToReais(code.amountCentavos)} (or be left out)`,
        },
      ],
    };
  }
  const fromCode = payoutAmountSchema.safeParse(centavosToReais(code.amountCentavos));
  if (!fromCode.success)
    return {
      ok: false,
      issues: [
        {
          path: ['emv'],
          message: `carries an amount the engine does not pay: ${fromCode.error.issues[0]?.message ?? ''}`,
        },
      ],
    };
  return { ok: true, code, amountCents: code.amountCentavos };
}

export function normalizePixCopyPaste(
  request: z.output<typeof pixCopyPasteRequestSchema>,
  ctx: z.RefinementCtx,
): PixCopyPastePayout | typeof z.NEVER {
  const read = readCode(request.emv, request.amount);
  if (!read.ok) return refuse(ctx, read.issues);
  return railPayout('pix_copy_paste', request, read.amountCents, { emv: request.emv.trim() });
}

export function pixCopyPasteHashParts(payout: PixCopyPastePayout): unknown[] {
  return [payout.method, payout.externalId, payout.amountCents, payout.emv, payout.description ?? null];
}
