/**
 * The merchant's payout request: camelCase JSON at the boundary, one strict shape per rail chosen by
 * `method` (default `pix_key`, so requests from before the rails keep working), normalized inside to
 * centavos and checked destinations.
 */
import { z } from 'zod';
import { cryptoHashParts, cryptoRequestSchema, normalizeCrypto, type CryptoPayout } from './rails/crypto/request';
import {
  internalHashParts,
  internalRequestSchema,
  normalizeInternal,
  type InternalPayout,
} from './rails/internal/request';
import {
  normalizePixCopyPaste,
  pixCopyPasteHashParts,
  pixCopyPasteRequestSchema,
  type PixCopyPastePayout,
} from './rails/pix-copy-paste/request';
import { normalizePixKey, pixKeyHashParts, pixKeyRequestSchema, type PixKeyPayout } from './rails/pix-key/request';
import { PAYOUT_METHODS } from './rails/methods';

/**
 * Each rail's fields on their own, exactly what the OpenAPI document states: refused with 400. The
 * rules no JSON Schema states (a key's check digits, a BR Code's CRC, a wallet's network) come after,
 * in `payoutRequestSchema`, and are refused with 422, as the provider does.
 */
export const payoutShapeSchema = z
  .discriminatedUnion(
    'method',
    [pixKeyRequestSchema, pixCopyPasteRequestSchema, internalRequestSchema, cryptoRequestSchema],
    {
      error: (issue) =>
        issue.code === 'invalid_union' ? `method must be one of ${PAYOUT_METHODS.join(', ')}` : undefined,
    },
  )
  .meta({ id: 'PayoutRequest' });

export const payoutRequestSchema = payoutShapeSchema.transform((request, ctx): PayoutRequest => {
  switch (request.method) {
    case undefined:
    case 'pix_key':
      return normalizePixKey(request, ctx);
    case 'pix_copy_paste':
      return normalizePixCopyPaste(request, ctx);
    case 'internal':
      return normalizeInternal(request);
    case 'crypto':
      return normalizeCrypto(request, ctx);
  }
});

export type PayoutRequest = PixKeyPayout | PixCopyPastePayout | InternalPayout | CryptoPayout;

/** What identifies a request's content, per rail: the same parts ⇔ the same request. */
export function payoutHashParts(request: PayoutRequest): unknown[] {
  switch (request.method) {
    case 'pix_key':
      return pixKeyHashParts(request);
    case 'pix_copy_paste':
      return pixCopyPasteHashParts(request);
    case 'internal':
      return internalHashParts(request);
    case 'crypto':
      return cryptoHashParts(request);
  }
}
