/** A restart loses nothing: settlement jobs and callbacks are rows that a new sandbox on the same file resumes. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  MERCHANT,
  startCallbackReceiver,
  startTestSandbox,
  uniqueId,
  withdrawalBody,
  type CallbackReceiver,
} from '../helpers/sandbox';

let receiver: CallbackReceiver;
beforeAll(async () => {
  receiver = await startCallbackReceiver();
});
afterAll(() => receiver?.close());

test('stopped with a settlement pending, a new sandbox on the same file settles it and delivers the callback; the old token still works', async () => {
  const dbPath = path.join(mkdtempSync(path.join(os.tmpdir(), 'sandbox-restart-')), 'sandbox.sqlite');
  const overrides = { SANDBOX_SETTLE_MS: '1500' };
  const first = await startTestSandbox({ dbPath, overrides });
  const token = await first.login();
  const id = uniqueId('restart');
  const created = await first.call<{ transactionId: string }>('POST', '/api/withdrawals/withdraw', {
    body: withdrawalBody(id, receiver.url),
    auth: { bearer: token },
  });
  expect(created.status).toBe(200);
  const balanceAfterDebit = first.balance('merchant');
  await first.stop();
  expect(receiver.received).toEqual([]);

  const second = await startTestSandbox({ dbPath, overrides });
  try {
    // Seeding runs once: the merchant was not credited a second time.
    expect(second.balance('merchant')).toBe(balanceAfterDebit);
    const [callback] = await receiver.waitFor(1);
    expect(callback!.verified).toBe(true);
    expect(callback!.payload).toMatchObject({
      external_id: id,
      transaction_id: created.body.transactionId,
      status: 'COMPLETED',
    });
    const checked = await second.call<{ transaction: { transactionState: string } }>(
      'POST',
      '/api/transactions/check',
      { body: { transactionId: id }, auth: { ci: MERCHANT.clientId, cs: MERCHANT.clientSecret } },
    );
    expect(checked.body.transaction.transactionState).toBe('COMPLETO');
    const replay = await second.call('POST', '/api/withdrawals/withdraw', {
      body: withdrawalBody(id, receiver.url),
      auth: { bearer: token },
    });
    expect(replay.status).toBe(200);
    expect(second.balance('merchant')).toBe(balanceAfterDebit);
  } finally {
    await second.stop();
  }
});

test('a callback whose delivery failed before the stop is retried by the next sandbox with the same event id', async () => {
  const dbPath = path.join(mkdtempSync(path.join(os.tmpdir(), 'sandbox-restart-')), 'sandbox.sqlite');
  const overrides = {
    SANDBOX_SETTLE_MS: '0',
    SANDBOX_CALLBACK_RETRY_BASE_MS: '1000',
    SANDBOX_CALLBACK_MAX_ATTEMPTS: '5',
  };
  receiver.respondWith(503);
  const first = await startTestSandbox({ dbPath, overrides });
  const id = uniqueId('retry-restart');
  await first.call('POST', '/api/withdrawals/withdraw', {
    body: withdrawalBody(id, receiver.url),
    auth: { bearer: await first.login() },
  });
  const firstAttempt = await receiver.waitFor(receiver.received.length + 1);
  await first.stop();
  receiver.respondWith(200);

  const second = await startTestSandbox({ dbPath, overrides });
  try {
    const all = await receiver.waitFor(firstAttempt.length + 1);
    const attempts = all.filter((callback) => callback.payload.external_id === id);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(attempts.map((callback) => callback.id)).size).toBe(1);
  } finally {
    await second.stop();
  }
});
