/**
 * The provider's callbacks and the operators' view of those that named nothing known, in the engine's
 * OpenAPI document. What it says of a callback is what the router does under the running settings: the
 * signature headers required, optional or not looked at (PROVIDER_CALLBACK_SIGNATURES), and the body's
 * fields under the provider's names (<KIND>_CALLBACK_FIELDS), none required: any JSON is taken, a body
 * whose id cannot be read kept as unmatched.
 */
import { z } from 'zod';
import { documentedAs, type OperationSpec } from '../../openapi/document';
import type { CallbackSignaturePolicy } from '../../payment-api/callback-verifier';
import {
  CALLBACK_KINDS,
  DEFAULT_CALLBACK_FIELDS,
  type CallbackFieldsConfig,
} from '../../payment-api/schemas/callback-fields';
import { timestampSchema } from '../../payment-api/schemas/common';
import {
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../payment-api/webhook-signature';
import { errors, keyed, TEMPORAL } from '../openapi-helpers';
import type { FieldReaders } from '../../infractions/record-reader';
import type { CallbackRoute } from './callback-route';
import { callbackRoutes } from './callback-routes';
import { unmatchedCallbacksResponseSchema } from './unmatched-callbacks';

export interface CallbackDocumentSettings {
  policy: CallbackSignaturePolicy;
  fields: CallbackFieldsConfig;
}

export const DEFAULT_CALLBACK_DOCUMENT: CallbackDocumentSettings = {
  policy: 'optional',
  fields: DEFAULT_CALLBACK_FIELDS,
};

/** The signature headers as the policy reads them: required; optional (both or neither); not looked at. */
export function callbackHeaders(policy: CallbackSignaturePolicy) {
  const eventId = z.string().optional().describe('Unique per event, identical on its retries');
  if (policy === 'off') return z.object({ [WEBHOOK_ID_HEADER]: eventId });
  const timestamp = z
    .string()
    .regex(/^\d{1,12}$/)
    .describe('Unix seconds, inside the signature');
  const signature = z
    .string()
    .describe('v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>, one per active secret');
  if (policy === 'required')
    return z.object({
      [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
      [WEBHOOK_SIGNATURE_HEADER]: signature,
      [WEBHOOK_ID_HEADER]: eventId,
    });
  const unsigned =
    ' Both or neither: without them the callback is an unsigned hint, which only makes the engine ask the provider.';
  return z.object({
    [WEBHOOK_TIMESTAMP_HEADER]: timestamp.optional().describe(`Unix seconds, inside the signature.${unsigned}`),
    [WEBHOOK_SIGNATURE_HEADER]: signature
      .optional()
      .describe(`v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>, one per active secret.${unsigned}`),
    [WEBHOOK_ID_HEADER]: eventId,
  });
}

/** The body as the route reads it: any JSON; of an object, each field under the provider's names, read when it holds a value of its kind. */
function callbackBody(route: CallbackRoute<FieldReaders, unknown>) {
  const { about, routedBy, setting } = CALLBACK_KINDS[route.kind];
  const aboutField: Record<string, string> = about;
  const readers: Record<string, unknown> = CALLBACK_KINDS[route.kind].readers;
  const properties: Record<string, { description: string; format?: 'date-time' }> = {};
  for (const [field, names] of Object.entries<readonly string[]>(route.names)) {
    const format = readers[field] === timestampSchema ? { format: 'date-time' as const } : {};
    for (const name of names) properties[name] ??= { description: `${field}: ${aboutField[field] ?? ''}`, ...format };
  }
  const ids = routedBy.flatMap((field: string) => route.names[field] ?? []).join(', ');
  return documentedAs(z.unknown(), {
    description:
      `Any JSON. The engine reads the fields below (names set by ${setting}; a dotted name reaches into an object), each only when it holds a value of its kind, and ignores everything else. ` +
      `One of ${ids} names the operation; without it the callback is kept as unmatched, with a problem naming these fields.`,
    properties,
  });
}

const operationId = (path: string): string =>
  `receive${path.replace('/callbacks/', '').replace(/(^|[-_/])(\w)/g, (_match: string, _separator: string, letter: string) => letter.toUpperCase())}Callback`;

const SUBJECT: Record<string, string> = {
  card: 'PAYMENT_UPDATED callbacks of card payments',
  'cash-in': "cash-in status callbacks (each charge's projectWebhook)",
};

/** The operators' view of the callbacks kept as unmatched. */
export const callbackOperations: OperationSpec[] = [
  keyed('operator', {
    id: 'listUnmatchedCallbacks',
    description:
      'Operators: the most recent provider callbacks that named no known payout, charge or card payment, kept so that a late or misrouted callback can be reconciled by hand.',
    method: 'get',
    path: '/v1/callbacks/unmatched',
    summary: 'Callbacks that named no known payout (operators)',
    responses: {
      200: { description: 'The most recent unmatched callbacks', schema: unmatchedCallbacksResponseSchema },
    },
  }),
];

/** Each kind's callback operations (one per payout rail), as the running settings read them. */
export function callbackReceivers(settings: CallbackDocumentSettings = DEFAULT_CALLBACK_DOCUMENT): {
  payouts: OperationSpec[];
  cashIn: OperationSpec[];
  card: OperationSpec[];
} {
  const headers = callbackHeaders(settings.policy);
  const operations = callbackRoutes(settings.fields).map((route): [string, OperationSpec] => [
    route.kind,
    {
      id: route.kind === 'card' ? 'receiveCardPaymentCallback' : operationId(route.path),
      method: 'post',
      path: route.path,
      summary: `The provider's ${SUBJECT[route.kind] ?? `final-status callbacks of ${route.kind} payouts`}`,
      description:
        'Called by the provider at the callback URL the engine gave it. Verified when signed (PROVIDER_CALLBACK_SIGNATURES), read by the fields below, then signalled to its operation, ' +
        'which confirms the outcome with the provider before it is final; an unsigned callback only makes the operation ask the provider now.',
      headers,
      body: callbackBody(route),
      responses: {
        200: {
          description: 'Signalled to its operation (or the operation had ended, or a signed callback taken already)',
        },
        202: { description: 'Names no operation the engine knows, or its id could not be read: kept for operators' },
        ...errors({
          400: 'The body is not JSON',
          401: 'Bad or stale signature',
          413: 'The body is too large',
          ...TEMPORAL,
        }),
      },
    },
  ]);
  const of = (kinds: readonly string[]) =>
    operations.filter(([kind]) => kinds.includes(kind)).map(([, operation]) => operation);
  return { payouts: of(['withdrawals', 'pix-copy-paste', 'crypto']), cashIn: of(['cash-in']), card: of(['card']) };
}
