/**
 * API key scopes through the running API. Every operation the served OpenAPI document puts behind an API key is
 * called with a key of each scope: the key of the scope the operation names gets past the check (whatever the
 * operation then answers to an empty request), every other key gets 403 INSUFFICIENT_SCOPE naming that scope.
 * Keys written without scopes (`secret`, `name:secret`) get the documented default; the codec asks for `codec`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Router } from 'express';
import { z } from 'zod';
import { createApp } from '../../src/api/app';
import { API_KEY_SCOPES, DEFAULT_KEY_SCOPES, type ApiKeyScope } from '../../src/config/api-keys';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { httpCall } from '../helpers/http';
import { createLogger } from '../../src/logging/logger';
import { freePort } from '../../src/net/free-port';
import { createPayloadCodec } from '../../src/temporal/connection';

const secret = (label: string): string => `${label}-${randomBytes(12).toString('hex')}`;
const nameOf = (scope: ApiKeyScope): string => `only-${scope.replace(':', '-')}`;
/** One key per scope, each holding that scope alone; then the forms without scopes. */
const SCOPED = Object.fromEntries(API_KEY_SCOPES.map((scope) => [scope, secret(nameOf(scope))])) as Record<
  ApiKeyScope,
  string
>;
const EVERY_SCOPE = secret('every-scope');
const BARE = secret('bare');
const NAMED = secret('named');

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness({
    ENGINE_API_KEYS: [
      `all:${EVERY_SCOPE}:${API_KEY_SCOPES.join('+')}`,
      ...API_KEY_SCOPES.map((scope) => `${nameOf(scope)}:${SCOPED[scope]}:${scope}`),
      BARE,
      `named:${NAMED}`,
    ].join(','),
  });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const answerSchema = z.object({ code: z.string(), message: z.string() }).partial().optional();
const documentSchema = z.object({
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.object({ operationId: z.string(), security: z.array(z.record(z.string(), z.array(z.string()))) }),
    ),
  ),
});

interface KeyedOperation {
  id: string;
  method: string;
  path: string;
  scope: string;
}

/** The operations the running API documents behind an API key, with the scope each names. */
async function keyedOperations(): Promise<KeyedOperation[]> {
  const document = documentSchema.parse((await httpCall(`${stack.apiUrl}/openapi.json`)).body);
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) =>
      operation.security.flatMap((requirement) =>
        (requirement.apiKey ?? []).map((scope) => ({
          id: operation.operationId,
          method: method.toUpperCase(),
          path: path.replace(/\{\w+\}/g, 'scope-probe-1'),
          scope,
        })),
      ),
    ),
  );
}

/** `allowed`, `refused` (403 naming the scope), `unauthorized` (401), or the unexpected answer spelled out. */
type Outcome = string;

