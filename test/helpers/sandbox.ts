/**
 * A sandbox on a free port with a movable clock (for the rules that run on time: cash-in expiry,
 * infraction deadlines), typed HTTP calls with each credential scheme, a ledger-wide balance check,
 * and a callback receiver.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../../src/config/env';
import { createLogger } from '../../src/logging/logger';
import {
  verifyWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/payment-api/webhook-signature';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { pollUntil } from '../../src/util/poll';
import { httpCall, type HttpAnswer } from './http';
import { standIn, startedForThisFile } from './for-this-file';

export const MERCHANT = { clientId: 'merchant-client', clientSecret: 'merchant-secret' };
export const RECIPIENT = { clientId: 'recipient-client', clientSecret: 'recipient-secret' };
export const ADMIN_TOKEN = 'test-admin-token';
export const WEBHOOK_SECRETS = ['current-webhook-secret', 'previous-webhook-secret'];
export const SEEDED_TOTAL_CENTS = 100_000_000;

export function sandboxConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    PAYMENT_API_CLIENT_ID: MERCHANT.clientId,
    PAYMENT_API_CLIENT_SECRET: MERCHANT.clientSecret,
    SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
    WEBHOOK_SECRET: WEBHOOK_SECRETS.join(','),
    SANDBOX_SETTLE_MS: '150',
    SANDBOX_CALLBACK_RETRY_BASE_MS: '50',
    SANDBOX_CALLBACK_MAX_ATTEMPTS: '3',
    LOG_LEVEL: 'error',
    ...overrides,
  });
}

export type Answer<T = Record<string, unknown>> = HttpAnswer<T>;

export const merchantHeaders = { ci: MERCHANT.clientId, cs: MERCHANT.clientSecret };

export type Credentials = { bearer: string } | { ci: string; cs: string } | { admin: string } | Record<string, never>;

export interface TestSandbox {
  sandbox: Sandbox;
  config: Config;
  url: string;
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; auth?: Credentials; headers?: Record<string, string> },
  ): Promise<Answer<T>>;
  login(credentials?: { clientId: string; clientSecret: string }): Promise<string>;
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<Answer<T>>;
  balance(userId: string): number;
  /** Waits until no settlement job is due and no callback is waiting, so faults set next apply to new work only. */
  quiesce(): Promise<void>;
  /** Moves the sandbox clock forward and runs what became due. */
  advanceClock(ms: number): void;
  /** Every ledger entry balances and all accounts together sum to zero. */
  ledgerBalances(): boolean;
  stop(): Promise<void>;
}

