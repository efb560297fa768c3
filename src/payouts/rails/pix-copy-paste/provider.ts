/**
 * PIX copy-and-paste payment at the provider: endpoint 5 (the fee is charged at request time), checked by
 * endpoint 9 (by the provider's id once it answered one, by our external_id before). Endpoint 5's shapes are
 * not shown: its answer names the payment wherever it can (readPixCopyPasteAnswer); one that names none is
 * looked up by our id, and when that finds nothing either the payout goes to review saying what was missing.
 */
import { centavosToReais, reaisToCentavos } from '../../../money/centavos';
import { acceptedFromCheck, checkIdOf, reconcileThenPost, transactionCheck, type RailProvider } from '../rail-provider';
import type { PixCopyPastePayout } from './request';

/** The provider's state when its answer named the payment but not its status: the check that follows says it. */
export const STATUS_NOT_ANSWERED = '(no status)';

export const pixCopyPasteProvider: RailProvider<PixCopyPastePayout> = {
  callback: { path: '/callbacks/pix-copy-paste', kind: 'pix-copy-paste' },
  submit: (payout, context) =>
    reconcileThenPost(context, payout, async () => {
      const answer = await context.api.payPixCopyPaste({
        qrcode: payout.emv,
        external_id: payout.externalId,
        amount: centavosToReais(payout.amountCents),
        clientCallbackUrl: context.callbackUrl,
        ...(payout.description ? { description: payout.description } : {}),
      });
      if (answer.read) {
        const feeCents = answer.fee === undefined ? undefined : reaisToCentavos(answer.fee);
        const totalCents =
          answer.total === undefined
            ? feeCents === undefined
              ? undefined
              : payout.amountCents + feeCents
            : reaisToCentavos(answer.total);
        return {
          kind: 'accepted',
          transactionId: answer.transactionId,
          providerStatus: answer.status ?? STATUS_NOT_ANSWERED,
          ...(feeCents === undefined ? {} : { feeCents }),
          ...(totalCents === undefined ? {} : { totalCents }),
          reconciled: false,
        };
      }
      // The provider took the payment (2xx) without naming it: endpoint 9 by our id, the one lookup the spec promises.
      const found = await transactionCheck(context.api, payout.externalId);
      if (found.kind === 'found') return acceptedFromCheck(found, payout.amountCents);
      const held = answer.fields.length > 0 ? answer.fields.join(', ') : 'no fields';
      return {
        kind: 'unknown',
        reason:
          `the provider accepted the copy-and-paste payment without naming it: no transactionId (nor transaction_id) at the top level of its answer or one level down (it held ${held}), ` +
          `and the transaction check finds nothing under external_id ${payout.externalId}: the payment may have been made. Recheck asks again; cancel once the statement shows it was not`,
      };
    }),
  check: (ref, api) => transactionCheck(api, checkIdOf(ref)),
};
