/**
 * GET /openapi.json: generated from the contract's endpoint table, so every path and alias the client
 * knows is documented with the very schemas that validate it, and every status it can answer; plus
 * the card security module's JSON endpoints, which browsers call.
 */
import { z } from 'zod';
import { endpoints, ENDPOINT_NAMES, type EndpointDefinition, type EndpointName } from '../../src/payment-api/endpoints';
import {
  PROVIDER_ERROR_STATUS,
  providerErrorSchema,
  type ProviderErrorCode,
} from '../../src/payment-api/schemas/errors';
import {
  shieldPublicKeyResponseSchema,
  shieldSettingsQuerySchema,
  shieldSettingsResponseSchema,
  threeDSSessionRequestSchema,
  threeDSSessionResponseSchema,
} from '../../src/payment-api/schemas/security-module';
import {
  openApiDocument,
  withRequestExamples,
  type LinkSpec,
  type OperationSpec,
  type ResponseSpec,
} from '../../src/openapi/document';
import type { Config } from '../../src/config/env';

type ThreeDSMode = Config['SANDBOX_SHIELD_THREE_DS'];

const SECURITY = {
  none: undefined,
  bearer: [{ bearerAuth: [] }],
  'client-headers': [{ clientId: [], clientSecret: [] }],
} as const;

const checkByResponseId: LinkSpec = {
  operationId: 'checkTransaction',
  requestBody: { transactionId: '$response.body#/transactionId' },
};
const checkByRequestId: LinkSpec = {
  operationId: 'checkTransaction',
  requestBody: { transactionId: '$request.body#/transactionId' },
};

/** Where an answer's id is read again: the links the fuzzer's stateful phase follows to real operations. */
const LINKS: Partial<Record<EndpointName, Record<string, LinkSpec>>> = {
  createCardPayment: {
    getCardPayment: { operationId: 'getCardPayment', parameters: { id: '$response.body#/data/id' } },
  },
  withdraw: { checkTransaction: checkByResponseId },
  withdrawAlias: { checkTransaction: checkByResponseId },
  payPixCopyPaste: { checkTransaction: checkByResponseId },
  createDeposit: { checkTransaction: checkByRequestId },
  createPixCashIn: { checkTransaction: checkByRequestId },
  createCryptoWithdrawal: {
    getCryptoStatus: { operationId: 'getCryptoStatus', parameters: { transactionId: '$response.body#/transactionId' } },
    checkTransaction: checkByResponseId,
  },
};

/** Requests that succeed on a fresh sandbox; the fuzzer's examples phase sends them, so the links reach real operations. */
const EXAMPLES: Partial<Record<EndpointName, readonly unknown[]>> = {
  withdraw: [
    {
      amount: 25,
      external_id: 'payout-001',
      pix_key: '52998224725',
      key_type: 'CPF',
      clientCallbackUrl: 'http://127.0.0.1:3000/callbacks/withdrawals',
    },
  ],
  createPixCashIn: [
    {
      amount: 50,
      payerName: 'Ana Souza',
      payerDocument: '52998224725',
      transactionId: 'charge-001',
      projectWebhook: 'http://127.0.0.1:3000/callbacks/cash-ins',
    },
  ],
  internalTransfer: [{ email: 'recipient@sandbox.test', amount: 10, description: 'Rent' }],
  checkTransaction: [{ transactionId: 'payout-001' }],
};

/** The codes every endpoint of a kind may answer; the endpoint's own refusals come on top. */
function errorCodes(endpoint: EndpointDefinition): ProviderErrorCode[] {
  const codes: ProviderErrorCode[] = [];
  if (endpoint.request || endpoint.params) codes.push('VALIDATION_FAILED');
  if (endpoint.requestIn === 'body') codes.push('MALFORMED_JSON');
  if (endpoint.auth === 'bearer') codes.push('UNAUTHORIZED', 'TOKEN_EXPIRED');
  if (endpoint.auth === 'client-headers') codes.push('UNAUTHORIZED');
  // The fault injection (errorRate) answers 503 on every provider route.
  return [...codes, ...endpoint.refusals, 'SERVICE_UNAVAILABLE'];
}

function errorResponses(endpoint: EndpointDefinition): Record<number, ResponseSpec> {
  const byStatus = new Map<number, ProviderErrorCode[]>();
  for (const code of errorCodes(endpoint)) {
    const status = PROVIDER_ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      status,
      { description: [...new Set(codes)].join(' or '), schema: providerErrorSchema },
    ]),
  );
}

/**
 * Endpoint 6's credentials are not in the spec (CASH_IN_DEPOSIT_AUTH): either scheme, the one the sandbox
 * was started with (Bearer by default) being the one it takes.
 */
const DEPOSIT_SECURITY = [{ bearerAuth: [] }, { clientId: [], clientSecret: [] }] as const;
const DEPOSIT_CREDENTIALS =
  'Credentials: the Bearer JWT of POST /api/auth/login, or the ci and cs headers. The spec lists endpoint 6 under neither scheme ("the JWT-based alternative"): ' +
  'the sandbox takes the one CASH_IN_DEPOSIT_AUTH names (`bearer`, the default, or `client-headers`) and refuses the other with 401, as the engine sends the one its own CASH_IN_DEPOSIT_AUTH names.';