export async function startTestSandbox(
  options: {
    overrides?: Record<string, string>;
    dbPath?: string;
    now?: () => number;
    sandbox?: Partial<SandboxOptions>;
  } = {},
): Promise<TestSandbox> {
  const config = sandboxConfig(options.overrides);
  let offsetMs = 0;
  const clock = options.now ?? Date.now;
  const sandbox = createSandbox({
    config,
    dbPath: options.dbPath ?? ':memory:',
    logger: createLogger({ test: 'sandbox' }, 'error'),
    now: () => clock() + offsetMs,
    // Jobs come due to the clock: a short tick lets a moved clock take effect at once.
    tickMs: 20,
    ...options.sandbox,
  });
  const { url } = await sandbox.start(0, '127.0.0.1');
  const call: TestSandbox['call'] = (method, path, init = {}) => {
    const auth = init.auth ?? {};
    const headers: Record<string, string> = { ...init.headers };
    if ('bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`;
    if ('admin' in auth) headers.authorization = `Bearer ${auth.admin}`;
    if ('ci' in auth) Object.assign(headers, { ci: auth.ci, cs: auth.cs });
    return httpCall(url + path, {
      method,
      headers,
      ...(init.rawBody !== undefined ? { rawBody: init.rawBody } : init.body !== undefined ? { body: init.body } : {}),
    });
  };
  return {
    sandbox,
    config,
    url,
    call,
    async login(credentials = MERCHANT) {
      const answer = await call<{ token: string }>('POST', '/api/auth/login', {
        body: { client_id: credentials.clientId, client_secret: credentials.clientSecret },
      });
      if (answer.status !== 200) throw new Error(`login failed: ${answer.status}`);
      return answer.body.token;
    },
    admin: (method, path, body) =>
      call(method, path, { auth: { admin: ADMIN_TOKEN }, ...(body !== undefined ? { body } : {}) }),
    balance: (userId) => sandbox.ledger.balance(`user:${userId}`),
    async quiesce() {
      const busy = sandbox.ctx.db.prepare<[], { n: number }>(
        "SELECT (SELECT COUNT(*) FROM jobs WHERE status = 'pending') + (SELECT COUNT(*) FROM callbacks WHERE status IN ('pending', 'held')) AS n",
      );
      await pollUntil(() => (busy.get()?.n === 0 ? true : undefined), {
        timeoutMs: 10_000,
        intervalMs: 20,
        description: 'the sandbox to be idle',
      });
    },
    advanceClock(ms) {
      offsetMs += ms;
      sandbox.tick();
    },
    ledgerBalances() {
      const entries = sandbox.ledger.entries({});
      const each = entries.every((entry) => entry.lines.reduce((sum, line) => sum + line.amountCents, 0) === 0);
      const total = sandbox.ledger.balances().reduce((sum, row) => sum + row.balanceCents, 0);
      return each && total === 0 && entries.length > 0;
    },
    stop: () => sandbox.stop(),
  };
}

export interface ReceivedCallback {
  id: string;
  path: string;
  rawBody: Buffer;
  payload: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  verified: boolean;
}

export interface CallbackReceiver {
  url: string;
  received: ReceivedCallback[];
  /** Answer this status to the next callbacks (default 200). */
  respondWith(status: number): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedCallback[]>;
  close(): Promise<void>;
}

/** A plain node:http server that records each callback and verifies its signature over the raw bytes. */
export async function startCallbackReceiver(
  secrets: readonly string[] = [WEBHOOK_SECRETS[0]!],
): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const verification = verifyWebhook({
        secrets,
        rawBody,
        timestampHeader: req.headers[WEBHOOK_TIMESTAMP_HEADER.toLowerCase()],
        signatureHeader: req.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()],
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      received.push({
        id: String(req.headers[WEBHOOK_ID_HEADER.toLowerCase()]),
        path: req.url ?? '',
        rawBody,
        payload: JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>,
        headers: req.headers,
        verified: verification.ok,
      });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    received,
    respondWith: (next) => {
      status = next;
    },
    waitFor: (count, timeoutMs = 10_000) =>
      pollUntil(() => (received.length >= count ? received.slice() : undefined), {
        timeoutMs,
        intervalMs: 20,
        description: `${count} callback(s)`,
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The callbacks the receiver got whose body names `externalId` (`external_id`). */
export const callbacksNaming = (receiver: CallbackReceiver, externalId: string): ReceivedCallback[] =>
  receiver.received.filter((callback) => callback.payload.external_id === externalId);

/** The first callback naming `externalId`, waited for up to 10 s. */
export const firstCallbackNaming = (receiver: CallbackReceiver, externalId: string): Promise<ReceivedCallback> =>
  pollUntil(() => callbacksNaming(receiver, externalId)[0], {
    timeoutMs: 10_000,
    intervalMs: 20,
    description: `callback of ${externalId}`,
  });

export function withdrawalBody(externalId: string, callbackUrl: string, overrides: Record<string, unknown> = {}) {
  return {
    amount: 25,
    external_id: externalId,
    pix_key: '52998224725',
    key_type: 'CPF',
    clientCallbackUrl: callbackUrl,
    ...overrides,
  };
}

export const TRON_WALLET = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

/** A crypto withdrawal's request body: R$ 100 in USDT to a TRON wallet, unless `overrides` say otherwise. */
export function cryptoWithdrawalBody(externalId: string, callbackUrl: string, overrides: Record<string, unknown> = {}) {
  return {
    amount: 100,
    wallet: TRON_WALLET,
    network: 'TRC20',
    external_id: externalId,
    clientCallbackUrl: callbackUrl,
    ...overrides,
  };
}

/** The merchant's PIX withdrawal (endpoint 4) of `withdrawalBody(externalId, callbackUrl)`, under its bearer token. */
export const withdrawPix = (sandbox: TestSandbox, bearer: string, externalId: string, callbackUrl: string) =>
  sandbox.call('POST', '/api/withdrawals/withdraw', {
    body: withdrawalBody(externalId, callbackUrl),
    auth: { bearer },
  });

let counter = 0;
export const uniqueId = (label: string): string => `${label}-${Date.now().toString(36)}-${(counter += 1)}`;

/** The sandbox's refusal: its code, its words, and the fields it names. */
export interface RefusalBody {
  code: string;
  message: string;
  issues: { path: string; message: string }[];
}

/** The fields tests read from sandbox answers, loosely typed: the assertions are the real check. */
export interface ResponseBody extends RefusalBody {
  transactionId: string;
  transaction: { transactionId: string; transactionState: string; [field: string]: unknown };
  withdrawal: Record<string, unknown>;
  payment: { amount: number; [field: string]: unknown };
  data: { transactionId: string; [field: string]: unknown };
  operation: Record<string, unknown>;
  faults: { timeoutAfterCommit: { count: number } };
}

export interface SandboxForThisFile {
  sandbox: TestSandbox;
  /** Where the sandbox's callbacks are sent (`withdrawalBody(id, receiver.url)`). */
  receiver: CallbackReceiver;
  /** The merchant's bearer token, from one login when the sandbox started. */
  token: () => string;
}

/** A sandbox over HTTP for the file's tests, a receiver of its callbacks, and the merchant logged in. */
export function sandboxForThisFile(options: Parameters<typeof startTestSandbox>[0] = {}): SandboxForThisFile {
  const started = startedForThisFile(
    async () => {
      const sandbox = await startTestSandbox(options);
      const receiver = await startCallbackReceiver();
      return { sandbox, receiver, token: await sandbox.login() };
    },
    async ({ sandbox, receiver }) => {
      await sandbox.stop();
      await receiver.close();
    },
  );
  return {
    sandbox: standIn(() => started.sandbox),
    receiver: standIn(() => started.receiver),
    token: () => started.token,
  };
}
