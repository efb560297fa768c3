/** Every provider callback the engine takes, each read by its kind's field names (the <KIND>_CALLBACK_FIELDS settings). */
import { DEFAULT_CALLBACK_FIELDS, type CallbackFieldsConfig } from '../../payment-api/schemas/callback-fields';
import type { FieldReaders } from '../../infractions/record-reader';
import type { CallbackRoute } from './callback-router';
import { cardCallbackRoute } from './card-callbacks';
import { chargeCallbackRoute } from './charge-callbacks';
import { payoutCallbackRoutes } from './payout-callbacks';

export function callbackRoutes(fields: CallbackFieldsConfig = DEFAULT_CALLBACK_FIELDS): CallbackRoute<FieldReaders, unknown>[] {
  return [...payoutCallbackRoutes(fields), chargeCallbackRoute(fields), cardCallbackRoute(fields)];
}
