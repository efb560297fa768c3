/**
 * The one place that reads the environment. Every variable is parsed by zod with a local default, so
 * that `npm start` works on a fresh clone, and a bad value stops the process at start-up with a message
 * naming the variable. Demo credentials and weak secrets are refused when NODE_ENV=production.
 */
import { createPublicKey, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { reaisAmountSchema } from '../money/reais-schemas';
import { CALLBACK_SIGNATURE_POLICIES } from '../payment-api/callback-verifier';
import {
  analysisWordsSchema,
  DEFAULT_ANALYSIS_WORDS,
  DEFAULT_MED_RECORD_FIELDS,
  medRecordFieldsSchema,
  PROVIDER_FIELD_PATH,
} from '../payment-api/schemas/infractions';
import { isLoopbackHost } from '../net/public-address';
import { trustedProxyRefusal } from '../net/trusted-proxy';
import { callbackFieldsSetting, DEFAULT_CALLBACK_FIELDS } from '../payment-api/schemas/callback-fields';
import { DEFAULT_PIX_COPY_PASTE_FIELDS, pixCopyPasteFieldNamesSchema } from '../payment-api/schemas/pix-copy-paste';
import { API_KEY_SCOPES, apiKeysFileSchema, apiKeysTextSchema, type ApiKey } from './api-keys';

const port = z.coerce.number().int().min(1).max(65535);
const commaSeparated = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);
const list = commaSeparated.pipe(z.array(z.string().min(1)).min(1, 'must name at least one value'));
const url = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));
const origin = z
  .url({ protocol: /^https?$/ })
  .refine((value) => new URL(value).origin === value, 'must be an origin: scheme://host[:port], no path');
const origins = commaSeparated.pipe(z.array(origin));
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/ });
const is32Bytes = (base64: string): boolean => Buffer.from(base64, 'base64').length === 32;
/** A proxy Express can trust by name or address; never "everyone", which would let any client name its own address. */
function isTrustedProxy(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return (
    bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) > 0 && Number(bits) <= (family === 4 ? 32 : 128))
  );
}
/** An old payload key kept for decryption only: `id:base64key`. */
export const PREVIOUS_KEY_PATTERN = /^([\w.-]{1,64}):([A-Za-z0-9+/]+={0,2})$/;
const previousKeys = commaSeparated.pipe(
  z.array(
    z
      .string()
      .regex(PREVIOUS_KEY_PATTERN, 'each entry is id:base64key')
      .refine((entry) => is32Bytes(entry.slice(entry.indexOf(':') + 1)), 'each key must be 32 bytes encoded as base64'),
  ),
);

/** Production refuses secrets shorter than this: API keys, webhook secrets, the codec token, the checkout token secret, the sandbox's admin token. */
const MIN_SECRET_LENGTH = 24;
/**
 * 32 random bytes take about 30 distinct values; 16 or fewer (a repeated byte, hex digits or a short
 * word used as the key) happens by chance in fewer than one key in a billion.
 */
const MIN_DISTINCT_KEY_BYTES = 17;

export const DEMO_VALUES = {
  ENGINE_API_KEYS: 'dev-api-key',
  PAYMENT_API_CLIENT_ID: 'demo-client',
  PAYMENT_API_CLIENT_SECRET: 'demo-secret',
  WEBHOOK_SECRET: 'demo-webhook-secret',
  SANDBOX_ADMIN_TOKEN: 'demo-admin',
} as const;

/** The key of a fresh clone (`npm start`): every scope. */
export const DEVELOPMENT_API_KEY: ApiKey = {
  name: 'dev',
  secret: DEMO_VALUES.ENGINE_API_KEYS,
  scopes: [...API_KEY_SCOPES],
};

/** The keys the API takes, and the variable that gave them. */
function configuredApiKeys(env: Pick<z.output<typeof envSchema>, 'ENGINE_API_KEYS' | 'ENGINE_API_KEYS_FILE'>): {
  variable: 'ENGINE_API_KEYS' | 'ENGINE_API_KEYS_FILE';
  keys: ApiKey[];
} {
  if (env.ENGINE_API_KEYS_FILE) return { variable: 'ENGINE_API_KEYS_FILE', keys: env.ENGINE_API_KEYS_FILE };
  return { variable: 'ENGINE_API_KEYS', keys: env.ENGINE_API_KEYS ?? [DEVELOPMENT_API_KEY] };
}

/** An SPKI public key (what the security module's setPublicKey takes); never a private key, which createPublicKey would also take. */
export function isPublicKeyPem(pem: string): boolean {
  if (!pem.trimStart().startsWith('-----BEGIN PUBLIC KEY-----')) return false;
  try {
    return createPublicKey(pem).type === 'public';
  } catch {
    return false;
  }
}