function operationOf(endpoint: EndpointDefinition): OperationSpec {
  const deposit = endpoint.name === 'createDeposit';
  const security = deposit ? DEPOSIT_SECURITY : SECURITY[endpoint.auth];
  const name = endpoint.name as EndpointName;
  const links = LINKS[name];
  const examples = EXAMPLES[name];
  const request = endpoint.request && examples ? withRequestExamples(endpoint.request, examples) : endpoint.request;
  return {
    id: endpoint.name,
    method: endpoint.method === 'GET' ? 'get' : 'post',
    path: endpoint.path,
    summary: endpoint.aliasOf
      ? `${endpoint.summary} (alias of ${endpoints[endpoint.aliasOf as keyof typeof endpoints].path})`
      : endpoint.summary,
    ...(security ? { security } : {}),
    ...(deposit ? { description: DEPOSIT_CREDENTIALS } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(request && endpoint.requestIn === 'body' ? { body: request } : {}),
    ...(request && endpoint.requestIn === 'query' ? { query: request } : {}),
    responses: {
      200: { description: 'Success', schema: endpoint.response, ...(links ? { links } : {}) },
      ...errorResponses(endpoint),
    },
  };
}

/**
 * POST /shield/sessions as this sandbox takes it (SANDBOX_SHIELD_THREE_DS): the card is required where the
 * environment picks the 3DS flow by the card (`card-token`, `off`), as the checkout's token or the one the module
 * made of the page's card; the checkout's token is refused where the issuer never looks at the card (`spec`). The
 * contract's schema allows all; the document states what this server accepts, so that a request fitting the
 * document is never refused with 400.
 */
const withCardToken = z
  .union([
    threeDSSessionRequestSchema.required({ cardToken: true }),
    threeDSSessionRequestSchema.required({ pageCardToken: true }),
  ])
  .meta({ id: 'ThreeDSSessionRequest' });
const THREE_DS_SESSION_REQUESTS: Record<ThreeDSMode, z.ZodType> = {
  'card-token': withCardToken,
  off: withCardToken,
  spec: threeDSSessionRequestSchema.omit({ cardToken: true }).meta({ id: 'ThreeDSSessionSpecRequest' }),
};

/** The JSON endpoints of the card security module (/shield/, called by shield.js in the browser; no credentials). */
const shieldOperations = (threeDSMode: ThreeDSMode): OperationSpec[] => [
  {
    id: 'getShieldPublicKey',
    method: 'get',
    path: '/shield/public-key',
    summary: "The environment's fixed public key (<PUBLIC_KEY>)",
    responses: { 200: { description: 'Success', schema: shieldPublicKeyResponseSchema } },
  },
  {
    id: 'getShieldSettings',
    method: 'get',
    path: '/shield/settings',
    summary: 'The 3DS settings of the environment a public key belongs to ({shield_settings_url})',
    query: shieldSettingsQuerySchema,
    responses: {
      200: { description: 'Success', schema: shieldSettingsResponseSchema },
      400: { description: 'VALIDATION_FAILED: no publicKey', schema: providerErrorSchema },
      404: { description: 'Unknown public key', schema: providerErrorSchema },
    },
  },
  {
    id: 'createThreeDSSession',
    method: 'post',
    path: '/shield/sessions',
    summary: 'Open a 3DS session (ShieldHelper.prepareThreeDS)',
    body: THREE_DS_SESSION_REQUESTS[threeDSMode],
    responses: {
      200: { description: 'AUTHENTICATED (frictionless) or CHALLENGE_REQUIRED', schema: threeDSSessionResponseSchema },
      400: {
        description:
          'VALIDATION_FAILED (neither cardToken nor pageCardToken where SANDBOX_SHIELD_THREE_DS is card-token or off, cardToken sent where it is spec) or MALFORMED_JSON',
        schema: providerErrorSchema,
      },
      404: { description: "NOT_FOUND: a public key that is not the environment's", schema: providerErrorSchema },
      422: {
        description: "INVALID_CARD_TOKEN: the card token does not open with the environment's key",
        schema: providerErrorSchema,
      },
    },
  },
  {
    id: 'getThreeDSSession',
    method: 'get',
    path: '/shield/sessions/:sessionId',
    summary: 'A 3DS session and, once AUTHENTICATED, its result',
    params: z.object({ sessionId: z.string().min(1).max(100) }),
    responses: {
      200: { description: 'Success', schema: threeDSSessionResponseSchema },
      404: { description: 'Unknown session', schema: providerErrorSchema },
    },
  },
];

/** The document of a sandbox whose shield runs in `threeDSMode` (SANDBOX_SHIELD_THREE_DS, default `card-token`). */
/** `omitted`: endpoints of the table the profile does not serve (the seed profile's crypto withdrawal). */
export function sandboxOpenApiDocument(
  threeDSMode: ThreeDSMode = 'card-token',
  omitted: readonly EndpointName[] = [],
): ReturnType<typeof openApiDocument> {
  return openApiDocument({
    info: {
      title: 'Payment service (sandbox)',
      version: '1.0.0',
      description:
        'The provider interface as the sandbox serves it. Gaps in the spec are decided in docs/assumptions.md.',
      license: { name: 'Proprietary (UNLICENSED)' },
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'The sandbox as npm start runs it (SANDBOX_PORT)' }],
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'The token of POST /api/auth/login',
      },
      clientId: {
        type: 'apiKey',
        in: 'header',
        name: 'ci',
        description: 'The client id (PAYMENT_API_CLIENT_ID), sent with cs on every call',
      },
      clientSecret: {
        type: 'apiKey',
        in: 'header',
        name: 'cs',
        description: 'The client secret (PAYMENT_API_CLIENT_SECRET), sent with ci on every call',
      },
    },
    operations: [
      ...ENDPOINT_NAMES.filter((name) => !omitted.includes(name)).map((name) => operationOf(endpoints[name])),
      ...shieldOperations(threeDSMode),
    ],
  });
}
