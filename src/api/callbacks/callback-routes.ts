/** Every provider callback the engine takes, each read by its kind's field names (the <KIND>_CALLBACK_FIELDS settings). */
import type { Config } from '../../config/env';
import { DEFAULT_CALLBACK_FIELDS, type CallbackFieldsConfig } from '../../payment-api/schemas/callback-fields';
import type { FieldReaders } from '../../infractions/record-reader';
import type { CallbackRoute } from './callback-route';
import { cardCallbackRoute } from './card-payment-callbacks';
import { chargeCallbackRoute } from './charge-callbacks';
import { payoutCallbackRoutes } from './payout-callbacks';

export function callbackRoutes(
  fields: CallbackFieldsConfig = DEFAULT_CALLBACK_FIELDS,
): CallbackRoute<FieldReaders, unknown>[] {
  return [...payoutCallbackRoutes(fields), chargeCallbackRoute(fields), cardCallbackRoute(fields)];
}

export type CallbackFieldSettings = Pick<
  Config,
  | 'WITHDRAWAL_CALLBACK_FIELDS'
  | 'PIX_COPY_PASTE_CALLBACK_FIELDS'
  | 'CRYPTO_CALLBACK_FIELDS'
  | 'CASH_IN_CALLBACK_FIELDS'
  | 'CARD_CALLBACK_FIELDS'
>;

/** The names each kind is read by, from the settings. */
export function callbackFieldsOf(config: CallbackFieldSettings): CallbackFieldsConfig {
  return {
    withdrawals: config.WITHDRAWAL_CALLBACK_FIELDS,
    'pix-copy-paste': config.PIX_COPY_PASTE_CALLBACK_FIELDS,
    crypto: config.CRYPTO_CALLBACK_FIELDS,
    'cash-in': config.CASH_IN_CALLBACK_FIELDS,
    card: config.CARD_CALLBACK_FIELDS,
  };
}