export const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'test', 'production'])
    .default('development')
    .describe(
      '`production` turns on the production refusals below: no demo credential, no weak secret, no local default for what a deployment must name, TLS wherever the network is crossed',
    ),
  ENGINE_PORT: port.default(3000).describe('Port of the engine API'),
  ENGINE_HOST: z
    .string()
    .regex(/^[\w.:-]+$/, 'an IP address or a host name')
    .default('127.0.0.1')
    .describe(
      'Interface the engine API binds: loopback unless told otherwise (containers set `0.0.0.0`); the log line `api.listening` names the address really bound',
    ),
  ENGINE_PUBLIC_URL: url
    .optional()
    .describe(
      'Base URL the provider calls back (`/callbacks/…`); unset: `http://127.0.0.1:$ENGINE_PORT`. Required, https, in production',
    ),
  SANDBOX_PORT: port.default(4010).describe('Port of the sandbox (the local provider)'),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port')
    .default('127.0.0.1:7233')
    .describe(
      'The Temporal frontend, `host:port`. Production refuses one beyond loopback reached without TLS (set `TEMPORAL_TLS_CA`, or `TEMPORAL_ALLOW_PLAINTEXT`)',
    ),
  TEMPORAL_UI_PORT: port.default(8233).describe('Port of the Temporal Web UI of the local dev server (`npm start`)'),
  TEMPORAL_METRICS_PORT: port
    .optional()
    .describe("The local dev server's Prometheus port (`npm start`); unset: the Temporal CLI picks a free one"),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default').describe('Temporal namespace of every workflow'),
  TEMPORAL_TASK_QUEUE: z
    .string()
    .min(1)
    .default('payouts')
    .describe('Task queue the worker polls and the API starts workflows on'),
  TEMPORAL_CLI_PATH: z
    .string()
    .min(1)
    .optional()
    .describe('An existing Temporal CLI binary for `npm start`; unset: the one `npm run temporal:install` fetched'),
  TEMPORAL_CALL_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(5_000)
    .describe(
      "Deadline of every call of the engine API to Temporal (start, query, signal, describe, an update's acceptance); past it the API answers 503. Raise it for a distant frontend",
    ),
  TEMPORAL_TLS_CA: z
    .string()
    .min(1)
    .optional()
    .describe('PEM file of the CA that signed the Temporal frontend’s certificate: TLS to the frontend'),
  TEMPORAL_TLS_CERT: z
    .string()
    .min(1)
    .optional()
    .describe(
      'PEM file of this client’s certificate, with `TEMPORAL_TLS_KEY`: mutual TLS (Temporal Cloud, a frontend that authenticates its clients)',
    ),
  TEMPORAL_TLS_KEY: z
    .string()
    .min(1)
    .optional()
    .describe('PEM file of the key of `TEMPORAL_TLS_CERT`; the two go together'),
  TEMPORAL_TLS_SERVER_NAME: z
    .string()
    .min(1)
    .optional()
    .describe('The name the frontend’s certificate carries, when it differs from the host of `TEMPORAL_ADDRESS`'),
  // Without it production refuses a plaintext remote frontend; docker-compose's Docker network, on one host, is such a network.
  TEMPORAL_ALLOW_PLAINTEXT: z
    .stringbool()
    .default(false)
    .describe('Production: reach a TEMPORAL_ADDRESS beyond loopback without TLS, on a network only the engine shares'),
  DATA_DIR: z
    .string()
    .min(1)
    .default('.data')
    .describe(
      'Local state: the dev server’s and the sandbox’s SQLite files, the engine’s database when `DATABASE_URL` is unset, the generated development key and codec token',
    ),
  DATABASE_URL: postgresUrl
    .optional()
    .describe(
      'The engine’s own database (batches, payouts, webhook endpoints, intents, unmatched callbacks): unset, SQLite under `DATA_DIR` (one machine); `postgres://user:password@host:5432/db` for API and workers on any number of machines. Migrated at start',
    ),
  BATCH_STORE_URL: postgresUrl
    .optional()
    .describe(
      'The former name of `DATABASE_URL`, still read when it is unset (the API and the worker log `config.deprecated_variable`): rename it',
    ),
  /** Unset (and no ENGINE_API_KEYS_FILE): DEVELOPMENT_API_KEY, refused in production. */
  ENGINE_API_KEYS: apiKeysTextSchema
    .optional()
    .describe(
      'API keys, comma-separated, each `name:secret:scope+scope` (scopes and routes: [security.md](security.md#api-keys-and-their-scopes)); `secret` or `name:secret` alone has `payouts:write`, `charges:write`, `infractions:write`, `read`. Unset: `dev-api-key` with every scope, refused in production (24 characters or more there). A bad entry stops the start, naming its position',
    ),
  ENGINE_API_KEYS_FILE: apiKeysFileSchema
    .optional()
    .describe(
      'Instead of `ENGINE_API_KEYS` (not both): a JSON file, `[{"name": "payouts-service", "secret": "…", "scopes": ["payouts:write", "read"]}]`, read at start; the same rules. Keep it readable by the API’s user alone',
    ),
  ENGINE_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(6_000)
    .describe(
      'Requests a minute per API key on `/v1` (without a valid key: per client address); past it 429 `RATE_LIMITED` with `Retry-After`. Counted per API process',
    ),
  CALLBACK_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(6_000)
    .describe(
      'Requests a minute per client address on `/callbacks` (the provider retries a 429 like any other failure)',
    ),
  CHECKOUT_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(300)
    .describe('Requests a minute per client address on `/checkout` (buyers’ browsers)'),
  CODEC_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(1_200)
    .describe('Requests a minute per client address on `/codec` (the Temporal UI)'),
  TRUST_PROXY: commaSeparated
    .pipe(
      z.array(
        z
          .string()
          .refine(
            isTrustedProxy,
            'each entry is an IP address, a subnet (address/bits), loopback, linklocal or uniquelocal',
          ),
      ),
    )
    .optional()
    .describe(
      'The load balancers in front of the API (addresses, subnets, `loopback`, `linklocal`, `uniquelocal`; never everyone): their `X-Forwarded-For` names the client the rate limits count and the logs show; unset: the socket’s address. Production refuses an entry wider than an IPv4 /8 or an IPv6 /16, and `::ffff:0:0/96`',
    ),
  UNMATCHED_CALLBACKS_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(10_000)
    .describe(
      'Unmatched callbacks kept for operators (`GET /v1/callbacks/unmatched`); past it the oldest are dropped and counted',
    ),
  PAYMENT_API_BASE_URL: url
    .optional()
    .describe(
      'The payment service; unset: the local sandbox, `http://127.0.0.1:$SANDBOX_PORT`. Required, https, in production',
    ),
  PAYMENT_API_CLIENT_ID: z
    .string()
    .min(1)
    .default(DEMO_VALUES.PAYMENT_API_CLIENT_ID)
    .describe('The provider’s `client_id` (`ci`); the demo value is refused in production'),
  PAYMENT_API_CLIENT_SECRET: z
    .string()
    .min(1)
    .default(DEMO_VALUES.PAYMENT_API_CLIENT_SECRET)
    .describe('The provider’s `client_secret` (`cs`); the demo value is refused in production'),
  PROVIDER_PIX_FEE_FIXED: z.coerce
    .number()
    .min(0)
    .max(1_000)
    .pipe(reaisAmountSchema)
    .default(0.5)
    .describe(
      'The provider’s fixed fee in reais on PIX withdrawals and copy-and-paste payments, shown by `POST /v1/payouts/preview`: set it to your contract’s',
    ),
  PROVIDER_PIX_FEE_PERCENT: z.coerce
    .number()
    .min(0)
    .max(100)
    .pipe(reaisAmountSchema)
    .default(3)
    .describe('The provider’s fee in percent of the amount, on top of `PROVIDER_PIX_FEE_FIXED`'),
  PAYMENT_API_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000)
    .describe(
      'Timeout of every call to the provider; an unanswered call is an unknown outcome, checked again, never a refusal',
    ),
  // The spec says callbacks "may be signed": `optional` by default, so a real provider's unsigned callbacks are heard.
  PROVIDER_CALLBACK_SIGNATURES: z
    .enum(CALLBACK_SIGNATURE_POLICIES)
    .default('optional')
    .describe(
      'Provider callbacks: `required` refuses an unsigned one (401); `optional` takes it as an untrusted hint that only makes the workflow ask the provider’s check (a badly signed one is still refused); `off` verifies nothing and takes every callback as such a hint ([provider-integration.md](provider-integration.md)); refused in production',
    ),
  UNSIGNED_CALLBACKS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(600)
    .describe(
      'Untrusted callback hints each client address may have reach an open operation a minute, per API process; past it 429 with `Retry-After` (the provider retries). Garbage and unknown ids are not counted',
    ),
  PROVIDER_CALLBACK_ADDRESSES: commaSeparated
    .pipe(
      z.array(
        z
          .string()
          .refine(
            (entry) => isTrustedProxy(entry) && isIP(entry.split('/')[0] ?? '') !== 0,
            'each entry is an IP address or a subnet (address/bits)',
          ),
      ),
    )
    .default([])
    .describe(
      'The provider’s callback addresses or subnets, comma-separated: their unsigned callbacks are not budgeted by UNSIGNED_CALLBACKS_PER_MINUTE',
    ),
  // The sandbox gives a callback 10 s: this, a provider-id lookup (2.5 s at most) and the signal's 5 s fit within it.
  PROVIDER_CALLBACK_UPDATE_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_000)
    .default(1_500)
    .describe(
      'How long a payout callback waits for its workflow to accept it as an update (no persisted transition of its own); past it (no worker polling, say) the callback is signalled instead, so the provider gets its answer within its timeout',
    ),
  WEBHOOK_SECRET: list
    .default([DEMO_VALUES.WEBHOOK_SECRET])
    .describe(
      'The secret that signs the provider’s callbacks (HMAC-SHA256); comma-separated during a rotation: the first signs, every one verifies. The demo value is refused in production, where each is 24 characters or more',
    ),
  SANDBOX_ADMIN_TOKEN: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Bearer token of the sandbox’s `/sandbox/` admin API (the sandbox’s alone); unset: `demo-admin` outside production, a random one nobody knows (the admin API closed) in production, where a set one is 24 characters or more',
    ),
  PAYLOAD_ENCRYPTION_KEY: z
    .string()
    .refine(is32Bytes, 'must be 32 bytes encoded as base64')
    .optional()
    .describe(
      'AES-256-GCM key of the payload codec (what Temporal stores is encrypted), 32 bytes in base64: `openssl rand -base64 32`; unset: a development key generated under `DATA_DIR`, refused in production, which also refuses a key that is not random bytes',
    ),
  PAYLOAD_ENCRYPTION_KEY_ID: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'letters, digits, dot, dash, underscore')
    .optional()
    .describe(
      'Id stored with every encrypted payload and sealed batch row, so a rotated key still decrypts its own; required in production',
    ),
  PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: previousKeys
    .optional()
    .describe(
      'Keys of before a rotation, comma-separated `id:base64key`: they decrypt what they encrypted (history, sealed batch rows), never encrypt',
    ),
  CODEC_TOKEN: z
    .string()
    .regex(/^[\w-]+$/, 'letters, digits, dash, underscore (it goes into a URL)')
    .optional()
    .describe(
      'The Temporal UI’s credential for the codec endpoint, carried in its URL; unset: generated once under `DATA_DIR` outside production, API keys only in production',
    ),
  CODEC_CORS_ORIGINS: origins
    .optional()
    .describe(
      'Browser origins of the Temporal UI allowed to call the codec endpoint; unset: the local dev UI on `TEMPORAL_UI_PORT`, none in production (none is needed when the UI calls it on its own origin, as behind `docker-compose.yml`’s proxy)',
    ),
  SANDBOX_DB: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Sandbox: where its SQLite state lives (`:memory:` for throwaway runs); unset: `$DATA_DIR/sandbox.sqlite`',
    ),
  SANDBOX_DEDUPLICATE: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true')
    .describe(
      'Sandbox: `false` makes a repeated `external_id` or charge `transactionId` a second operation, to test the engine’s exactly-once (the seed profile never de-duplicates)',
    ),
  SANDBOX_PROFILE: z
    .enum(['default', 'seed'])
    .default('default')
    .describe(
      'Sandbox: `seed` plays a provider that keeps strictly to the spec ([provider-integration.md](provider-integration.md#the-seed-profile))',
    ),
  SANDBOX_CALLBACK_SIGNATURE: z
    .enum(['hmac', 'none', 'alt'])
    .optional()
    .describe(
      'Sandbox: how its callbacks are signed: `hmac` (the documented `v1=` HMAC-SHA256), `none`, or `alt` (another scheme, to try a verifier that is not ours); unset: `hmac`, `none` with the seed profile',
    ),
  SANDBOX_SETTLE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(1_000)
    .describe('Sandbox: delay before a withdrawal, copy-and-paste payment, crypto withdrawal or card payment settles'),
  SANDBOX_CALLBACK_MAX_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .default(10)
    .describe('Sandbox: callback delivery attempts'),
  SANDBOX_CALLBACK_RETRY_BASE_MS: z.coerce
    .number()
    .int()
    .min(10)
    .default(500)
    .describe('Sandbox: first wait between callback attempts, doubling each time'),
  SANDBOX_CASH_IN_EXPIRY_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(3_600_000)
    .describe('Sandbox: how long a PIX cash-in charge stays payable'),
  SANDBOX_INFRACTION_RESOLVE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5_000)
    .describe('Sandbox: delay before a defended infraction is resolved (0: only by the admin call)'),
  SANDBOX_SHIELD_ORIGINS: origins
    .optional()
    .describe(
      'Sandbox: browser origins of checkout pages allowed to use its security module (CORS of `/shield/`); unset: any origin. A 3DS challenge answers only the origin that opened its session, in any case',
    ),
  SANDBOX_SHIELD_THREE_DS: z
    .enum(['card-token', 'spec', 'off'])
    .default('card-token')
    .describe(
      'Sandbox: its 3DS. `card-token`: frictionless or challenge by the card; `spec`: the spec’s arguments only, always frictionless; `off`: 3DS not enabled, cards charged without 3DS data',
    ),
  SANDBOX_SHIELD_CHALLENGE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(300_000)
    .describe('Sandbox: how long a buyer has to answer a 3DS challenge before it counts as abandoned'),
  SANDBOX_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(5)
    .default(3_600)
    .describe('Sandbox: lifetime of the JWTs it issues (short, to exercise the engine’s token refresh)'),
  SANDBOX_LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(60)
    .describe('Sandbox: logins a minute per `client_id` (`POST /api/auth/login`); past it 429 with `Retry-After`'),
  PAYOUT_CALLBACK_WAIT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(60_000)
    .describe(
      'Payouts: how long a submitted payout waits for the provider’s callback before it polls the transaction check',
    ),
  PAYOUT_POLL_INITIAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(5_000)
    .describe('Payouts: first wait between checks once the callback is late, doubling up to `PAYOUT_POLL_MAX_MS`'),
  PAYOUT_POLL_MAX_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(600_000)
    .describe('Payouts: longest wait between checks'),
  PAYOUT_REVIEW_AFTER_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(86_400_000)
    .describe(
      'Payouts: without a confirmed outcome this long after submission, the payout is `NEEDS_REVIEW` (an operator decides)',
    ),
  PAYOUT_SUBMIT_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(3_600_000)
    .describe('Payouts: how long submission may keep failing (provider down, timeouts) before `NEEDS_REVIEW`'),
  CHARGE_MERCHANT_NAME: z
    .string()
    .min(1)
    .max(25)
    .optional()
    .describe(
      'Cash-in: the merchant name (BR Code field 59) every code the provider answers must carry; a code naming another is refused. Unset: not compared',
    ),
  CASH_IN_ENDPOINT: z
    .enum(['transactions', 'deposit'])
    .default('transactions')
    .describe(
      'Cash-in: the provider endpoint that creates charges: `transactions` (10, headers `ci`/`cs`) or `deposit` (6, for JWT projects)',
    ),
  CRYPTO_FEE_RATE_UNIT: z
    .enum(['percent', 'fraction'])
    .default('percent')
    .describe('Crypto: how endpoint 12’s fee quote states `withdrawal_rate`: `percent` (2 = 2 %) or `fraction` (0.02)'),
  CRYPTO_FEE_FIXED_UNIT: z
    .enum(['reais', 'usdt'])
    .default('reais')
    .describe('Crypto: the unit of endpoint 12’s `rate_fixed`: `reais` or `usdt`'),
  PAYMENT_API_CRYPTO_WITHDRAW_PATH: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path: /segment/segment…, of letters, digits, ".", "_", "~", "-"')
    .refine(
      (path) => !path.split('/').some((segment) => segment === '.' || segment === '..'),
      'must not hold "." or ".." segments',
    )
    .optional()
    .describe(
      "The provider's route that creates a crypto withdrawal (POST, Bearer JWT); unset: the crypto rail is off",
    ),
  PIX_COPY_PASTE_REQUEST_FIELDS: pixCopyPasteFieldNamesSchema
    .default(DEFAULT_PIX_COPY_PASTE_FIELDS)
    .describe(
      "Endpoint 5's request field names, emv=<name>,amount=<name>,externalId=<name>,callbackUrl=<name>[,description=<name>]",
    ),
  CASH_IN_DEPOSIT_AUTH: z
    .enum(['bearer', 'client-headers'])
    .default('bearer')
    .describe(
      'Cash-in, with `CASH_IN_ENDPOINT=deposit`: the credentials endpoint 6 takes: `bearer` (the JWT of endpoint 1) or `client-headers` (`ci`/`cs`)',
    ),
  INFRACTION_ANALISE_VALUES: analysisWordsSchema
    .default(DEFAULT_ANALYSIS_WORDS)
    .describe(
      'MED: the provider’s `analise` words for a defense that agrees and one that contests, `<agrees>,<contests>` (the sandbox plays a provider with these)',
    ),
  CASH_IN_LATE_PAYMENT_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(86_400_000)
    .describe('Cash-in: after a charge is `EXPIRED`, how long a payment the provider confirms still makes it `PAID`'),
  CASH_IN_REFUND_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(90 * 86_400_000)
    .describe(
      'Cash-in: how long a paid charge listens for accepted MED infractions before its workflow closes (claims are opened up to 80 days after a PIX)',
    ),
  BATCH_WINDOW: z.coerce
    .number()
    .int()
    .min(1)
    .max(2_000)
    .default(200)
    .describe('Batches: payouts of one batch in flight at most'),
  BATCH_RATE_PER_SECOND: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Batches: most payouts one batch starts a second; unset: no cap but the window'),
  BATCH_EAGER_START: z
    .stringbool()
    .default(false)
    .describe(
      "Batches: a payout's first workflow task comes back in its start's answer, to the batch's worker (15 % fewer server store operations), which then keeps the batch's payouts while it has a free slot: for one-worker deployments",
    ),
  BATCH_PAGE_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(200)
    .describe('Batches: most payouts one step of the batch workflow starts (its local activity)'),
  BATCH_POLL_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(500)
    .describe('Batches: how often a batch re-reads its counts while its window is full'),
  BATCH_MAX_HISTORY_EVENTS: z.coerce
    .number()
    .int()
    .min(100)
    .max(40_000)
    .default(5_000)
    .describe('Batches: a batch workflow continues as new past this many history events (Temporal warns at 10,000)'),
  BATCH_PROBLEM_AFTER_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(300_000)
    .describe(
      'Batches: a batch activity failing this long (a corrupt sealed row, a full disk) makes the batch `STALLED` with its `problem` shown; it is tried again with backoff',
    ),
  MED_SYNC_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(300_000)
    .describe('MED: how often the Schedule reads the provider’s infractions'),
  MED_SYNC_PAGE_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(100)
    .describe(
      'MED: infractions asked per page (the provider may give fewer: pages are read until one is empty or short)',
    ),
  MED_LIST_ENVELOPE: z
    .string()
    .regex(PROVIDER_FIELD_PATH, 'a field name, or names joined by dots (data.items)')
    .optional()
    .describe('The field of endpoint 7’s answer that holds the infractions; unset: the one array in the answer'),
  MED_RECORD_FIELDS: medRecordFieldsSchema
    .default(DEFAULT_MED_RECORD_FIELDS)
    .describe(
      'id=<name>,transactionId=<name>,status=<name>,amount=<name>,createdAt=<name>,defenseDeadline=<name>,...: the provider’s names where they differ (a|b: either)',
    ),
  // Not shown by the spec but the card's: src/payment-api/schemas/callback-fields.ts.
  WITHDRAWAL_CALLBACK_FIELDS: callbackFieldsSetting('withdrawals')
    .default(DEFAULT_CALLBACK_FIELDS.withdrawals)
    .describe(
      'externalId=<name>,transactionId=<name>,status=<name>,reason=<name>: the provider’s names where they differ (a|b: either)',
    ),
  PIX_COPY_PASTE_CALLBACK_FIELDS: callbackFieldsSetting('pix-copy-paste')
    .default(DEFAULT_CALLBACK_FIELDS['pix-copy-paste'])
    .describe(
      'externalId=<name>,transactionId=<name>,status=<name>,reason=<name>: the provider’s names where they differ (a|b: either)',
    ),
  CRYPTO_CALLBACK_FIELDS: callbackFieldsSetting('crypto')
    .default(DEFAULT_CALLBACK_FIELDS.crypto)
    .describe(
      'externalId=<name>,transactionId=<name>,status=<name>,reason=<name>: the provider’s names where they differ (a|b: either)',
    ),
  CASH_IN_CALLBACK_FIELDS: callbackFieldsSetting('cash-in')
    .default(DEFAULT_CALLBACK_FIELDS['cash-in'])
    .describe('transactionId=<name>,status=<name>,paidAt=<name>: the provider’s names where they differ (a|b: either)'),
  CARD_CALLBACK_FIELDS: callbackFieldsSetting('card')
    .default(DEFAULT_CALLBACK_FIELDS.card)
    .describe('externalReference=<name>,id=<name>,status=<name>: the provider’s names where they differ (a|b: either)'),
  MED_SYNC_SCHEDULE_ID: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'letters, digits, dot, dash, colon, underscore')
    .default('med-sync')
    .describe('MED: the id of the sync Schedule (two deployments on one namespace need two)'),
  INFRACTION_DUE_SOON_LEAD_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(86_400_000)
    .describe(
      'How long before the defense deadline an infraction becomes DUE_SOON and infraction.due_soon is sent (once); infractions started before keep theirs',
    ),
  WORKFLOW_BUNDLE_PATH: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A prebuilt workflow bundle (`npm run build:workflows`; with tracing on, its traced twin `*.traced.js` beside it); unset: bundled at worker start-up',
    ),
  WORKER_MAX_CACHED_WORKFLOWS: z.coerce
    .number()
    .int()
    .min(2)
    .max(100_000)
    .default(1_000)
    .describe(
      'Workflows a worker keeps in memory between their tasks (sticky cache); an evicted one is replayed on its next task. More costs memory, fewer costs CPU',
    ),
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: z.coerce
    .number()
    .int()
    .min(2)
    .max(1_000)
    .default(40)
    .describe('Workflow tasks a worker holds at once (its slots); an eager start (BATCH_EAGER_START) takes a free one'),
  WORKER_DEPLOYMENT_NAME: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Worker Versioning’s deployment, with `WORKER_BUILD_ID` ([deploying a new build](operations.md#deploying-a-new-build)); unset: unversioned',
    ),
  WORKER_BUILD_ID: z
    .string()
    .min(1)
    .optional()
    .describe('This build’s id in `WORKER_DEPLOYMENT_NAME`; the two go together'),
  CARD_CHECKOUT_TTL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(1_800_000)
    .describe('Card payments: how long a checkout link takes a card; then `EXPIRED`'),
  CARD_AUTHORIZE_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(120_000)
    .describe('Card payments: how long the workflow waits to hear endpoint 2’s answer before `NEEDS_REVIEW`'),
  CHECKOUT_TOKEN_SECRET: z
    .string()
    .min(16)
    .optional()
    .describe(
      'Signs checkout links (HMAC-SHA256); unset: derived from the first API key outside production. Required (24 characters or more) in production, so that rotating API keys does not void open checkout links',
    ),
  PAYMENT_BROWSER_BASE_URL: url
    .optional()
    .describe(
      'The provider as the buyer’s browser reaches it (`shield.js`); unset: `PAYMENT_API_BASE_URL`. https in production',
    ),
  PAYMENT_SHIELD_SCRIPT_URL: url
    .optional()
    .describe(
      'The spec’s `{shield_script_url}`; unset: the sandbox’s `/shield/shield.js` under `PAYMENT_BROWSER_BASE_URL`. https in production',
    ),
  PAYMENT_SHIELD_SETTINGS_URL: url
    .optional()
    .describe(
      'The spec’s `{shield_settings_url}`; unset: the sandbox’s `/shield/settings` under `PAYMENT_BROWSER_BASE_URL`. https in production',
    ),
  PAYMENT_SHIELD_PUBLIC_KEY: z
    .string()
    .min(1)
    // PEM text is checked here, at start-up; a file is read when first needed (`SANDBOX_PROFILE=seed npm start` writes it as the stack starts).
    .refine(
      (value) => !value.trimStart().startsWith('-----BEGIN') || isPublicKeyPem(value),
      'is PEM text but not a public key (SPKI, -----BEGIN PUBLIC KEY-----)',
    )
    .refine(
      (value) =>
        value.trimStart().startsWith('-----BEGIN') ||
        value.startsWith('file:') ||
        path.isAbsolute(value) ||
        !/\s/.test(value.trim()),
      'is neither PEM text nor a file (file:<path>), so it must be the key on one line',
    )
    .optional()
    .describe(
      'The spec’s `<PUBLIC_KEY>`, passed to the security module as it is: one line (`pk_live_…`), PEM, or `file:<path>` (unreadable: the checkout answers 503); unset: the sandbox’s `GET /shield/public-key`',
    ),
  PAYMENT_SHIELD_STEP_ORDER: z
    .enum(['encrypt-first', 'spec'])
    .default('spec')
    .describe(
      'The spec’s browser steps: `spec`, 5 (`prepareThreeDS`) then 6 (`module.encrypt`); `encrypt-first`, 6 then 5 given the card token',
    ),
  PAYMENT_SHIELD_ARGUMENTS: z
    .enum(['object', 'positional'])
    .default('object')
    .describe(
      "How the checkout passes the spec's arguments to prepareThreeDS and module.encrypt (not shown): `object`, one object ({amount, installments, currency}; {number, holderName, expMonth, expYear, cvv}); `positional`, one by one in that order",
    ),
  PAYMENT_SHIELD_SCRIPT_INTEGRITY: z
    .string()
    .regex(
      /^sha(256|384|512)-[A-Za-z0-9+/]{43,86}={0,2}( sha(256|384|512)-[A-Za-z0-9+/]{43,86}={0,2})*$/,
      'sha256-, sha384- or sha512- followed by the base64 hash, space-separated',
    )
    .optional()
    .describe(
      'Subresource Integrity of the provider’s `shield.js`, `sha384-<base64>` (space-separated while it changes; PCI DSS 4.0 6.4.3). Required in production; `curl -s <shield_script_url> | openssl dgst -sha384 -binary | openssl base64 -A`',
    ),
  CHECKOUT_PUBLIC_URL: url
    .optional()
    .describe(
      'The engine as the buyer’s browser reaches it, the base of `checkoutUrl`, when the provider reaches the engine by another name; unset: `ENGINE_PUBLIC_URL`. https in production',
    ),
  MERCHANT_WEBHOOK_RETRY_INITIAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(30_000)
    .describe(
      'Merchant webhooks: the first wait after a failed delivery, doubling up to `MERCHANT_WEBHOOK_RETRY_MAX_MS`',
    ),
  MERCHANT_WEBHOOK_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(3_600_000)
    .describe('Merchant webhooks: the longest wait between deliveries'),
  MERCHANT_WEBHOOK_RETRY_FOR_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(3 * 86_400_000)
    .describe(
      'Merchant webhooks: how long an endpoint is retried before its delivery is `FAILED`; at least 24 h in production',
    ),
  MERCHANT_WEBHOOK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(10_000)
    .describe('Merchant webhooks: how long one delivery waits for the endpoint’s answer'),
  MERCHANT_WEBHOOK_TASK_QUEUE: z
    .string()
    .min(1)
    .optional()
    .describe('Merchant webhooks: task queue of the delivery POSTs; unset: `<TEMPORAL_TASK_QUEUE>-webhooks`'),
  MERCHANT_WEBHOOK_MAX_CONCURRENT_DELIVERIES: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(50)
    .describe('Merchant webhooks: deliveries one worker process runs at once'),
  WEBHOOK_ALLOW_LOOPBACK: z
    .stringbool()
    .default(false)
    .describe(
      'Merchant webhooks: endpoints on this machine (127.0.0.0/8, `::1`, `localhost`) may be registered and called; `npm start` sets it `true`; refused in production',
    ),
  MERCHANT_WEBHOOK_SECRET_OVERLAP_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400_000)
    .default(86_400_000)
    .describe('Merchant webhooks: after a secret rotation, how long the old secret keeps signing next to the new one'),
  LOG_LEVEL: z
    .enum(['debug', 'info', 'warn', 'error'])
    .default('info')
    .describe('Least level logged: `debug`, `info`, `warn`, `error`'),
  WORKER_METRICS_PORT: port
    .default(9464)
    .describe('The worker’s `GET /metrics` (engine metrics plus the Temporal SDK’s)'),
  WORKER_METRICS_HOST: z
    .string()
    .regex(/^[\w.:-]+$/, 'an IP address or a host name')
    .default('127.0.0.1')
    .describe('Interface of the worker’s `/metrics` (containers set `0.0.0.0` so Prometheus reaches it)'),
  WORKER_SDK_METRICS_PORT: port
    .default(9465)
    .describe('Loopback port of the Temporal SDK’s own exporter, which the worker’s `/metrics` reads and appends'),
  METRICS_PORT: port.default(9463).describe('The engine API’s `GET /metrics`, on a port of its own, never the API’s'),
  METRICS_HOST: z
    .string()
    .regex(/^[\w.:-]+$/, 'an IP address or a host name')
    .default('127.0.0.1')
    .describe('Interface of the API’s `/metrics` (containers set `0.0.0.0`)'),
  ACTIVITY_PROBLEM_AFTER_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(60_000)
    .describe(
      'An activity failing this long (from its first attempt) shows as `problem` in its operation’s view and sets the `ActivityProblemSince` search attribute until it ends',
    ),
  METRICS_REVIEW_QUEUE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(30_000)
    .describe(
      'How often the API counts the payouts in `NEEDS_REVIEW` (a visibility query) for `payout_engine_payouts_needs_review`',
    ),
  /** The standard OpenTelemetry variables that turn tracing on (src/telemetry/tracing.ts); the SDK reads them, checked here. */
  OTEL_EXPORTER_OTLP_ENDPOINT: url
    .optional()
    .describe(
      'Traces by OTLP/HTTP to this collector (the SDK posts to <endpoint>/v1/traces); unset: no tracing. Production: https, or loopback, or OTLP_PLAINTEXT_HOST',
    ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url
    .optional()
    .describe('Traces by OTLP/HTTP to this very URL, over OTEL_EXPORTER_OTLP_ENDPOINT; the same production rule'),
  OTLP_PLAINTEXT_HOST: z
    .string()
    .regex(/^[\w.-]+$/, 'a host name or an IPv4 address')
    .optional()
    .describe(
      "Production: the one collector host reached over http:// (a private network only the engine's services share); unset: https or loopback only",
    ),
});

