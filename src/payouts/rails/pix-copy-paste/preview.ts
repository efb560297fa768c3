/**
 * What paying a copy-and-paste code would do, without paying it: who receives, how much, and the fee
 * the provider will charge at request time (from the provider's fee schedule in the engine's config,
 * PROVIDER_PIX_FEE_FIXED + PROVIDER_PIX_FEE_PERCENT).
 */
import { z } from 'zod';
import { percentOf } from '../../../money/centavos';
import { payoutAmountSchema } from '../fields';
import { readCode } from './request';

export const copyPastePreviewRequestSchema = z.strictObject({
  emv: z.string().min(1, 'emv is required').max(512),
  amount: payoutAmountSchema.optional(),
});

export interface PixOutFeeSchedule {
  fixedCents: number;
  /** The percentage part in basis points (3 % = 300). */
  percentBasisPoints: number;
}

export interface CopyPastePreview {
  payee: { name: string; city: string; pixKey?: string; url?: string };
  amountCents: number;
  txid?: string;
  /** 11: the code may be paid again; 12: it is for one payment. */
  reusable: boolean;
  feeCents: number;
  totalCents: number;
}

export function pixOutFeeCents(amountCents: number, schedule: PixOutFeeSchedule): number {
  return schedule.fixedCents + percentOf(amountCents, schedule.percentBasisPoints);
}

export function previewCopyPaste(
  request: z.output<typeof copyPastePreviewRequestSchema>,
  schedule: PixOutFeeSchedule,
): { ok: true; preview: CopyPastePreview } | { ok: false; issues: { path: string[]; message: string }[] } {
  const read = readCode(request.emv, request.amount);
  if (!read.ok) return read;
  const { code, amountCents } = read;
  const feeCents = pixOutFeeCents(amountCents, schedule);
  return {
    ok: true,
    preview: {
      payee: {
        name: code.merchantName,
        city: code.merchantCity,
        ...(code.pixKey ? { pixKey: code.pixKey } : {}),
        ...(code.url ? { url: code.url } : {}),
      },
      amountCents,
      ...(code.txid ? { txid: code.txid } : {}),
      reusable: code.pointOfInitiation !== '12',
      feeCents,
      totalCents: amountCents + feeCents,
    },
  };
}
