/**
 * The reverse proxy of docker-compose.yml, run here with Debian's caddy (no Docker engine) on the repository's
 * own ops/proxy/Caddyfile, in front of the real engine API, with a self-signed certificate standing in for
 * TLS_CERT_DIR's. It terminates TLS and answers nothing in clear; it names each client in X-Forwarded-For,
 * dropping whatever the client wrote there; and the API, trusting that header from the proxy's address only
 * (TRUST_PROXY), counts each client on its own: one client past its limit blocks nobody else. The clients
 * are distinct loopback addresses (127.0.0.7, 127.0.0.8), as distinct as buyers on the internet.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { pollUntil } from '../../src/util/poll';
import { selfSignedCertificate } from '../helpers/certificates';
import { startEngineApi, type EngineApi } from '../helpers/engine-api';

const CADDYFILE = path.join(__dirname, '..', '..', 'ops', 'proxy', 'Caddyfile');
/** ENGINE_PUBLIC_URL's host here; the Temporal UI's site is `localhost`, as in compose. */
const PUBLIC_HOST = 'engine.localhost';

/** caddy where CADDY_PATH or Debian puts it; without it these tests fail, they never skip. */
function caddyBinary(): string {
  const found = [process.env.CADDY_PATH, '/usr/bin/caddy', '/usr/local/bin/caddy'].find(
    (candidate): candidate is string => candidate !== undefined && existsSync(candidate),
  );
  if (!found)
    throw new Error('caddy not found: install it (apt-get install -y caddy, as .ci/run does) or set CADDY_PATH');
  return found;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'reverse-proxy-'));
const lines: string[] = [];
let api: EngineApi;
let caddy: ChildProcess | undefined;
let caddyOutput = '';
let publicPort = 0;
let uiPort = 0;
let certificate = '';

beforeAll(async () => {
  selfSignedCertificate(path.join(work, 'key.pem'), path.join(work, 'cert.pem'), `/CN=${PUBLIC_HOST}`, [
    '-addext',
    `subjectAltName=DNS:${PUBLIC_HOST}`,
  ]);
  certificate = readFileSync(path.join(work, 'cert.pem'), 'utf8');
  // The proxy dials the API from 127.0.0.1 here, as it does from its fixed address on compose's `edge` network.
  // Signatures required: an unsigned callback is refused with 401 at once, so each answer below is the limit's alone.
  api = await startEngineApi(
    { TRUST_PROXY: '127.0.0.1', CALLBACK_RATE_LIMIT_PER_MINUTE: '2', PROVIDER_CALLBACK_SIGNATURES: 'required' },
    { logs: (line) => lines.push(line) },
  );
  [publicPort, uiPort] = [await freePort(), await freePort()];
  caddy = spawn(caddyBinary(), ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: work,
      XDG_DATA_HOME: path.join(work, 'data'),
      XDG_CONFIG_HOME: path.join(work, 'config'),
      ENGINE_PUBLIC_URL: `https://${PUBLIC_HOST}:${publicPort}`,
      ENGINE_UPSTREAM: new URL(api.url).host,
      TLS_CERT_FILE: path.join(work, 'cert.pem'),
      TLS_KEY_FILE: path.join(work, 'key.pem'),
      TEMPORAL_UI_PROXY_PORT: String(uiPort),
      // No Temporal UI here: what this test asks of the UI's site is only that it sends the codec URL to the API.
      TEMPORAL_UI_UPSTREAM: `127.0.0.1:${await freePort()}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  caddy.stdout?.on('data', (chunk: Buffer) => (caddyOutput += chunk.toString()));
  caddy.stderr?.on('data', (chunk: Buffer) => (caddyOutput += chunk.toString()));
  await pollUntil(async () => ((await proxied('127.0.0.1', '/healthz')).status === 200 ? true : undefined), {
    timeoutMs: 20_000,
    intervalMs: 200,
    description: `caddy serving ${CADDYFILE}`,
  }).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${caddyOutput}`);
  });
}, 60_000);

afterAll(async () => {
  caddy?.kill('SIGTERM');
  await api?.close();
  rmSync(work, { recursive: true, force: true });
});

type Lookup = (
  host: string,
  options: { all?: boolean },
  callback: (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
) => void;
/** Every name to 127.0.0.1: `engine.localhost` needs no resolver that knows it. */
const toLoopback: Lookup = (_host, options, callback) =>
  options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4);