export type EnvInput = z.input<typeof envSchema>;

const configRules = envSchema.superRefine((env, ctx) => {
  const previousIds = (env.PAYLOAD_ENCRYPTION_PREVIOUS_KEYS ?? []).map((entry) => entry.slice(0, entry.indexOf(':')));
  if (new Set([env.PAYLOAD_ENCRYPTION_KEY_ID, ...previousIds]).size !== previousIds.length + 1) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYLOAD_ENCRYPTION_PREVIOUS_KEYS'],
      message: 'every key id must differ from the others and from PAYLOAD_ENCRYPTION_KEY_ID',
    });
  }
  if ((env.TEMPORAL_TLS_CERT === undefined) !== (env.TEMPORAL_TLS_KEY === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['TEMPORAL_TLS_CERT'],
      message: 'TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together',
    });
  }
  if ((env.WORKER_DEPLOYMENT_NAME === undefined) !== (env.WORKER_BUILD_ID === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [env.WORKER_BUILD_ID === undefined ? 'WORKER_BUILD_ID' : 'WORKER_DEPLOYMENT_NAME'],
      message: 'WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID go together',
    });
  }
  if (env.DATABASE_URL !== undefined && env.BATCH_STORE_URL !== undefined && env.DATABASE_URL !== env.BATCH_STORE_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['BATCH_STORE_URL'],
      message: 'is the former name of DATABASE_URL: set DATABASE_URL only',
    });
  }
  if (env.ENGINE_API_KEYS !== undefined && env.ENGINE_API_KEYS_FILE !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['ENGINE_API_KEYS_FILE'],
      message: 'and ENGINE_API_KEYS both give the API keys: set one of them',
    });
  }
  if (env.NODE_ENV !== 'production') return;
  if (env.WEBHOOK_ALLOW_LOOPBACK) {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOW_LOOPBACK'],
      message: 'loopback webhook endpoints are refused when NODE_ENV=production',
    });
  }
  if (env.MERCHANT_WEBHOOK_RETRY_FOR_MS < 86_400_000) {
    ctx.addIssue({
      code: 'custom',
      path: ['MERCHANT_WEBHOOK_RETRY_FOR_MS'],
      message: 'merchants are promised at least 24 h of retries when NODE_ENV=production',
    });
  }
  const tooShort = (
    name:
      | 'ENGINE_API_KEYS'
      | 'ENGINE_API_KEYS_FILE'
      | 'WEBHOOK_SECRET'
      | 'CODEC_TOKEN'
      | 'CHECKOUT_TOKEN_SECRET'
      | 'SANDBOX_ADMIN_TOKEN',
    values: readonly string[],
  ): void => {
    if (values.some((value) => value.length < MIN_SECRET_LENGTH)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `each value must be at least ${MIN_SECRET_LENGTH} characters when NODE_ENV=production`,
      });
    }
  };
  const apiKeys = configuredApiKeys(env);
  const apiKeySecrets = apiKeys.keys.map((key) => key.secret);
  tooShort(apiKeys.variable, apiKeySecrets);
  tooShort('WEBHOOK_SECRET', env.WEBHOOK_SECRET);
  tooShort('CODEC_TOKEN', env.CODEC_TOKEN === undefined ? [] : [env.CODEC_TOKEN]);
  tooShort('CHECKOUT_TOKEN_SECRET', env.CHECKOUT_TOKEN_SECRET === undefined ? [] : [env.CHECKOUT_TOKEN_SECRET]);
  tooShort('SANDBOX_ADMIN_TOKEN', env.SANDBOX_ADMIN_TOKEN === undefined ? [] : [env.SANDBOX_ADMIN_TOKEN]);
  // No local default where a real deployment must say: the provider, where it calls back, the checkout links' key.
  for (const name of ['PAYMENT_API_BASE_URL', 'ENGINE_PUBLIC_URL', 'CHECKOUT_TOKEN_SECRET'] as const) {
    if (env[name] === undefined)
      ctx.addIssue({ code: 'custom', path: [name], message: 'is required when NODE_ENV=production' });
  }
  // Whatever crosses a network in production does it over TLS: calls to the provider, the provider's callbacks, the buyer's browser.
  for (const name of [
    'PAYMENT_API_BASE_URL',
    'PAYMENT_BROWSER_BASE_URL',
    'PAYMENT_SHIELD_SCRIPT_URL',
    'PAYMENT_SHIELD_SETTINGS_URL',
    'CHECKOUT_PUBLIC_URL',
    'ENGINE_PUBLIC_URL',
  ] as const) {
    if (env[name]?.startsWith('http:'))
      ctx.addIssue({ code: 'custom', path: [name], message: 'must be https when NODE_ENV=production' });
  }
  if (
    env.PAYLOAD_ENCRYPTION_KEY &&
    new Set(Buffer.from(env.PAYLOAD_ENCRYPTION_KEY, 'base64')).size < MIN_DISTINCT_KEY_BYTES
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYLOAD_ENCRYPTION_KEY'],
      message: 'is not 32 random bytes (too few distinct byte values): generate one with `openssl rand -base64 32`',
    });
  }
  const demo = (name: keyof typeof DEMO_VALUES, values: readonly string[]): void => {
    if (values.includes(DEMO_VALUES[name])) {
      ctx.addIssue({ code: 'custom', path: [name], message: 'the demo value is refused when NODE_ENV=production' });
    }
  };
  if (apiKeySecrets.includes(DEMO_VALUES.ENGINE_API_KEYS)) {
    ctx.addIssue({
      code: 'custom',
      path: [apiKeys.variable],
      message: 'the demo value is refused when NODE_ENV=production',
    });
  }
  demo('PAYMENT_API_CLIENT_ID', [env.PAYMENT_API_CLIENT_ID]);
  demo('PAYMENT_API_CLIENT_SECRET', [env.PAYMENT_API_CLIENT_SECRET]);
  demo('WEBHOOK_SECRET', env.WEBHOOK_SECRET);
  demo('SANDBOX_ADMIN_TOKEN', env.SANDBOX_ADMIN_TOKEN === undefined ? [] : [env.SANDBOX_ADMIN_TOKEN]);
  if (!env.PAYLOAD_ENCRYPTION_KEY || !env.PAYLOAD_ENCRYPTION_KEY_ID) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYLOAD_ENCRYPTION_KEY'],
      message: 'PAYLOAD_ENCRYPTION_KEY and PAYLOAD_ENCRYPTION_KEY_ID are required when NODE_ENV=production',
    });
  }
});

