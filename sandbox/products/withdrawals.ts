/** PIX withdrawals: endpoints 4 and 4a (the alias is served from the endpoint table's aliasOf). */
import { reaisToCentavos } from '../../src/money/centavos';
import { withdrawalCallbackSchema } from '../../src/payment-api/schemas/withdrawal';
import { validatePixKey } from '../../src/pix/keys';
import { providerError } from '../http/errors';
import { acceptPixOut, maskPixKey, pixOutAccepted, pixOutRegistrations, type PixOutFamily } from './pix-out';
import { requireCaller, type SandboxProduct } from './product';

export const WITHDRAWAL_FAMILY: PixOutFamily = {
  product: 'withdrawal',
  idPrefix: 'wd',
  callbackType: 'Withdrawal',
  callbackSchema: withdrawalCallbackSchema,
  check: { transactionType: 'SAQUE', transactionMethod: 'PIX' },
  events: { accepted: 'sandbox.withdrawal_accepted', replayed: 'sandbox.withdrawal_replayed' },
};

export const withdrawalsProduct: SandboxProduct = {
  name: 'withdrawals',
  routes: {
    withdraw: {
      movesMoney: true,
      handle({ ctx, user, input }) {
        const caller = requireCaller(user);
        const key = validatePixKey(input.key_type, input.pix_key);
        if (!key.ok)
          throw providerError('INVALID_PIX_KEY', `pix_key does not fit key_type ${input.key_type}: ${key.message}`);
        const amountCents = reaisToCentavos(input.amount);
        const operation = acceptPixOut(ctx, WITHDRAWAL_FAMILY, {
          user: caller,
          externalId: input.external_id,
          amountCents,
          // The whole parsed request must match on a replay (docs/assumptions.md §2); the key in its normalized form.
          matchOnReplay: [
            amountCents,
            input.key_type,
            key.normalized,
            input.clientCallbackUrl,
            input.description ?? '',
            input.gateway ?? '',
          ],
          callbackUrl: input.clientCallbackUrl,
          details: {
            keyType: input.key_type,
            pixKeyMasked: maskPixKey(key.normalized),
            ...(input.description !== undefined ? { description: input.description } : {}),
            ...(input.gateway !== undefined ? { gateway: input.gateway } : {}),
          },
        });
        return pixOutAccepted(
          'Withdrawal request received and is being processed',
          'withdrawal',
          operation,
          'Withdrawal',
        );
      },
    },
  },
  ...pixOutRegistrations(WITHDRAWAL_FAMILY),
};