/** A client on its own loopback address, trusting `ca`, through the proxy's public site (or the UI's, on `port`). */
async function proxied(
  client: string,
  pathname: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; port?: number; ca?: string } = {},
) {
  const host = init.port === undefined ? PUBLIC_HOST : 'localhost';
  const dispatcher = new Agent({ localAddress: client, connect: { lookup: toLoopback, ca: init.ca ?? certificate } });
  try {
    const answer = await request(`https://${host}:${init.port ?? publicPort}${pathname}`, {
      method: (init.method ?? 'GET') as 'GET',
      headers: init.headers ?? {},
      body: init.body ?? null,
      dispatcher,
    });
    return { status: answer.statusCode, headers: answer.headers, text: await answer.body.text() };
  } finally {
    await dispatcher.close();
  }
}

/** The API's request lines for the callback route. */
const requestLines = (): string[] =>
  lines.filter((line) => line.includes('"http.request"') && line.includes('"/callbacks/withdrawals"'));

const callback = (client: string, forwardedFor?: string) =>
  proxied(client, '/callbacks/withdrawals', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: '{}',
  });

test('it terminates TLS with the given certificate and tells browsers to come back only over TLS; in clear it answers nothing of the engine', async () => {
  const answer = await proxied('127.0.0.1', '/healthz');
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.text)).toEqual({ status: 'ok' });
  expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');

  const before = lines.length;
  const inClear = await fetch(`http://127.0.0.1:${publicPort}/callbacks/withdrawals`, { method: 'POST', body: '{}' });
  expect(inClear.status).toBe(400);
  expect(await inClear.text()).toMatch(/HTTP request to an HTTPS server/);
  expect(lines.slice(before).filter((line) => line.includes('"http.request"'))).toEqual([]);
});

test('the API counts each client behind the proxy on its own, whatever X-Forwarded-For the client writes', async () => {
  // One client past its limit of 2, each time claiming to be someone else.
  expect([
    (await callback('127.0.0.7', '203.0.113.1')).status,
    (await callback('127.0.0.7', '203.0.113.2')).status,
    (await callback('127.0.0.7', '203.0.113.3')).status,
  ]).toEqual([401, 401, 429]);
  // Another client is not blocked by it.
  expect([(await callback('127.0.0.8')).status, (await callback('127.0.0.8')).status]).toEqual([401, 401]);
  // The API's request lines name each client by the address the proxy saw, never the one the client wrote.
  const addresses = requestLines().map(
    (line) => (JSON.parse(line) as { req: { remoteAddress: string } }).req.remoteAddress,
  );
  expect(addresses).toEqual(['127.0.0.7', '127.0.0.7', '127.0.0.7', '127.0.0.8', '127.0.0.8']);
});

test("a client reaching the API's port itself is not believed about who it is (only the proxy's address is trusted)", async () => {
  const direct = new Agent({ localAddress: '127.0.0.9' });
  try {
    for (const claimed of ['198.51.100.1', '198.51.100.2']) {
      await request(`${api.url}/callbacks/withdrawals`, {
        method: 'POST',
        headers: { 'x-forwarded-for': claimed },
        body: '{}',
        dispatcher: direct,
      });
    }
  } finally {
    await direct.close();
  }
  const last = requestLines().slice(-2);
  expect(last.map((line) => (JSON.parse(line) as { req: { remoteAddress: string } }).req.remoteAddress)).toEqual([
    '127.0.0.9',
    '127.0.0.9',
  ]);
});

test("the Temporal UI's site, over TLS with the proxy's own CA, sends the codec URL to the API (same origin, no CORS) and nothing else of it", async () => {
  const root = readFileSync(path.join(work, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt'), 'utf8');
  const codec = await proxied('127.0.0.1', '/codec/t/not-the-token/decode', {
    port: uiPort,
    ca: root,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"payloads":[]}',
  });
  // The engine's own answer: the codec route reached, the made-up token refused.
  expect(codec.status).toBe(401);
  expect(JSON.parse(codec.text)).toMatchObject({ code: 'UNAUTHORIZED' });
  // The rest of the site is the UI's (none runs here: the proxy's 502), never the engine's API.
  const payouts = await proxied('127.0.0.1', '/v1/payouts/order-1', {
    port: uiPort,
    ca: root,
    headers: { authorization: `Bearer ${api.apiKey}` },
  });
  expect(payouts.status).toBe(502);
});
