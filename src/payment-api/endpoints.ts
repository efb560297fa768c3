/**
 * Every endpoint of the provider's interface in one table: the sandbox mounts its routes and builds its
 * OpenAPI document from it, the client takes paths, credentials and response schemas from it, so the
 * two cannot drift apart. Paths use Express `:param` style. Every success answers HTTP 200.
 */
import { z } from 'zod';
import type { ProviderErrorCode } from './schemas/errors';
import {
  cardPaymentDetailsResponseSchema,
  cardPaymentPathSchema,
  cardPaymentRequestSchema,
  cardPaymentResponseSchema,
  cashInRequestSchema,
  cashInResponseSchema,
  cryptoFeesResponseSchema,
  cryptoStatusResponseSchema,
  cryptoWithdrawalRequestSchema,
  cryptoWithdrawalResponseSchema,
  depositRequestSchema,
  depositResponseSchema,
  infractionDefenseRequestSchema,
  infractionDefenseResponseSchema,
  infractionListQuerySchema,
  infractionListResponseSchema,
  infractionPathSchema,
  internalTransferRequestSchema,
  internalTransferResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  pixCopyPasteRequestSchema,
  pixCopyPasteResponseSchema,
  transactionCheckRequestSchema,
  transactionCheckResponseSchema,
  withdrawalRequestSchema,
  withdrawalResponseSchema,
} from './schemas';

export type EndpointAuth = 'none' | 'bearer' | 'client-headers';
export type HttpMethod = 'GET' | 'POST';

export interface EndpointDefinition<Name extends string = string> {
  /** Same as the table key. */
  readonly name: Name;
  /** Row of the spec's endpoint table ("4a"), or "extra" for the crypto withdrawal we chose. */
  readonly specNumber: string;
  readonly summary: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly auth: EndpointAuth;
  /** Where `request` is read from: the JSON body for POST, the query string for GET. */
  readonly requestIn: 'body' | 'query' | 'none';
  readonly request: z.ZodType | undefined;
  /** Path parameters (`:id`), when the path has any. */
  readonly params?: z.ZodType;
  readonly response: z.ZodType;
  /**
   * What the endpoint refuses besides a bad request (400), bad credentials (401) and an outage (503):
   * the codes of the contract's error table, their HTTP status from PROVIDER_ERROR_STATUS.
   */
  readonly refusals: readonly ProviderErrorCode[];
  /** The endpoint this path is an alias of: same handler, same contract. */
  readonly aliasOf?: string;
}

/** Checks every entry's `name` equals its key while keeping the literal types of the table. */
function defineEndpoints<const T extends { [K in keyof T]: EndpointDefinition<K & string> }>(table: T): T {
  return table;
}

const cryptoStatusPathSchema = z.strictObject({ transactionId: z.string().min(1) });

