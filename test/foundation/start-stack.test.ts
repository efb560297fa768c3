/**
 * The README's first command: `npm start` brings the whole stack up on its own defaults (here on free
 * ports and a temporary data folder) and Ctrl-C (SIGINT) stops every process it started, freeing every port.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../tools/stack/child-services';
import { pollUntil } from '../../src/util/poll';
import { npmStart, portOpen } from '../helpers/npm-start';

const root = path.join(__dirname, '..', '..');

test('npm start serves the engine, the sandbox and the Temporal UI (decoding with its codec token), and Ctrl-C leaves no process or port behind', async () => {
  const { child, ports, dataDir, output, exited } = await npmStart();
  try {
    expect(output()).toContain(
      `Provider         http://127.0.0.1:${ports.sandbox}   (what the engine calls: the sandbox above)`,
    );
    expect((await fetch(`http://127.0.0.1:${ports.engine}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.sandbox}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.ui}/`)).status).toBe(200);
    // The UI decodes through the engine with its own credential, the codec token in the endpoint's URL.
    const { codecToken } = JSON.parse(readFileSync(path.join(dataDir, 'codec-token.json'), 'utf8')) as {
      codecToken: string;
    };
    const settings = (await (await fetch(`http://127.0.0.1:${ports.ui}/api/v1/settings`)).json()) as {
      Codec: { Endpoint: string };
    };
    expect(settings.Codec.Endpoint).toBe(`http://127.0.0.1:${ports.engine}/codec/t/${codecToken}`);
    const asTheUi = (endpoint: string) =>
      fetch(`${endpoint}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://localhost:${ports.ui}` },
        body: '{"payloads":[]}',
      });
    expect((await asTheUi(settings.Codec.Endpoint)).status).toBe(200);
    expect((await asTheUi(`http://127.0.0.1:${ports.engine}/codec`)).status).toBe(401);
    const ready = await pollUntil(
      async () => {
        const response = await fetch(`http://127.0.0.1:${ports.engine}/readyz`);
        return response.status === 200 ? response.status : undefined;
      },
      { timeoutMs: 30_000, description: 'the engine to be ready' },
    );
    expect(ready).toBe(200);
    // Both processes of the engine answer Prometheus text, each on a port of its own (never the API's); the worker's carries the Temporal SDK's metrics too.
    expect((await fetch(`http://127.0.0.1:${ports.apiMetrics}/metrics`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports.engine}/metrics`)).status).toBe(404);
    const workerMetrics = await pollUntil(
      async () => {
        const text = await fetch(`http://127.0.0.1:${ports.workerMetrics}/metrics`).then(
          (response) => response.text(),
          () => '',
        );
        return text.includes('temporal_') ? text : undefined;
      },
      { timeoutMs: 30_000, description: "the worker's metrics" },
    );
    expect(workerMetrics).toContain('payout_engine_operations_started_total');
    // On a sandbox port that is not the default, a payout still reaches the sandbox this stack started.
    const payout = { externalId: 'start-stack-1', amount: 5, pixKey: '52998224725', keyType: 'CPF' };
    const engine = (path: string, body?: unknown) =>
      fetch(`http://127.0.0.1:${ports.engine}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: 'Bearer dev-api-key', 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    expect((await engine('/v1/payouts', payout)).status).toBe(202);
    const completed = await pollUntil(
      async () => {
        const answer = (await (await engine('/v1/payouts/start-stack-1')).json()) as { status: string };
        return answer.status === 'COMPLETED' ? answer : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the payout to complete at the stack’s own sandbox' },
    );
    expect(completed.status).toBe('COMPLETED');
  } finally {
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const port of Object.values(ports)) expect(await portOpen(port)).toBe(false);
}, 180_000);

test('`npm run worker` and `npm start` run the worker with the same Node flags (its capped heap)', () => {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const flags = SERVICE_NODE_FLAGS.worker ?? [];
  expect(flags.length).toBeGreaterThan(0);
  expect(scripts.worker).toBe(`node ${flags.join(' ')} --import tsx src/cli/worker.ts`);
});