/**
 * Production refusals for how the engine is reached and what it believes: callbacks taken unverified, a
 * TRUST_PROXY that trusts a share of the internet, Temporal's frontend reached in clear beyond this
 * machine, a plain-HTTP page allowed to read decoded payloads, and spans sent in clear beyond this machine.
 * Each names its variable.
 */
function refuseOpenDoors(env: z.output<typeof envSchema>, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV !== 'production') return;
  if (env.PROVIDER_CALLBACK_SIGNATURES === 'off') {
    ctx.addIssue({
      code: 'custom',
      path: ['PROVIDER_CALLBACK_SIGNATURES'],
      message:
        'off (no callback verified) is refused when NODE_ENV=production: required, or optional while the provider signs none',
    });
  }
  for (const entry of env.TRUST_PROXY ?? []) {
    const refusal = trustedProxyRefusal(entry);
    if (refusal)
      ctx.addIssue({ code: 'custom', path: ['TRUST_PROXY'], message: `${refusal} (refused when NODE_ENV=production)` });
  }
  const temporalHost = env.TEMPORAL_ADDRESS.slice(0, env.TEMPORAL_ADDRESS.lastIndexOf(':'));
  const temporalTls =
    env.TEMPORAL_TLS_CA !== undefined ||
    env.TEMPORAL_TLS_CERT !== undefined ||
    env.TEMPORAL_TLS_SERVER_NAME !== undefined;
  if (!temporalTls && !env.TEMPORAL_ALLOW_PLAINTEXT && !isLoopbackHost(temporalHost)) {
    ctx.addIssue({
      code: 'custom',
      path: ['TEMPORAL_ADDRESS'],
      message: `${env.TEMPORAL_ADDRESS} is beyond this machine and reached without TLS when NODE_ENV=production: set TEMPORAL_TLS_CA (with TEMPORAL_TLS_CERT and _KEY for mutual TLS), or TEMPORAL_ALLOW_PLAINTEXT=true on a network only the engine's services share`,
    });
  }
  // PCI DSS 4.0 6.4.3: the one third-party script on the payment page runs only as the hash the operator authorised.
  if (env.PAYMENT_SHIELD_SCRIPT_INTEGRITY === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYMENT_SHIELD_SCRIPT_INTEGRITY'],
      message:
        "is required when NODE_ENV=production (PCI DSS 6.4.3): the Subresource Integrity hash of the provider's shield.js, sha384-<base64> (docs/card-payments.md says how to take it)",
    });
  }
  for (const origin of env.CODEC_CORS_ORIGINS ?? []) {
    if (origin.startsWith('http:'))
      ctx.addIssue({
        code: 'custom',
        path: ['CODEC_CORS_ORIGINS'],
        message: `${origin} must be https when NODE_ENV=production (a page served in clear would read decoded payloads)`,
      });
  }
  // Spans name routes, workflows and business ids, and OTEL_EXPORTER_OTLP_HEADERS may hold the collector's credential.
  // Loopback stays on this machine (a collector sidecar in the same pod or host): TLS there would protect nothing.
  for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] as const) {
    const endpoint = env[name];
    if (endpoint === undefined || !endpoint.startsWith('http:')) continue;
    const { hostname } = new URL(endpoint);
    if (isLoopbackHost(hostname) || hostname === env.OTLP_PLAINTEXT_HOST?.toLowerCase()) continue;
    ctx.addIssue({
      code: 'custom',
      path: [name],
      message: `${endpoint} sends spans in clear beyond this machine when NODE_ENV=production: an https collector, one on loopback, or OTLP_PLAINTEXT_HOST=${hostname} on a network only the engine's services share`,
    });
  }
}

