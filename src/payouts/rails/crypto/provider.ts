/**
 * Crypto (USDT) withdrawal at the provider, on the route PAYMENT_API_CRYPTO_WITHDRAW_PATH names (the spec
 * shows none; without it the API starts no crypto payout, and one started before is FAILED, nothing sent).
 * The fees are read fresh at every submission (never a cached reading across a quote and its post), the
 * quote decides before anything is posted. Where it stands:
 * the status endpoint (13) by the provider's id, the one id the spec shows there; before the provider
 * answered one (reconciling a submission that may have reached it), the transaction check (9), which the
 * spec promises by the client's id.
 */
import { centavosToReais, reaisToCentavos } from '../../../money/centavos';
import { NotFoundError } from '../../../payment-api/errors';
import {
  optionalCentavos,
  reconcileThenPost,
  transactionCheck,
  type CheckOutcome,
  type PayoutPaymentApi,
  type RailProvider,
} from '../rail-provider';
import { quoteCrypto } from './quote';
import type { CryptoPayout } from './request';

async function cryptoStatus(api: PayoutPaymentApi, id: string): Promise<CheckOutcome> {
  try {
    const status = await api.getCryptoStatus(id);
    const feeCents = optionalCentavos(status.fee);
    const state = status.status === 'COMPLETED' ? 'COMPLETED' : status.status === 'FAILED' ? 'FAILED' : 'PENDING';
    return {
      kind: 'found',
      transactionId: status.transactionId,
      state,
      providerState: status.status,
      ...(feeCents === undefined ? {} : { feeCents }),
      ...(status.reason ? { reason: status.reason } : {}),
    };
  } catch (error) {
    if (error instanceof NotFoundError) return { kind: 'not-found' };
    throw error;
  }
}

export const cryptoProvider: RailProvider<CryptoPayout> = {
  callback: { path: '/callbacks/crypto', kind: 'crypto' },
  submit: (payout, context) =>
    reconcileThenPost(context, payout, async () => {
      const quoted = quoteCrypto(payout.amountCents, await context.api.getCryptoFees());
      if (!quoted.ok) return { kind: 'rejected', reason: quoted.reason };
      const response = await context.api.createCryptoWithdrawal({
        amount: centavosToReais(payout.amountCents),
        wallet: payout.wallet,
        network: payout.network,
        external_id: payout.externalId,
        clientCallbackUrl: context.callbackUrl,
      });
      const feeCents = reaisToCentavos(response.fee);
      return {
        kind: 'accepted',
        transactionId: response.transactionId,
        providerStatus: response.status,
        feeCents,
        totalCents: payout.amountCents + feeCents,
        reconciled: false,
        // What the provider applied: its answer, which the quote predicted.
        quote: {
          ...quoted.quote,
          feeCents,
          totalCents: payout.amountCents + feeCents,
          usdtAmount: response.usdt_amount,
          usdtRate: response.usdt_rate,
        },
      };
    }),
  check: (ref, api) =>
    ref.providerTransactionId === undefined
      ? transactionCheck(api, ref.externalId)
      : cryptoStatus(api, ref.providerTransactionId),
};