export const endpoints = defineEndpoints({
  login: {
    name: 'login',
    specNumber: '1',
    summary: 'Exchange client_id and client_secret for a JWT',
    method: 'POST',
    path: '/api/auth/login',
    auth: 'none',
    requestIn: 'body',
    request: loginRequestSchema,
    response: loginResponseSchema,
    refusals: ['UNAUTHORIZED'],
  },
  createCardPayment: {
    name: 'createCardPayment',
    specNumber: '2',
    summary: 'Create a card payment (single or installments, optional 3DS)',
    method: 'POST',
    path: '/api/v1/card/payments',
    auth: 'bearer',
    requestIn: 'body',
    request: cardPaymentRequestSchema,
    response: cardPaymentResponseSchema,
    refusals: [
      'CARD_REFUSED',
      'INVALID_PHONE',
      'INVALID_AMOUNT',
      'INVALID_CARD_TOKEN',
      'THREE_DS_REQUIRED',
      'THREE_DS_INVALID',
    ],
  },
  getCardPayment: {
    name: 'getCardPayment',
    specNumber: '3',
    summary: 'Read a card payment by data.id',
    method: 'GET',
    path: '/api/v1/card/payments/:id',
    auth: 'bearer',
    requestIn: 'none',
    request: undefined,
    params: cardPaymentPathSchema,
    response: cardPaymentDetailsResponseSchema,
    refusals: ['NOT_FOUND'],
  },
  withdraw: {
    name: 'withdraw',
    specNumber: '4',
    summary: 'PIX withdrawal to a key; answers PROCESSING, final status by callback',
    method: 'POST',
    path: '/api/withdrawals/withdraw',
    auth: 'bearer',
    requestIn: 'body',
    request: withdrawalRequestSchema,
    response: withdrawalResponseSchema,
    refusals: ['INVALID_PIX_KEY', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_CONFLICT'],
  },
  withdrawAlias: {
    name: 'withdrawAlias',
    specNumber: '4a',
    summary: 'Alias of the PIX withdrawal',
    method: 'POST',
    path: '/api/payments/withdrawal',
    auth: 'bearer',
    requestIn: 'body',
    request: withdrawalRequestSchema,
    response: withdrawalResponseSchema,
    refusals: ['INVALID_PIX_KEY', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_CONFLICT'],
    aliasOf: 'withdraw',
  },
  payPixCopyPaste: {
    name: 'payPixCopyPaste',
    specNumber: '5',
    summary: 'Pay a PIX copy-and-paste (EMV) code; withdrawal fee applied at request time',
    method: 'POST',
    path: '/api/payments/pix-copy-paste/pay',
    auth: 'bearer',
    requestIn: 'body',
    request: pixCopyPasteRequestSchema,
    response: pixCopyPasteResponseSchema,
    refusals: ['INVALID_QRCODE', 'AMOUNT_MISMATCH', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_CONFLICT'],
  },
  createDeposit: {
    name: 'createDeposit',
    specNumber: '6',
    summary: 'PIX cash-in for JWT-based projects (same contract as endpoint 10)',
    method: 'POST',
    path: '/api/payments/deposit',
    auth: 'bearer',
    requestIn: 'body',
    request: depositRequestSchema,
    response: depositResponseSchema,
    refusals: ['RECIPIENT_NOT_FOUND', 'IDEMPOTENCY_CONFLICT'],
  },
  listInfractions: {
    name: 'listInfractions',
    specNumber: '7',
    summary: 'List MED infractions, paginated',
    method: 'GET',
    path: '/api/meds/infractions/list',
    auth: 'client-headers',
    requestIn: 'query',
    request: infractionListQuerySchema,
    response: infractionListResponseSchema,
    refusals: [],
  },
  submitInfractionDefense: {
    name: 'submitInfractionDefense',
    specNumber: '8',
    summary: 'Submit the defense of an infraction in WAITING_PSP',
    method: 'POST',
    path: '/api/meds/infractions/:infractionId/defense',
    auth: 'client-headers',
    requestIn: 'body',
    request: infractionDefenseRequestSchema,
    params: infractionPathSchema,
    response: infractionDefenseResponseSchema,
    refusals: ['NOT_FOUND', 'INFRACTION_NOT_WAITING_PSP'],
  },
  checkTransaction: {
    name: 'checkTransaction',
    specNumber: '9',
    summary: 'Status of a cash-in, withdrawal, copy-and-paste payment, crypto withdrawal or internal transfer',
    method: 'POST',
    path: '/api/transactions/check',
    auth: 'client-headers',
    requestIn: 'body',
    request: transactionCheckRequestSchema,
    response: transactionCheckResponseSchema,
    refusals: ['NOT_FOUND'],
  },
  createPixCashIn: {
    name: 'createPixCashIn',
    specNumber: '10',
    summary: 'Create a PIX charge and return its copy-and-paste code',
    method: 'POST',
    path: '/api/transactions/create',
    auth: 'client-headers',
    requestIn: 'body',
    request: cashInRequestSchema,
    response: cashInResponseSchema,
    refusals: ['RECIPIENT_NOT_FOUND', 'IDEMPOTENCY_CONFLICT'],
  },
  internalTransfer: {
    name: 'internalTransfer',
    specNumber: '11',
    summary: 'Move balance to another user of the same environment, by e-mail',
    method: 'POST',
    path: '/api/transactions/internal',
    auth: 'client-headers',
    requestIn: 'body',
    request: internalTransferRequestSchema,
    response: internalTransferResponseSchema,
    refusals: ['RECIPIENT_NOT_FOUND', 'INSUFFICIENT_BALANCE'],
  },
  internalTransferAlias: {
    name: 'internalTransferAlias',
    specNumber: '11a',
    summary: 'Alias of the internal transfer',
    method: 'POST',
    path: '/api/transactions/withdraw/internal',
    auth: 'client-headers',
    requestIn: 'body',
    request: internalTransferRequestSchema,
    response: internalTransferResponseSchema,
    refusals: ['RECIPIENT_NOT_FOUND', 'INSUFFICIENT_BALANCE'],
    aliasOf: 'internalTransfer',
  },
  getCryptoFees: {
    name: 'getCryptoFees',
    specNumber: '12',
    summary: 'Crypto withdrawal rates and bounds',
    method: 'GET',
    path: '/api/crypto/fees',
    auth: 'bearer',
    requestIn: 'none',
    request: undefined,
    response: cryptoFeesResponseSchema,
    refusals: [],
  },
  getCryptoStatus: {
    name: 'getCryptoStatus',
    specNumber: '13',
    summary: 'Status of a crypto withdrawal',
    method: 'GET',
    path: '/api/crypto/status/:transactionId',
    auth: 'bearer',
    requestIn: 'none',
    request: undefined,
    params: cryptoStatusPathSchema,
    response: cryptoStatusResponseSchema,
    refusals: ['NOT_FOUND'],
  },
  createCryptoWithdrawal: {
    name: 'createCryptoWithdrawal',
    specNumber: 'extra',
    summary: 'Create a USDT withdrawal (endpoint not in the spec; our choice)',
    method: 'POST',
    path: '/api/crypto/withdraw',
    auth: 'bearer',
    requestIn: 'body',
    request: cryptoWithdrawalRequestSchema,
    response: cryptoWithdrawalResponseSchema,
    refusals: ['CRYPTO_AMOUNT_OUT_OF_RANGE', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_CONFLICT'],
  },
});

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export const ENDPOINT_NAMES = Object.keys(endpoints) as EndpointName[];

/** Request body (or query) the client sends to endpoint N. */
export type EndpointRequest<N extends EndpointName> = Endpoints[N]['request'] extends z.ZodType
  ? z.input<Endpoints[N]['request']>
  : undefined;
/** Parsed response of endpoint N. */
export type EndpointResponse<N extends EndpointName> = z.output<Endpoints[N]['response']>;