const deploymentRules = configRules.superRefine(refuseOpenDoors);

/**
 * Which process reads the configuration: the engine API (and every tool) with every rule, or a worker,
 * which reads none of the API's own credentials (its keys, the checkout links' key, the codec token) nor the
 * checkout page's script hash: a worker is given none of them, and ignores them when it is.
 */
export type ConfigReader = 'api' | 'worker';
const API_ONLY_VARIABLES: ReadonlySet<string> = new Set([
  'ENGINE_API_KEYS',
  'CHECKOUT_TOKEN_SECRET',
  'CODEC_TOKEN',
  'ENGINE_API_KEYS_FILE',
  'PAYMENT_SHIELD_SCRIPT_INTEGRITY',
]);

export type Config = ReturnType<typeof toConfig>;

function toConfig({ BATCH_STORE_URL, ENGINE_API_KEYS_FILE, ...env }: z.output<typeof envSchema>) {
  const dataDir = path.resolve(env.DATA_DIR);
  const production = env.NODE_ENV === 'production';
  return {
    ...env,
    // Whichever variable gave them: a child process given this config gets them as ENGINE_API_KEYS (api-keys.ts, apiKeysText).
    ENGINE_API_KEYS: configuredApiKeys({ ENGINE_API_KEYS: env.ENGINE_API_KEYS, ENGINE_API_KEYS_FILE }).keys,
    DATA_DIR: dataDir,
    DATABASE_URL: env.DATABASE_URL ?? BATCH_STORE_URL,
    // Production has both (the rules above). Locally, a URL derived from a port follows that port unless it
    // is set itself: moving the sandbox moves the engine's provider.
    PAYMENT_API_BASE_URL: env.PAYMENT_API_BASE_URL ?? `http://127.0.0.1:${env.SANDBOX_PORT}`,
    ENGINE_PUBLIC_URL: env.ENGINE_PUBLIC_URL ?? `http://127.0.0.1:${env.ENGINE_PORT}`,
    // Derived from the engine's queue: two deployments on one namespace keep their deliveries apart too.
    MERCHANT_WEBHOOK_TASK_QUEUE: env.MERCHANT_WEBHOOK_TASK_QUEUE ?? `${env.TEMPORAL_TASK_QUEUE}-webhooks`,
    // In production an unset token is one nobody knows: the sandbox's admin API stays closed.
    SANDBOX_ADMIN_TOKEN:
      env.SANDBOX_ADMIN_TOKEN ?? (production ? randomBytes(32).toString('base64url') : DEMO_VALUES.SANDBOX_ADMIN_TOKEN),
    // Production allows no browser origin unless told (the Temporal UI's, https): the local dev UI's otherwise.
    CODEC_CORS_ORIGINS:
      env.CODEC_CORS_ORIGINS ??
      (production ? [] : [`http://localhost:${env.TEMPORAL_UI_PORT}`, `http://127.0.0.1:${env.TEMPORAL_UI_PORT}`]),
  };
}

