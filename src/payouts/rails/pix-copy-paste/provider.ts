/** PIX copy-and-paste payment at the provider: endpoint 5 (the fee is charged at request time), checked by endpoint 9. */
import { centavosToReais, reaisToCentavos } from '../../../money/centavos';
import { pixCopyPasteCallbackSchema } from '../../../payment-api/schemas/pix-copy-paste';
import { reconcileThenPost, transactionCheck, type RailProvider } from '../rail-provider';
import type { PixCopyPastePayout } from './request';

export const pixCopyPasteProvider: RailProvider<PixCopyPastePayout> = {
  callback: { path: '/callbacks/pix-copy-paste', schema: pixCopyPasteCallbackSchema },
  submit: (payout, context) =>
    reconcileThenPost(context, () => transactionCheck(context.api, payout.externalId), payout.amountCents, async () => {
      const response = await context.api.payPixCopyPaste({
        qrcode: payout.emv,
        external_id: payout.externalId,
        amount: centavosToReais(payout.amountCents),
        clientCallbackUrl: context.callbackUrl,
        ...(payout.description ? { description: payout.description } : {}),
      });
      return {
        kind: 'accepted',
        transactionId: response.transactionId,
        providerStatus: response.payment.status,
        feeCents: reaisToCentavos(response.payment.fee),
        totalCents: reaisToCentavos(response.payment.total),
        reconciled: false,
      };
    }),
  check: (ref, api) => transactionCheck(api, ref.externalId),
};
