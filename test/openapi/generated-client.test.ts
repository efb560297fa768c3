/**
 * A client generated from the served document works: openapi-typescript turns the engine's
 * `GET /openapi.json` (a real API, sandbox and worker) into types, which must equal the committed
 * examples/engine-api.d.ts that `npm run typecheck` checks examples/engine-client.ts against; then that
 * script (openapi-fetch) creates and reads a payout, a charge and a card payment through the API. A
 * document change that breaks generated clients fails here or in the type check.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';

const run = promisify(execFile);
const root = path.join(__dirname, '..', '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'generated-client-'));
let stack: EngineHarness;

beforeAll(async () => {
  // The harness picks free ports, then binds them: in a full parallel run another file may take one in between. Other ports, once more.
  stack = await startEngineHarness().catch((error: unknown) => {
    if (String(error).includes('EADDRINUSE')) return startEngineHarness();
    throw error;
  });
}, 180_000);
afterAll(async () => {
  await stack?.close();
  rmSync(work, { recursive: true, force: true });
});

test('the types openapi-typescript generates from the served document are the committed ones', async () => {
  const served = await fetch(`${stack.apiUrl}/openapi.json`);
  expect(served.status).toBe(200);
  const document = path.join(work, 'openapi.json');
  writeFileSync(document, await served.text());
  const generated = path.join(work, 'engine-api.d.ts');
  await run(
    process.execPath,
    [path.join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), document, '-o', generated],
    { cwd: root },
  );
  const committed = readFileSync(path.join(root, 'examples', 'engine-api.d.ts'), 'utf8');
  // On a difference: `npx openapi-typescript <served document> -o examples/engine-api.d.ts`, then `npm run typecheck`.
  expect(readFileSync(generated, 'utf8') === committed).toBe(true);
}, 60_000);

test('the example client creates and reads a payout, a charge and a card payment through the real API', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(root, 'examples', 'engine-client.ts')], {
    cwd: root,
    env: { ...process.env, ENGINE_URL: stack.apiUrl, ENGINE_API_KEY: stack.config.ENGINE_API_KEYS[0]?.secret ?? '' },
  });
  const result = JSON.parse(stdout) as Record<
    string,
    { externalId: string; status: string; amount?: number; checkoutUrl?: string }
  >;
  expect(result).toEqual({
    payout: { externalId: expect.stringMatching(/^example-/), status: expect.any(String), amount: 25 },
    charge: { externalId: expect.stringMatching(/^invoice-/), status: 'PENDING', amount: 150 },
    cardPayment: {
      externalId: expect.stringMatching(/^order-/),
      status: 'AWAITING_CARD',
      checkoutUrl: expect.stringContaining('/checkout/'),
    },
  });
}, 60_000);