export class ConfigError extends Error {
  constructor(readonly issues: readonly { variable: string; message: string }[]) {
    super('Invalid configuration:\n' + issues.map((issue) => `  ${issue.variable}: ${issue.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

/**
 * Parses an environment (process.env by default); empty strings count as unset. A worker's ignores the
 * API's own credentials, so production asks it for none of them (their values in its Config are unused).
 */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  reader: ConfigReader = 'api',
): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((key) => reader === 'api' || !API_ONLY_VARIABLES.has(key))
      .map((key) => [key, source[key]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = deploymentRules.safeParse(present);
  const issues = (parsed.error?.issues ?? []).filter(
    (issue) => reader === 'api' || !API_ONLY_VARIABLES.has(String(issue.path[0])),
  );
  if (issues.length > 0) {
    throw new ConfigError(
      issues.map((issue) => ({ variable: issue.path.join('.') || '(environment)', message: issue.message })),
    );
  }
  // Only a worker gets here with issues, all about credentials it does not read: the schema alone gives its values.
  return toConfig(parsed.data ?? envSchema.parse(present));
}

/** Variables still read under a former name: the entry points log one line each, so deployments rename them. */
export function deprecatedVariables(
  source: Record<string, string | undefined> = process.env,
): { variable: string; replacedBy: string }[] {
  return source.BATCH_STORE_URL ? [{ variable: 'BATCH_STORE_URL', replacedBy: 'DATABASE_URL' }] : [];
}

/** For entry points: load or exit(1) with the message, never a stack trace. */
export function loadConfigOrExit(reader: ConfigReader = 'api'): Config {
  try {
    return loadConfig(process.env, reader);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(error.message + '\n');
      process.exit(1);
    }
    throw error;
  }
}
