/**
 * Which fields of a payout request differ from the request stored under the same externalId, named as the
 * merchant sent them (`amount`, `pixKey`), for the 409 PAYOUT_CONFLICT. Only the names: the values (a PIX key,
 * an e-mail, a wallet) are the stored payout's and are never echoed. Pure.
 */
import type { PayoutRequest } from './payout-request';

/** Each compared field of the normalized request, with the name the merchant's request gives it. */
const COMPARED_FIELDS = [
  ['method', 'method'],
  ['amountCents', 'amount'],
  ['pixKey', 'pixKey'],
  ['keyType', 'keyType'],
  ['emv', 'emv'],
  ['email', 'email'],
  ['wallet', 'wallet'],
  ['network', 'network'],
  ['description', 'description'],
] as const;

/** `stored`: the input the payout's workflow was started with (inputs of before the rails carry no method: PIX key). */
export function differingFields(stored: object, request: PayoutRequest): string[] {
  const before = { method: 'pix_key', ...stored } as Readonly<Record<string, unknown>>;
  const now = request as unknown as Readonly<Record<string, unknown>>;
  return COMPARED_FIELDS.filter(([field]) => before[field] !== now[field]).map(([, name]) => name);
}
