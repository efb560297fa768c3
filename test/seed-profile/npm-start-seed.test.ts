/**
 * `SANDBOX_PROFILE=seed npm start`: the whole stack against the spec-only sandbox, the engine configured
 * for it by the launcher (unsigned callbacks as hints, the shield key from the file the sandbox writes).
 * A payout completes; a charge answers a dynamic code and is PAID by a callback that names it only by the
 * provider's id, matched through the index (nothing unmatched); no /shield/public-key is served.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pollUntil } from '../../src/util/poll';
import { readEmv } from '../helpers/emv-reader';
import { npmStart } from '../helpers/npm-start';

test('the stack starts against the seed profile and a payout and a charge complete', async () => {
  const { child, ports, dataDir, exited } = await npmStart(undefined, {
    SANDBOX_PROFILE: 'seed',
    SANDBOX_SETTLE_MS: '200',
  });
  const engine = async <T>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`http://127.0.0.1:${ports.engine}${route}`, {
      method,
      headers: { authorization: 'Bearer dev-api-key', 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const until = <T>(route: string, done: (body: T) => boolean, what: string) =>
    pollUntil(
      async () => {
        const answer = await engine<T>('GET', route);
        return done(answer.body) ? answer.body : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250, description: what },
    );
  try {
    expect((await fetch(`http://127.0.0.1:${ports.sandbox}/shield/public-key`)).status).toBe(404);
    expect(readFileSync(path.join(dataDir, 'sandbox-shield-public-key.pem'), 'utf8')).toContain(
      '-----BEGIN PUBLIC KEY-----',
    );

    expect(
      (
        await engine('POST', '/v1/payouts', {
          externalId: 'seed-stack-1',
          amount: 5,
          pixKey: '52998224725',
          keyType: 'CPF',
        })
      ).status,
    ).toBe(202);
    await until<{ status: string }>(
      '/v1/payouts/seed-stack-1',
      (payout) => payout.status === 'COMPLETED',
      'the payout to complete',
    );

    const created = await engine<{ qrcode: string; amount: number }>('POST', '/v1/charges', {
      externalId: 'seed-charge-1',
      amount: 42.1,
      payer: { name: 'Ana Souza', document: '52998224725' },
    });
    expect(created.status).toBe(201);
    expect(created.body.amount).toBe(42.1);
    expect(readEmv(created.body.qrcode)).toMatchObject({ crcValid: true, txid: '***' });
    const paid = await fetch(`http://127.0.0.1:${ports.sandbox}/sandbox/cash-ins/seed-charge-1/pay`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(paid.status).toBe(200);
    const charge = await until<{ status: string; callbacksReceived?: number }>(
      '/v1/charges/seed-charge-1',
      (view) => view.status === 'PAID' && (view.callbacksReceived ?? 0) > 0,
      'the charge PAID, its callback matched',
    );
    expect(charge.callbacksReceived).toBeGreaterThan(0);
    expect((await engine<{ data: unknown[] }>('GET', '/v1/callbacks/unmatched')).body.data).toEqual([]);
  } finally {
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
