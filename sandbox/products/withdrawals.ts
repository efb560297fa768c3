/** PIX withdrawals: endpoints 4 and 4a (the alias is served from the endpoint table's aliasOf). */
import { reaisToCentavos } from '../../src/money/centavos';
import { validatePixKey } from '../../src/pix/keys';
import { providerError } from '../http/errors';
import { maskPixKey, pixOutAccepted, pixOutFamily, pixOutProduct } from './pix-out';

export const withdrawalsProduct = pixOutProduct(
  { product: 'withdrawals', route: 'withdraw' },
  pixOutFamily('Withdrawal'),
  {
    read(input) {
      const key = validatePixKey(input.key_type, input.pix_key);
      if (!key.ok)
        throw providerError('INVALID_PIX_KEY', `pix_key does not fit key_type ${input.key_type}: ${key.message}`);
      const amountCents = reaisToCentavos(input.amount);
      return {
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
      };
    },
    answer: (operation) =>
      pixOutAccepted('Withdrawal request received and is being processed', 'withdrawal', operation, 'Withdrawal'),
  },
);
