/**
 * How an item of a batch is kept: its id, amount and rail in clear columns (the store counts and pages by
 * them), everything else (the destination and description) sealed. Each rail's sealed part is read back
 * with its own schema, so a row that does not fit its rail fails loudly instead of paying the wrong way.
 */
import { z } from 'zod';
import type { PayoutRequest } from '../payouts/payout-request';
import { PAYOUT_METHODS, type PayoutMethod } from '../payouts/rails/methods';
import { CRYPTO_NETWORKS } from '../payment-api/schemas/crypto';
import { pixKeyTypeSchema } from '../pix/keys';

const description = { description: z.string().optional() };
const sealedByMethod = {
  pix_key: z.object({ pixKey: z.string(), ...description }),
  pix_copy_paste: z.object({ emv: z.string(), ...description }),
  internal: z.object({ email: z.string(), ...description }),
  crypto: z.object({ wallet: z.string(), network: z.enum(CRYPTO_NETWORKS) }),
} as const;

export const payoutMethodSchema = z.enum(PAYOUT_METHODS);

/** The clear columns of an item: `keyType` only for PIX-key items (the store's key_type column). */
export interface ClearColumns {
  externalId: string;
  amountCents: number;
  method: PayoutMethod;
  keyType: string;
}

export function clearColumns(item: PayoutRequest): ClearColumns {
  return {
    externalId: item.externalId,
    amountCents: item.amountCents,
    method: item.method,
    keyType: item.method === 'pix_key' ? item.keyType : '',
  };
}

/** What the store seals of an item. */
export function sealedPart(item: PayoutRequest): unknown {
  const { externalId: _id, amountCents: _amount, method: _method, ...rest } = item;
  if (item.method === 'pix_key') {
    const { keyType: _keyType, ...withoutType } = rest as Omit<
      Extract<PayoutRequest, { method: 'pix_key' }>,
      'externalId' | 'amountCents' | 'method'
    >;
    return withoutType;
  }
  return rest;
}

/** The item again, from its columns and its opened sealed part. */
export function itemFromRow(columns: ClearColumns, sealed: unknown): PayoutRequest {
  const base = { externalId: columns.externalId, amountCents: columns.amountCents };
  switch (columns.method) {
    case 'pix_key':
      return {
        method: 'pix_key',
        ...base,
        keyType: pixKeyTypeSchema.parse(columns.keyType),
        ...sealedByMethod.pix_key.parse(sealed),
      };
    case 'pix_copy_paste':
      return { method: 'pix_copy_paste', ...base, ...sealedByMethod.pix_copy_paste.parse(sealed) };
    case 'internal':
      return { method: 'internal', ...base, ...sealedByMethod.internal.parse(sealed) };
    case 'crypto':
      return { method: 'crypto', ...base, ...sealedByMethod.crypto.parse(sealed) };
  }
}
