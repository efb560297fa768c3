/**
 * Crypto (USDT) withdrawal, in reais. The wallet must fit its network; without a network, a Tron
 * address means TRC20 and an 0x address ERC20 (docs/assumptions.md).
 */
import { z } from 'zod';
import { CRYPTO_NETWORKS, type CryptoNetwork } from '../../../payment-api/schemas/crypto';
import { externalIdSchema } from '../../../validation/external-id';
import { payoutAmountSchema, railPayout, refuse } from '../fields';

const WALLETS: Readonly<Record<CryptoNetwork, RegExp>> = {
  TRC20: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  ERC20: /^0x[0-9a-fA-F]{40}$/,
  BEP20: /^0x[0-9a-fA-F]{40}$/,
};

export const cryptoRequestSchema = z.strictObject({
  externalId: externalIdSchema,
  method: z.literal('crypto'),
  amount: payoutAmountSchema,
  wallet: z.string().min(1, 'wallet is required').max(64),
  network: z.enum(CRYPTO_NETWORKS).optional(),
});

export interface CryptoPayout {
  method: 'crypto';
  externalId: string;
  amountCents: number;
  wallet: string;
  network: CryptoNetwork;
}

function defaultNetwork(wallet: string): CryptoNetwork | undefined {
  if (WALLETS.TRC20.test(wallet)) return 'TRC20';
  if (WALLETS.ERC20.test(wallet)) return 'ERC20';
  return undefined;
}

export function normalizeCrypto(
  request: z.output<typeof cryptoRequestSchema>,
  ctx: z.RefinementCtx,
): CryptoPayout | typeof z.NEVER {
  const network = request.network ?? defaultNetwork(request.wallet);
  if (!network || !WALLETS[network].test(request.wallet)) {
    const message = network
      ? `is not a ${network} address`
      : `is not a wallet address of ${CRYPTO_NETWORKS.join(', ')}`;
    return refuse(ctx, [{ path: ['wallet'], message }]);
  }
  return railPayout('crypto', request, request.amount, { wallet: request.wallet, network });
}

export function cryptoHashParts(payout: CryptoPayout): unknown[] {
  return [payout.method, payout.externalId, payout.amountCents, payout.wallet, payout.network];
}