/** What a key gets: past the check (any answer of the operation itself), the scope's 403, or anything else spelled out. */
async function outcome(method: string, path: string, token: string | undefined, scope: string): Promise<Outcome> {
  const answer = await httpCall<unknown>(`${stack.apiUrl}${path}`, {
    method,
    ...(method === 'POST' ? { body: {} } : {}),
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  const body = answerSchema.parse(answer.body);
  if (answer.status === 401 && body?.code === 'UNAUTHORIZED') return 'unauthorized';
  if (answer.status === 403) {
    const named =
      body?.code === 'INSUFFICIENT_SCOPE' &&
      body.message?.includes(`scope ${scope},`) &&
      answer.headers.get('www-authenticate') === `Bearer error="insufficient_scope", scope="${scope}"`;
    return named ? 'refused' : `403 ${JSON.stringify(body)}`;
  }
  // An answer of the route itself (400 for the empty body, 404 for the probe's id, ...), never "no such route".
  return body?.message?.startsWith('No route') ? `${answer.status} ${body.message}` : 'allowed';
}

const expected = (allowed: boolean): Outcome => (allowed ? 'allowed' : 'refused');

test('every keyed operation takes the key of the scope it names and refuses every other with 403 naming that scope', async () => {
  const operations = await keyedOperations();
  expect(operations.length).toBeGreaterThanOrEqual(29);
  expect(new Set(operations.map((op) => op.scope))).toEqual(
    new Set(API_KEY_SCOPES.filter((scope) => scope !== 'codec')),
  );
  const actual: Record<string, Record<string, Outcome>> = {};
  const wanted: Record<string, Record<string, Outcome>> = {};
  for (const op of operations) {
    actual[op.id] = {};
    wanted[op.id] = {};
    for (const scope of API_KEY_SCOPES) {
      actual[op.id]![scope] = await outcome(op.method, op.path, SCOPED[scope], op.scope);
      wanted[op.id]![scope] = expected(scope === op.scope);
    }
    actual[op.id]!.every = await outcome(op.method, op.path, EVERY_SCOPE, op.scope);
    wanted[op.id]!.every = 'allowed';
    actual[op.id]!.none = await outcome(op.method, op.path, undefined, op.scope);
    wanted[op.id]!.none = 'unauthorized';
  }
  expect(actual).toEqual(wanted);
});

test('a key written without scopes, bare or named, has the documented default scopes: it pays, charges, defends and reads, nothing else', async () => {
  const operations = await keyedOperations();
  const actual = await Promise.all(
    operations.map(
      async (op) =>
        [
          op.id,
          [await outcome(op.method, op.path, BARE, op.scope), await outcome(op.method, op.path, NAMED, op.scope)],
        ] as const,
    ),
  );
  const wanted = operations.map(
    (op) =>
      [
        op.id,
        [
          expected(DEFAULT_KEY_SCOPES.includes(op.scope as ApiKeyScope)),
          expected(DEFAULT_KEY_SCOPES.includes(op.scope as ApiKeyScope)),
        ],
      ] as const,
  );
  expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(wanted));
  expect(DEFAULT_KEY_SCOPES).toEqual(['payouts:write', 'charges:write', 'infractions:write', 'read']);
});

test('an API key reaches the codec only with the codec scope', async () => {
  const codecCalls = ['/codec/decode', '/codec/encode'];
  const keys: Record<string, string> = { ...SCOPED, bare: BARE, named: NAMED, every: EVERY_SCOPE };
  const actual: Record<string, Outcome[]> = {};
  for (const [name, token] of Object.entries(keys))
    actual[name] = await Promise.all(codecCalls.map((path) => outcome('POST', path, token, 'codec')));
  expect(actual).toEqual(
    Object.fromEntries(
      Object.keys(keys).map((name) => [name, codecCalls.map(() => expected(name === 'codec' || name === 'every'))]),
    ),
  );
  const decoded = await httpCall(`${stack.apiUrl}/codec/decode`, {
    body: { payloads: [] },
    headers: { authorization: `Bearer ${SCOPED.codec}` },
  });
  expect(decoded).toMatchObject({ status: 200, body: { payloads: [] } });
});

test('the check matches a request as Express routes it: another case, a trailing slash, a literal segment before a parameter', async () => {
  const variants = [
    ['POST', '/V1/PAYOUTS/probe-2/CANCEL', 'operator'],
    ['POST', '/v1/payouts/probe-2/cancel/', 'operator'],
    ['POST', '/v1/Payout-Batches/probe-2/Pause', 'operator'],
    ['GET', '/v1/payouts/quote', 'payouts:write'],
    ['GET', '/V1/PAYOUTS/QUOTE/', 'payouts:write'],
    ['GET', '/v1/infractions/', 'read'],
  ] as const;
  for (const [method, route, scope] of variants) {
    const others = API_KEY_SCOPES.filter((other) => other !== scope);
    const answers = {
      with: await outcome(method, route, SCOPED[scope], scope),
      without: await Promise.all(others.map((other) => outcome(method, route, SCOPED[other], scope))),
    };
    expect({ route, answers }).toEqual({ route, answers: { with: 'allowed', without: others.map(() => 'refused') } });
  }
});

test('an API with a route under /v1 that no operation declares refuses to start', () => {
  const stray = Router();
  stray.get('/v1/payouts/:externalId/secrets', (_req, res) => {
    res.json({});
  });
  const build = (): unknown =>
    createApp({
      config: stack.config,
      logger: createLogger({}, 'error'),
      codec: createPayloadCodec(stack.config),
      readiness: {},
      routers: [stray],
    });
  expect(build).toThrow(
    'Routes under /v1 without an operation naming their scope (src/api/<flow>/openapi.ts): GET /v1/payouts/:externalId/secrets',
  );
});

describe('the keys as an API process reads them at start-up', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'api-keys-'));
  const keysFile = (content: string): string => {
    const file = path.join(folder, `${randomBytes(4).toString('hex')}.json`);
    writeFileSync(file, content, { mode: 0o600 });
    return file;
  };
  /** The API process started with `env` over the harness's settings: 'listening', or what it said as it stopped. */
  const start = async (env: Record<string, string>): Promise<{ port: number; said: string }> => {
    const port = await freePort();
    const said = await stack.spawnApiProcess(port, env).then(
      () => 'listening',
      (error: Error) => error.message,
    );
    return { port, said };
  };

  test('a malformed setting stops the API, naming the variable and the entry, never the secret', async () => {
    const hidden = secret('hidden');
    // Each form's refusals are in test/foundation/config.test.ts; here, that the process stops on them.
    const refusals = [
      [
        { ENGINE_API_KEYS: `ops:${hidden}:operator+admin` },
        /ENGINE_API_KEYS\.0\.scopes\.1: a scope is one of payouts:write, charges:write/,
      ],
      [
        { ENGINE_API_KEYS: '', ENGINE_API_KEYS_FILE: keysFile(`[{"name":"ops","secret":"${hidden}"`) },
        /ENGINE_API_KEYS_FILE: \S+ is not JSON/,
      ],
    ] as const;
    for (const [env, refusal] of refusals) {
      const { said } = await start(env);
      expect({ env, said }).toEqual({ env, said: expect.stringMatching(refusal) as unknown });
      expect(said).not.toContain(hidden);
    }
  }, 180_000);

  test('keys from ENGINE_API_KEYS_FILE get the scopes the file names', async () => {
    const reader = secret('file-reader');
    const file = keysFile(JSON.stringify([{ name: 'dashboard', secret: reader, scopes: ['read'] }]));
    const { port, said } = await start({ ENGINE_API_KEYS: '', ENGINE_API_KEYS_FILE: file });
    expect(said).toBe('listening');
    const call = (method: string, route: string) =>
      httpCall<{ code: string; message: string }>(`http://127.0.0.1:${port}${route}`, {
        method,
        headers: { authorization: `Bearer ${reader}` },
      });
    expect(await call('GET', '/v1/payouts/from-file-1')).toMatchObject({
      status: 404,
      body: { code: 'PAYOUT_NOT_FOUND' },
    });
    expect(await call('POST', '/v1/payouts/from-file-1/cancel')).toMatchObject({
      status: 403,
      body: { code: 'INSUFFICIENT_SCOPE', message: expect.stringContaining('scope operator,') as unknown },
    });
    // The harness's own keys are not this process's.
    expect(
      (await httpCall(`http://127.0.0.1:${port}/v1/charges`, { headers: { authorization: `Bearer ${EVERY_SCOPE}` } }))
        .status,
    ).toBe(401);
  }, 120_000);
});
