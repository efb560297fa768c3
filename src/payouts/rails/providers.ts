/** Each rail's provider binding, by method: the one place the payout activities look a rail up. */
import type { PayoutRequest } from '../payout-request';
import { cryptoProvider } from './crypto/provider';
import { internalProvider } from './internal/provider';
import type { PayoutMethod } from './methods';
import { pixCopyPasteProvider } from './pix-copy-paste/provider';
import { pixKeyProvider } from './pix-key/provider';
import type { RailProvider } from './rail-provider';

type ProviderOf<M extends PayoutMethod> = RailProvider<Extract<PayoutRequest, { method: M }>>;

export const RAIL_PROVIDERS: { readonly [M in PayoutMethod]: ProviderOf<M> } = {
  pix_key: pixKeyProvider,
  pix_copy_paste: pixCopyPasteProvider,
  internal: internalProvider,
  crypto: cryptoProvider,
};

/** The rail of a payout, typed with it. */
export function railProviderOf<P extends PayoutRequest>(payout: P): RailProvider<P> {
  return RAIL_PROVIDERS[payout.method] as unknown as RailProvider<P>;
}
