/** PIX withdrawal to a key at the provider: endpoint 4, checked by endpoint 9 (by the provider's id once it answered one, by our external_id before). */
import { centavosToReais, reaisToCentavos } from '../../../money/centavos';
import { checkIdOf, reconcileThenPost, transactionCheck, type RailProvider } from '../rail-provider';
import type { PixKeyPayout } from './request';

export const pixKeyProvider: RailProvider<PixKeyPayout> = {
  callback: { path: '/callbacks/withdrawals', kind: 'withdrawals' },
  submit: (payout, context) =>
    reconcileThenPost(context, payout, async () => {
      const response = await context.api.withdraw({
        amount: centavosToReais(payout.amountCents),
        external_id: payout.externalId,
        pix_key: payout.pixKey,
        key_type: payout.keyType,
        clientCallbackUrl: context.callbackUrl,
        ...(payout.description ? { description: payout.description } : {}),
      });
      return {
        kind: 'accepted',
        transactionId: response.transactionId,
        providerStatus: response.withdrawal.status,
        feeCents: reaisToCentavos(response.withdrawal.fee),
        totalCents: reaisToCentavos(response.withdrawal.total),
        reconciled: false,
      };
    }),
  check: (ref, api) => transactionCheck(api, checkIdOf(ref)),
};
