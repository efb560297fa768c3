/** Fault injection and the admin controls: what a client of a misbehaving provider would see. */
import { pollUntil } from '../../src/util/poll';
import { MERCHANT, sandboxForThisFile, uniqueId, withdrawalBody, type ResponseBody } from '../helpers/sandbox';

const { sandbox, receiver, token } = sandboxForThisFile({ overrides: { SANDBOX_SETTLE_MS: '100' } });
afterEach(async () => {
  await sandbox.admin('DELETE', '/sandbox/faults');
  receiver.respondWith(200);
  await sandbox.quiesce();
});

const withdraw = (body: unknown, signal?: AbortSignal) =>
  fetch(`${sandbox.url}/api/withdrawals/withdraw`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token()}` },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
const check = (transactionId: string) =>
  sandbox.call<ResponseBody>('POST', '/api/transactions/check', {
    body: { transactionId },
    auth: { ci: MERCHANT.clientId, cs: MERCHANT.clientSecret },
  });
const callbacksFor = (externalId: string) =>
  receiver.received.filter((callback) => callback.payload.external_id === externalId);
const waitForCallbacks = (externalId: string, count: number) =>
  pollUntil(() => (callbacksFor(externalId).length >= count ? callbacksFor(externalId) : undefined), {
    timeoutMs: 10_000,
    intervalMs: 20,
    description: `${count} callback(s) of ${externalId}`,
  });
const debitsFor = async (externalId: string) => {
  const ledger = await sandbox.admin<{ entries: { lines: { account: string; amountCents: number }[] }[] }>(
    'GET',
    `/sandbox/ledger?externalId=${externalId}`,
  );
  return ledger.body.entries.filter((entry) =>
    entry.lines.some((line) => line.account.startsWith('user:') && line.amountCents < 0),
  ).length;
};
const setFaults = async (faults: unknown) =>
  expect((await sandbox.admin('PUT', '/sandbox/faults', faults)).status).toBe(200);

describe('request faults', () => {
  test('errorRate 1 answers 503 before doing anything; clearing it restores service', async () => {
    await setFaults({ errorRate: 1 });
    const before = sandbox.balance('merchant');
    const id = uniqueId('down');
    const answer = await withdraw(withdrawalBody(id, receiver.url));
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(sandbox.balance('merchant')).toBe(before);
    await sandbox.admin('DELETE', '/sandbox/faults');
    expect((await check(id)).status).toBe(404);
    expect((await withdraw(withdrawalBody(id, receiver.url))).status).toBe(200);
  });

  test('latencyMs delays the answer', async () => {
    await setFaults({ latencyMs: 300 });
    const started = Date.now();
    expect((await check('nothing')).status).toBe(404);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  test('an invalid fault body is 400 with field paths and changes nothing', async () => {
    await setFaults({ latencyMs: 5 });
    const answer = await sandbox.admin<ResponseBody>('PUT', '/sandbox/faults', {
      errorRate: 2,
      timeoutAfterCommit: { count: 0, mode: 'explode' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'errorRate',
      'timeoutAfterCommit.count',
      'timeoutAfterCommit.mode',
    ]);
    expect((await sandbox.admin('GET', '/sandbox/faults')).body).toEqual({ faults: { latencyMs: 5 } });
  });

  test('timeoutAfterCommit reset: the client sees a reset, yet the withdrawal is committed once; a retry gets it back', async () => {
    await setFaults({ timeoutAfterCommit: { count: 1, mode: 'reset' } });
    const id = uniqueId('reset');
    await expect(withdraw(withdrawalBody(id, receiver.url))).rejects.toThrow();
    expect(await debitsFor(id)).toBe(1);
    expect((await check(id)).body.transaction.transactionId).toMatch(/^wd_/);
    // The count is spent: the retry is answered, with the same withdrawal and no second debit.
    const retry = await withdraw(withdrawalBody(id, receiver.url));
    expect(retry.status).toBe(200);
    expect(await debitsFor(id)).toBe(1);
  });

  test('timeoutAfterCommit hang: the request times out on the client side, the check finds the withdrawal', async () => {
    await setFaults({ timeoutAfterCommit: { count: 1, mode: 'hang' } });
    const id = uniqueId('hang');
    await expect(
      withdraw(withdrawalBody(id, receiver.url, { amount: 4.14 }), AbortSignal.timeout(500)),
    ).rejects.toThrow(/timeout|abort/i);
    expect(await debitsFor(id)).toBe(1);
    expect((await check(id)).body.transaction.transactionState).toBe('PROCESSING');
  });

  test('clearing the faults ends a request a hang holds: its client sees the connection close, the withdrawal stays committed', async () => {
    await setFaults({ timeoutAfterCommit: { count: 1, mode: 'hang' } });
    const id = uniqueId('released');
    // Held for 30 s unless released: a client that waits 10 s tells the two apart.
    const held = withdraw(withdrawalBody(id, receiver.url, { amount: 4.15 }), AbortSignal.timeout(10_000));
    const outcome = held.then(
      () => 'answered',
      (error: { name?: string }) => (error.name === 'TimeoutError' ? 'timed out' : 'closed'),
    );
    await pollUntil(async () => ((await debitsFor(id)) === 1 ? true : undefined), {
      timeoutMs: 5_000,
      description: 'the held withdrawal to be committed',
    });
    await sandbox.admin('DELETE', '/sandbox/faults');
    expect(await outcome).toBe('closed');
    expect(await debitsFor(id)).toBe(1);
  }, 20_000);

  test('timeoutAfterCommit with paths only hits those paths', async () => {
    await setFaults({ timeoutAfterCommit: { count: 1, mode: 'reset', paths: ['/api/transactions/internal'] } });
    expect((await withdraw(withdrawalBody(uniqueId('other-path'), receiver.url))).status).toBe(200);
    expect((await sandbox.admin<ResponseBody>('GET', '/sandbox/faults')).body.faults.timeoutAfterCommit.count).toBe(1);
  });
});

describe('callback faults', () => {
  test('drop: no callback arrives, the check still shows COMPLETO; redeliver sends it with the same event id', async () => {
    await setFaults({ callbacks: { drop: { count: 1 } } });
    const dropped = uniqueId('dropped');
    const control = uniqueId('control');
    await withdraw(withdrawalBody(dropped, receiver.url));
    await withdraw(withdrawalBody(control, receiver.url));
    await waitForCallbacks(control, 1);
    await pollUntil(
      async () => ((await check(dropped)).body.transaction.transactionState === 'COMPLETO' ? true : undefined),
      { timeoutMs: 5_000, description: 'settlement' },
    );
    expect(callbacksFor(dropped)).toEqual([]);

    const { transactionId } = (await check(dropped)).body.transaction as { transactionId: string };
    const listed = await sandbox.admin<{ callbacks: { id: string; status: string }[] }>(
      'GET',
      `/sandbox/callbacks?operationId=${transactionId}`,
    );
    expect(listed.body.callbacks).toEqual([expect.objectContaining({ status: 'dropped' })]);
    const eventId = listed.body.callbacks[0]!.id;
    expect((await sandbox.admin('POST', `/sandbox/callbacks/${eventId}/redeliver`)).status).toBe(200);
    const [delivered] = await waitForCallbacks(dropped, 1);
    expect(delivered!.id).toBe(eventId);
  });

  test('duplicate: the callback arrives twice with the same event id', async () => {
    await setFaults({ callbacks: { duplicate: { count: 1 } } });
    const id = uniqueId('dup');
    await withdraw(withdrawalBody(id, receiver.url));
    const [first, second] = await waitForCallbacks(id, 2);
    expect(first!.id).toBe(second!.id);
    expect(first!.rawBody.equals(second!.rawBody)).toBe(true);
  });

  test('reorder: callbacks are held and delivered newest first', async () => {
    await setFaults({ callbacks: { reorder: true, reorderWindowMs: 300 } });
    const older = uniqueId('older');
    const newer = uniqueId('newer');
    await withdraw(withdrawalBody(older, receiver.url));
    await withdraw(withdrawalBody(newer, receiver.url, { amount: 6.13 }));
    await waitForCallbacks(older, 1);
    await waitForCallbacks(newer, 1);
    const order = receiver.received
      .map((callback) => callback.payload.external_id)
      .filter((id) => id === older || id === newer);
    expect(order).toEqual([newer, older]);
  });

  test('a receiver that keeps failing: each attempt is recorded with its status; the callback ends failed; redeliver succeeds later', async () => {
    receiver.respondWith(500);
    const id = uniqueId('retry');
    await withdraw(withdrawalBody(id, receiver.url));
    await waitForCallbacks(id, 3);
    const { transactionId } = (await check(id)).body.transaction as { transactionId: string };
    const failed = await pollUntil(
      async () => {
        const listed = await sandbox.admin<{
          callbacks: { id: string; status: string; attempts: number; lastStatusCode: number }[];
        }>('GET', `/sandbox/callbacks?operationId=${transactionId}`);
        const callback = listed.body.callbacks[0];
        return callback?.status === 'failed' ? callback : undefined;
      },
      { timeoutMs: 5_000, description: 'callback to fail' },
    );
    expect(failed).toMatchObject({ attempts: 3, lastStatusCode: 500 });
    const detail = await sandbox.admin<{ attempts: { statusCode: number }[] }>(
      'GET',
      `/sandbox/callbacks/${failed.id}`,
    );
    expect(detail.body.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 500]);
    expect(new Set(callbacksFor(id).map((callback) => callback.id)).size).toBe(1);

    receiver.respondWith(200);
    await sandbox.admin('POST', `/sandbox/callbacks/${failed.id}/redeliver`);
    await waitForCallbacks(id, 4);
    await pollUntil(
      async () =>
        (await sandbox.admin<{ callback: { status: string } }>('GET', `/sandbox/callbacks/${failed.id}`)).body.callback
          .status === 'delivered'
          ? true
          : undefined,
      { timeoutMs: 5_000, description: 'delivered' },
    );
  });
});

describe('admin: operations and forced outcomes', () => {
  test('forces a stuck withdrawal to FAILED (callback with the reason, money back); forcing it again is 409', async () => {
    const before = sandbox.balance('merchant');
    const id = uniqueId('forced');
    await withdraw(withdrawalBody(id, receiver.url, { amount: 8.14 }));
    const listed = await sandbox.admin<{ operations: { transactionId: string; status: string }[] }>(
      'GET',
      `/sandbox/operations?externalId=${id}`,
    );
    expect(listed.body.operations).toEqual([expect.objectContaining({ status: 'PROCESSING' })]);
    const transactionId = listed.body.operations[0]!.transactionId;

    const forced = await sandbox.admin<ResponseBody>('POST', `/sandbox/operations/${transactionId}/outcome`, {
      status: 'FAILED',
      reason: 'Operator said no',
    });
    expect(forced.status).toBe(200);
    expect(forced.body.operation).toMatchObject({ status: 'FAILED', failureReason: 'Operator said no' });
    const [callback] = await waitForCallbacks(id, 1);
    expect(callback!.payload).toMatchObject({ status: 'FAILED', reason: 'Operator said no' });
    expect(sandbox.balance('merchant')).toBe(before);

    expect(
      (await sandbox.admin('POST', `/sandbox/operations/${transactionId}/outcome`, { status: 'COMPLETED' })).status,
    ).toBe(409);
    expect((await sandbox.admin('POST', '/sandbox/operations/wd_nope/outcome', { status: 'COMPLETED' })).status).toBe(
      404,
    );
    expect(
      (await sandbox.admin('POST', `/sandbox/operations/${transactionId}/outcome`, { status: 'MAYBE' })).status,
    ).toBe(400);
  });
});
