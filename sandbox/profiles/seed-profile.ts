/**
 * SANDBOX_PROFILE=seed: the sandbox as a provider that keeps to the spec and nothing else, so the engine
 * is tested against what a real one may plausibly do where the spec is silent (docs/provider-integration.md).
 *
 * - Responses the spec shows carry only the spec's fields (the sandbox's extensions are dropped).
 * - Shapes the spec does not show come in another plausible variant than the default profile's: amounts
 *   as decimal strings, the infraction list under `items` without page counts, endpoint 3 without
 *   `message`, endpoint 13 without dates.
 * - Callbacks (payload not shown) name the operation by the provider's id only, amounts as strings; the
 *   card callback, which the spec shows, is left as it is.
 * - Charges answer a dynamic BR Code (a location in 26-25, no amount, txid ***) and the provider's id.
 * - No GET /shield/public-key: the key is printed at start-up, for PAYMENT_SHIELD_PUBLIC_KEY.
 *
 * The default profile is the identity; every product stays as it is, the profile only rewrites what leaves.
 */
import type { Config } from '../../src/config/env';
import type { EndpointName } from '../../src/payment-api/endpoints';
import { crc16CcittFalse } from '../../src/pix/crc16';
import { parseBrCode, PIX_GUI } from '../../src/pix/brcode';
import type { NewCallback } from '../callbacks/outbox';

export type SandboxProfileName = Config['SANDBOX_PROFILE'];

type Json = Record<string, unknown>;

export interface SandboxProfile {
  name: SandboxProfileName;
  /** Whether GET /shield/public-key is served (no real provider promises it). */
  servesPublicKey: boolean;
  /** A response body as it leaves; `providerIdOf` finds the provider's id of an operation named by the client's. */
  response(endpoint: EndpointName, body: unknown, providerIdOf: (clientId: string) => string | undefined): unknown;
  /** A callback as it is queued. */
  callback(callback: NewCallback): NewCallback;
}

export const defaultProfile: SandboxProfile = {
  name: 'default',
  servesPublicKey: true,
  response: (_endpoint, body) => body,
  callback: (callback) => callback,
};

const AMOUNT_FIELDS = ['amount', 'fee', 'total', 'value', 'netValue', 'newBalance'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only `keys` of `value` (an object), nothing else. */
function only(value: unknown, keys: readonly string[]): Json {
  if (!isObject(value)) return {};
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]));
}

/** Every reais amount of the object as a decimal string with 2 places ("25.00"). */
function amountsAsText(value: unknown): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, AMOUNT_FIELDS.includes(key) && typeof field === 'number' ? field.toFixed(2) : field]));
}

function without(value: unknown, keys: readonly string[]): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}

const tlv = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** The dynamic form of a static code: the same merchant, a location where the bank fetches the charge, no amount, txid ***. */
export function dynamicCode(staticCode: string, locationId: string): string {
  const parsed = parseBrCode(staticCode);
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', PIX_GUI) + tlv('25', `qr.sandbox.invalid/v2/${locationId}`)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('58', 'BR') +
    tlv('59', parsed.merchantName) +
    tlv('60', parsed.merchantCity) +
    tlv('62', tlv('05', '***')) +
    '6304';
  return body + crc16CcittFalse(body);
}

const SPEC_FIELDS = {
  cardPayment: ['id', 'status', 'amount', 'netValue', 'brand', 'last4', 'invoiceUrl', 'receiptUrl', 'provider', 'providerReferences'],
  withdrawal: ['transaction_id', 'external_id', 'status', 'amount', 'fee', 'total', 'type'],
  qrCode: ['transactionId', 'status', 'qrcode', 'amount'],
  internal: ['transactionId', 'amount', 'recipientEmail', 'recipientName', 'newBalance'],
  transaction: ['transactionId', 'value', 'fee', 'transactionState', 'transactionType', 'transactionMethod', 'createdAt', 'updatedAt'],
  fees: ['withdrawal_rate', 'rate_fixed', 'min_withdrawal', 'max_withdrawal', 'usdt_rate'],
} as const;

/** The code a charge's answer carries in this profile: the dynamic form of its stored code, located by the provider's id. */
export function seedChargeCode(storedCode: string, providerId: string): string {
  return dynamicCode(storedCode, providerId.replace(/[^A-Za-z0-9]/g, ''));
}

function seedCharge(body: Json, providerIdOf: (clientId: string) => string | undefined, amountsText: boolean): Json {
  const qr = only(body.qrCodeResponse, SPEC_FIELDS.qrCode);
  const clientId = String(qr.transactionId);
  const providerId = providerIdOf(clientId) ?? clientId;
  const charge = { ...qr, transactionId: providerId, qrcode: seedChargeCode(String(qr.qrcode), providerId) };
  return { message: body.message, qrCodeResponse: amountsText ? amountsAsText(charge) : charge };
}

function seedResponse(endpoint: EndpointName, body: unknown, providerIdOf: (clientId: string) => string | undefined): unknown {
  if (!isObject(body)) return body;
  switch (endpoint) {
    // Shown by the spec: its fields only.
    case 'createCardPayment':
      return { message: body.message, data: only(body.data, SPEC_FIELDS.cardPayment) };
    case 'withdraw':
    case 'withdrawAlias':
      return { message: body.message, transactionId: body.transactionId, withdrawal: only(body.withdrawal, SPEC_FIELDS.withdrawal) };
    case 'createPixCashIn':
      return seedCharge(body, providerIdOf, false);
    case 'internalTransfer':
    case 'internalTransferAlias':
      return { message: body.message, data: only(body.data, SPEC_FIELDS.internal) };
    case 'checkTransaction':
      return { message: body.message, transaction: only(body.transaction, SPEC_FIELDS.transaction) };
    case 'getCryptoFees':
      return only(body, SPEC_FIELDS.fees);
    // Not shown: another plausible variant.
    case 'createDeposit':
      return seedCharge(body, providerIdOf, true);
    case 'getCardPayment':
      return { data: amountsAsText(body.data) };
    case 'payPixCopyPaste':
      return { ...body, payment: amountsAsText(body.payment) };
    case 'listInfractions':
      return { items: Array.isArray(body.data) ? body.data.map(amountsAsText) : [], total: body.total };
    case 'submitInfractionDefense':
      return { ...body, infraction: amountsAsText(body.infraction) };
    case 'getCryptoStatus':
      return without(amountsAsText(body), ['createdAt', 'updatedAt', 'external_id']);
    case 'createCryptoWithdrawal':
      return amountsAsText(body);
    default:
      return body;
  }
}

function seedCallback(callback: NewCallback): NewCallback {
  if (callback.type === 'Card' || !isObject(callback.payload)) return callback;
  // Only the provider's id: the engine knows it once the provider answered the request.
  const payload = callback.type === 'Deposit' ? { ...callback.payload, transactionId: callback.operationId ?? callback.payload.transactionId } : without(callback.payload, ['external_id']);
  return { ...callback, payload: amountsAsText(payload) };
}

export const seedProfile: SandboxProfile = {
  name: 'seed',
  servesPublicKey: false,
  response: seedResponse,
  callback: seedCallback,
};

export function sandboxProfile(name: SandboxProfileName): SandboxProfile {
  return name === 'seed' ? seedProfile : defaultProfile;
}
