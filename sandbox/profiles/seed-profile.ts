/**
 * SANDBOX_PROFILE=seed: the sandbox as a provider that keeps to the spec and nothing else, so the engine
 * is tested against what a real one may plausibly do where the spec is silent (docs/provider-integration.md).
 *
 * - Responses the spec shows carry only the spec's fields (the sandbox's extensions are dropped).
 * - Shapes the spec does not show come in another plausible variant than the default profile's, with nothing the
 *   sandbox added for its own convenience: amounts as decimal strings; endpoint 3 without `message`,
 *   `externalReference` or `installmentCount`; endpoint 5 answering `{ message, transactionId, status }`; the
 *   infraction list under `content` with `totalElements`, each record without its defense; endpoint 8 answering
 *   `{ message }` alone; endpoint 13 without dates; the 3DS settings without a currency list.
 * - What the spec does not show at all is not served: no crypto withdrawal route (rule 6), no GET /shield/public-key
 *   (the key is printed at start-up, for PAYMENT_SHIELD_PUBLIC_KEY).
 * - Nothing is de-duplicated (the spec promises it nowhere): a repeated external_id or cash-in transactionId is a
 *   second operation, whatever SANDBOX_DEDUPLICATE says.
 * - Callbacks (payload not shown) name the operation by the provider's id only, amounts as strings; the
 *   card callback, which the spec shows, is left as it is.
 * - Charges answer a dynamic BR Code (a location in 26-25, no amount, txid ***) and the provider's id.
 * - Its answers are not checked against the engine's reading of the contract before they leave: it plays a
 *   provider the engine may fail to read, and the engine's tests show where.
 *
 * The default profile is the identity; every product stays as it is, the profile rewrites what leaves and
 * says what is not served or not de-duplicated.
 */
import type { Config } from '../../src/config/env';
import type { EndpointName } from '../../src/payment-api/endpoints';
import { crc16CcittFalse } from '../../src/pix/crc16';
import { parseBrCode, PIX_GUI } from '../../src/pix/brcode';
import type { NewCallback } from '../callbacks/outbox';

export type SandboxProfileName = Config['SANDBOX_PROFILE'];

export type Json = Record<string, unknown>;

export interface SandboxProfile {
  name: SandboxProfileName;
  /** Whether GET /shield/public-key is served (no real provider promises it). */
  servesPublicKey: boolean;
  /** Whether a repeated client id (external_id, the cash-in's transactionId) answers the operation it made. */
  deduplicates: boolean;
  /** Whether each answer is checked against the engine's reading of the contract before it leaves (a mismatch is a sandbox bug). */
  checksAnswers: boolean;
  /** Endpoints of the table this profile does not serve (404): what the spec does not show. */
  omits: readonly EndpointName[];
  /** The 3DS settings ({shield_settings_url}) as they leave. */
  shieldSettings(settings: Json): Json;
  /** A response body as it leaves; `providerIdOf` finds the provider's id of an operation named by the client's. */
  response(endpoint: EndpointName, body: unknown, providerIdOf: (clientId: string) => string | undefined): unknown;
  /** A callback as it is queued. */
  callback(callback: NewCallback): NewCallback;
}

export const defaultProfile: SandboxProfile = {
  name: 'default',
  servesPublicKey: true,
  deduplicates: true,
  checksAnswers: true,
  omits: [],
  shieldSettings: (settings) => settings,
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
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      AMOUNT_FIELDS.includes(key) && typeof field === 'number' ? field.toFixed(2) : field,
    ]),
  );
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
  cardPayment: [
    'id',
    'status',
    'amount',
    'netValue',
    'brand',
    'last4',
    'invoiceUrl',
    'receiptUrl',
    'provider',
    'providerReferences',
  ],
  withdrawal: ['transaction_id', 'external_id', 'status', 'amount', 'fee', 'total', 'type'],
  qrCode: ['transactionId', 'status', 'qrcode', 'amount'],
  internal: ['transactionId', 'amount', 'recipientEmail', 'recipientName', 'newBalance'],
  transaction: [
    'transactionId',
    'value',
    'fee',
    'transactionState',
    'transactionType',
    'transactionMethod',
    'createdAt',
    'updatedAt',
  ],
  fees: ['withdrawal_rate', 'rate_fixed', 'min_withdrawal', 'max_withdrawal', 'usdt_rate'],
} as const;

/** An infraction as the seed lists it: what it is about and where it stands, not the defense the sandbox keeps beside it. */
const INFRACTION_RECORD_FIELDS = ['id', 'transactionId', 'status', 'reason', 'amount', 'createdAt', 'defenseDeadline'];

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

function seedResponse(
  endpoint: EndpointName,
  body: unknown,
  providerIdOf: (clientId: string) => string | undefined,
): unknown {
  if (!isObject(body)) return body;
  switch (endpoint) {
    // Shown by the spec: its fields only.
    case 'createCardPayment':
      return { message: body.message, data: only(body.data, SPEC_FIELDS.cardPayment) };
    case 'withdraw':
    case 'withdrawAlias':
      return {
        message: body.message,
        transactionId: body.transactionId,
        withdrawal: only(body.withdrawal, SPEC_FIELDS.withdrawal),
      };
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
      return { data: without(amountsAsText(body.data), ['externalReference', 'installmentCount']) };
    case 'payPixCopyPaste':
      return {
        message: body.message,
        transactionId: body.transactionId,
        status: isObject(body.payment) ? body.payment.status : undefined,
      };
    case 'listInfractions':
      return {
        content: Array.isArray(body.data)
          ? body.data.map((record) => amountsAsText(only(record, INFRACTION_RECORD_FIELDS)))
          : [],
        totalElements: body.total,
      };
    case 'submitInfractionDefense':
      return { message: body.message };
    case 'getCryptoStatus':
      return without(amountsAsText(body), ['createdAt', 'updatedAt', 'external_id']);
    default:
      return body;
  }
}

function seedCallback(callback: NewCallback): NewCallback {
  if (callback.type === 'Card' || !isObject(callback.payload)) return callback;
  // Only the provider's id: the engine knows it once the provider answered the request.
  const payload =
    callback.type === 'Deposit'
      ? { ...callback.payload, transactionId: callback.operationId ?? callback.payload.transactionId }
      : without(callback.payload, ['external_id']);
  return { ...callback, payload: amountsAsText(payload) };
}

export const seedProfile: SandboxProfile = {
  name: 'seed',
  servesPublicKey: false,
  deduplicates: false,
  checksAnswers: false,
  // Rule 6: the endpoint that creates a crypto withdrawal is not shown.
  omits: ['createCryptoWithdrawal'],
  // Which currencies a card may be charged in is not shown.
  shieldSettings: (settings) => without(settings, ['currencies']) as Json,
  response: seedResponse,
  callback: seedCallback,
};

export function sandboxProfile(name: SandboxProfileName): SandboxProfile {
  return name === 'seed' ? seedProfile : defaultProfile;
}
