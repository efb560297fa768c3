/**
 * Crypto: endpoint 12 (GET /api/crypto/fees), endpoint 13 (GET /api/crypto/status/:transactionId), the
 * withdrawal creation endpoint the spec leaves out (our choice: POST /api/crypto/withdraw) and its
 * callback. USDT amounts are decimal strings with 6 places, never floats.
 */
import Decimal from 'decimal.js';
import { z } from 'zod';
import {
  callbackUrlSchema,
  clientIdentifierSchema,
  payoutCallbackSchema,
  openEnum,
  providerIdSchema,
  requestAmountSchema,
  responseAmountSchema,
  timestampSchema,
  transactionRecord,
} from './common';

export const CRYPTO_NETWORKS = ['TRC20', 'ERC20', 'BEP20'] as const;
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

export const CRYPTO_WITHDRAWAL_STATUSES = ['PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type CryptoWithdrawalStatus = (typeof CRYPTO_WITHDRAWAL_STATUSES)[number];
export const CRYPTO_WITHDRAWAL_FINAL_STATUSES = ['COMPLETED', 'FAILED'] as const;

const WALLET_FORMAT: Record<CryptoNetwork, { pattern: RegExp; example: string }> = {
  // Tron base58check address: "T" + 33 base58 characters.
  TRC20: { pattern: /^T[1-9A-HJ-NP-Za-km-z]{33}$/, example: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
  ERC20: { pattern: /^0x[0-9a-fA-F]{40}$/, example: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' },
  BEP20: { pattern: /^0x[0-9a-fA-F]{40}$/, example: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' },
};

/** A USDT quantity: a decimal string with exactly 6 places, e.g. "18.518518". */
export const usdtAmountSchema = z.string().regex(/^\d+\.\d{6}$/, { message: 'must be a decimal string with 6 places' });

/** BRL per 1 USDT, or a percentage: positive numbers that may carry more than 2 decimals. */
const rateSchema = z.number().finite().nonnegative();

export const cryptoFeesResponseSchema = z
  .looseObject({
    /** Percentage of the amount (2 means 2 %), our reading of the field. */
    withdrawal_rate: rateSchema,
    /** Fixed part of the fee, in reais. */
    rate_fixed: rateSchema,
    min_withdrawal: rateSchema,
    max_withdrawal: rateSchema,
    /** Reais per 1 USDT. */
    usdt_rate: rateSchema.positive(),
  })
  .meta({ id: 'CryptoFeesResponse' });
export type CryptoFeesResponse = z.infer<typeof cryptoFeesResponseSchema>;

export const cryptoWithdrawalRequestSchema = z
  .strictObject({
    /** In reais; must lie within min_withdrawal..max_withdrawal (else 422 CRYPTO_AMOUNT_OUT_OF_RANGE). */
    amount: requestAmountSchema,
    wallet: z.string().min(1, { message: 'must not be empty' }),
    network: z.enum(CRYPTO_NETWORKS, { message: `must be one of ${CRYPTO_NETWORKS.join(', ')}` }),
    external_id: clientIdentifierSchema,
    clientCallbackUrl: callbackUrlSchema,
  })
  .superRefine((request, ctx) => {
    const format = WALLET_FORMAT[request.network];
    if (!format.pattern.test(request.wallet)) {
      ctx.addIssue({
        code: 'custom',
        path: ['wallet'],
        message: `is not a ${request.network} address, e.g. ${format.example}`,
      });
    }
  })
  // The same rule for the OpenAPI document, which cannot see into the superRefine.
  .meta({
    id: 'CryptoWithdrawalRequest',
    allOf: CRYPTO_NETWORKS.map((network) => ({
      if: { properties: { network: { const: network } }, required: ['network'] },
      then: { properties: { wallet: { pattern: WALLET_FORMAT[network].pattern.source } } },
    })),
  });
export type CryptoWithdrawalRequest = z.input<typeof cryptoWithdrawalRequestSchema>;

/** What a crypto withdrawal states of its USDT: how much, at what rate, to which wallet on which network. */
const usdtDeliveryShape = {
  usdt_amount: usdtAmountSchema,
  usdt_rate: rateSchema.positive(),
  wallet: z.string().min(1),
  network: openEnum(CRYPTO_NETWORKS),
};
/** The same, each field read when present. */
const someUsdtDeliveryShape = z.object(usdtDeliveryShape).partial().shape;

export const cryptoWithdrawalResponseSchema = transactionRecord({
  message: z.string(),
  transactionId: z.string().min(1),
  external_id: z.string().min(1),
  status: openEnum(CRYPTO_WITHDRAWAL_STATUSES),
  amount: responseAmountSchema,
  fee: responseAmountSchema,
  ...usdtDeliveryShape,
}).meta({ id: 'CryptoWithdrawalResponse' });
export type CryptoWithdrawalResponse = z.infer<typeof cryptoWithdrawalResponseSchema>;

/**
 * Endpoint 13 (shape not in the spec; our choice of what the sandbox sends): the withdrawal as it stands
 * now. Required only what the engine reads: the id and the status; the rest typed when present.
 */
export const cryptoStatusResponseSchema = transactionRecord({
  transactionId: providerIdSchema,
  status: openEnum(CRYPTO_WITHDRAWAL_STATUSES),
  external_id: z.string().min(1).optional(),
  amount: responseAmountSchema.optional(),
  fee: responseAmountSchema.optional(),
  total: responseAmountSchema.optional(),
  usdt_amount: z.union([usdtAmountSchema, z.number()]).optional(),
  usdt_rate: rateSchema.positive().optional(),
  wallet: z.string().min(1).optional(),
  network: openEnum(CRYPTO_NETWORKS).optional(),
  /** On-chain transaction hash, once broadcast. */
  txHash: z.string().nullable().optional(),
  reason: z.string().optional(),
  createdAt: timestampSchema.optional(),
  updatedAt: timestampSchema.optional(),
}).meta({ id: 'CryptoStatusResponse' });
export type CryptoStatusResponse = z.infer<typeof cryptoStatusResponseSchema>;

/** Not in the spec (a payout callback, common.ts): the withdrawal's USDT figures, wallet and hash besides. */
export const cryptoWithdrawalCallbackSchema = payoutCallbackSchema(CRYPTO_WITHDRAWAL_FINAL_STATUSES, {
  ...someUsdtDeliveryShape,
  txHash: z.string().nullable().optional(),
  type: openEnum(['CryptoWithdrawal']).optional(),
  reason: z.string().optional(),
  updated_at: timestampSchema.optional(),
});
export type CryptoWithdrawalCallback = z.infer<typeof cryptoWithdrawalCallbackSchema>;

/**
 * USDT delivered for `amountReais` at `usdtRate` reais per USDT, in decimal arithmetic, rounded down
 * to 6 places so the provider never sends more than the reais cover.
 */
export function usdtAmountForReais(amountReais: number, usdtRate: number): string {
  if (!(usdtRate > 0)) throw new RangeError('usdt_rate must be positive');
  return new Decimal(String(amountReais))
    .div(new Decimal(String(usdtRate)))
    .toDecimalPlaces(6, Decimal.ROUND_DOWN)
    .toFixed(6);
}
