/**
 * Callbacks over HTTP through the engine's callback router, signed as the provider signs them: a
 * minimal withdrawal callback (only what routing needs) is taken, and what names no payout is kept for
 * operators in a bounded, private, crash-tolerant store: once per event id, only the fields the
 * contract declares, at most UNMATCHED_CALLBACKS_MAX (the number dropped shown).
 */
import { appendFileSync, mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { UnmatchedCallbackStore } from '../../src/api/callbacks/unmatched-callbacks';
import { startEngineApi, type EngineApi } from '../helpers/engine-api';

let api: EngineApi;
beforeAll(async () => {
  api = await startEngineApi({ UNMATCHED_CALLBACKS_MAX: '3' });
});
afterAll(() => api?.close());

interface UnmatchedList {
  data: { reference: string; eventId?: string; route: string; payload: Record<string, unknown> }[];
  dropped: number;
}

async function unmatched(): Promise<UnmatchedList> {
  const response = await api.fetch('/v1/callbacks/unmatched');
  expect(response.status).toBe(200);
  return (await response.json()) as UnmatchedList;
}

const storeFile = () => path.join(api.config.DATA_DIR, 'unmatched-callbacks.jsonl');

test('a signed withdrawal callback with only external_id and status is taken: signalled to its payout, or kept when none', async () => {
  const externalId = `minimal-${randomUUID().slice(0, 8)}`;
  const accepted = await api.fetch('/v1/payouts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ externalId, amount: 10, pixKey: '52998224725', keyType: 'CPF' }) });
  expect(accepted.status).toBe(202);
  const signalled = await api.sendCallback('/callbacks/withdrawals', JSON.stringify({ external_id: externalId, status: 'COMPLETED' }));
  expect(signalled.status).toBe(200);
  expect(await signalled.json()).toMatchObject({ received: true });

  const unknown = `nobody-${randomUUID().slice(0, 8)}`;
  const kept = await api.sendCallback('/callbacks/withdrawals', JSON.stringify({ external_id: unknown, status: 'FAILED', reason: 'Invalid key' }), `evt-${unknown}`);
  expect(kept.status).toBe(202);
  expect((await unmatched()).data).toContainEqual(expect.objectContaining({ reference: unknown, payload: { external_id: unknown, status: 'FAILED', reason: 'Invalid key' } }));

  // What routing needs is still required.
  const noStatus = await api.sendCallback('/callbacks/withdrawals', JSON.stringify({ external_id: unknown }));
  expect(noStatus.status).toBe(400);
  expect(await noStatus.json()).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'status' }] });
});

test('a retried event is kept once, with only the fields the contract declares, in a file only its owner reads', async () => {
  const reference = `dup-${randomUUID().slice(0, 8)}`;
  const body = JSON.stringify({
    transaction_id: 'wd_77', external_id: reference, status: 'COMPLETED', amount: 25, fee: 0.5, total: 25.5, type: 'Withdrawal', updated_at: new Date().toISOString(),
    pix_key: 'ana@example.com', receiver: { name: 'Ana Souza', document: '52998224725' },
  });
  expect((await api.sendCallback('/callbacks/withdrawals', body, `evt-${reference}`)).status).toBe(202);
  // The provider's retry is signed again, at its own time: a new request with the same event id.
  expect((await api.sendCallback('/callbacks/withdrawals', body, `evt-${reference}`, 1)).status).toBe(202);

  const kept = (await unmatched()).data.filter((entry) => entry.reference === reference);
  expect(kept).toHaveLength(1);
  expect(kept[0]?.eventId).toBe(`evt-${reference}`);
  expect(Object.keys(kept[0]?.payload ?? {}).sort()).toEqual(['amount', 'external_id', 'fee', 'status', 'total', 'transaction_id', 'type', 'updated_at']);
  expect(statSync(storeFile()).mode & 0o777).toBe(0o600);
});

test('past UNMATCHED_CALLBACKS_MAX the oldest are dropped and counted', async () => {
  const before = await unmatched();
  const references = Array.from({ length: 4 }, (_, index) => `cap-${index}-${randomUUID().slice(0, 6)}`);
  for (const reference of references) {
    expect((await api.sendCallback('/callbacks/withdrawals', JSON.stringify({ external_id: reference, status: 'COMPLETED' }), `evt-${reference}`)).status).toBe(202);
  }
  const after = await unmatched();
  expect(after.data.map((entry) => entry.reference)).toEqual(references.slice(-3));
  expect(after.dropped).toBe(before.dropped + before.data.length + 1);
  expect(statSync(storeFile()).mode & 0o777).toBe(0o600);
});

test('a line half written by a crash does not break the list, nor the next callback', async () => {
  appendFileSync(storeFile(), '{"receivedAt":"2025-01-01T00:00:00.000Z","route":"/callbacks/withdr');
  const listed = await unmatched();
  expect(listed.data.length).toBeGreaterThan(0);

  const reference = `after-crash-${randomUUID().slice(0, 6)}`;
  expect((await api.sendCallback('/callbacks/withdrawals', JSON.stringify({ external_id: reference, status: 'FAILED' }), `evt-${reference}`)).status).toBe(202);
  expect((await unmatched()).data.map((entry) => entry.reference)).toContain(reference);
});

test('below the cap, the callback after a crash starts a line of its own and both survive', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'unmatched-'));
  const store = new UnmatchedCallbackStore(dataDir, 10);
  const entry = (reference: string) => ({ receivedAt: new Date().toISOString(), route: '/callbacks/withdrawals', eventId: `evt-${reference}`, reference, payload: { external_id: reference, status: 'COMPLETED' } });
  expect(store.add(entry('first'))).toBe(true);
  appendFileSync(path.join(dataDir, 'unmatched-callbacks.jsonl'), '{"receivedAt":"2025-01-01T00:00:00.000Z","rou');
  expect(store.add(entry('second'))).toBe(true);
  expect(store.add(entry('second'))).toBe(false);
  expect(store.list()).toEqual({ data: [entry('first'), entry('second')].map((expected) => ({ ...expected, receivedAt: expect.any(String) })), dropped: 0, unreadable: 1 });
});
