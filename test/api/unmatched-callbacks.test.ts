/**
 * Callbacks over HTTP through the engine's callback router, signed as the provider signs them: a
 * minimal withdrawal callback (only what routing needs) is taken, and what names no payout is kept for
 * operators in a bounded store in the engine's database: once per event id (a retry counted), only the
 * fields the engine reads, each cut short, at most UNMATCHED_CALLBACKS_MAX (the newest kept, the
 * number dropped shown). The store itself on SQLite and on PostgreSQL: of an unsigned callback only its ids.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  MAX_FIELD_LENGTH,
  MAX_ID_LENGTH,
  openUnmatchedCallbackStore,
  type UnmatchedCallbackStore,
} from '../../src/api/callbacks/unmatched-callbacks';
import { postPayoutTo, startEngineApi } from '../helpers/engine-api';
import { postgresForThisFile } from '../helpers/postgres';
import { forThisFile } from '../helpers/for-this-file';

const api = forThisFile(() => startEngineApi({ UNMATCHED_CALLBACKS_MAX: '3' }));

interface UnmatchedList {
  data: {
    reference: string;
    eventId?: string;
    route: string;
    count: number;
    signed: boolean;
    payload?: Record<string, unknown>;
    problem?: string;
  }[];
  dropped: number;
}

async function unmatched(): Promise<UnmatchedList> {
  const response = await api.fetch('/v1/callbacks/unmatched');
  expect(response.status).toBe(200);
  return (await response.json()) as UnmatchedList;
}

test('a signed withdrawal callback with only external_id and status is taken: signalled to its payout, or kept when none', async () => {
  const externalId = `minimal-${randomUUID().slice(0, 8)}`;
  await postPayoutTo(api, externalId);
  const signalled = await api.sendCallback(
    '/callbacks/withdrawals',
    JSON.stringify({ external_id: externalId, status: 'COMPLETED' }),
  );
  expect(signalled.status).toBe(200);
  expect(await signalled.json()).toMatchObject({ received: true });

  const unknown = `nobody-${randomUUID().slice(0, 8)}`;
  const kept = await api.sendCallback(
    '/callbacks/withdrawals',
    JSON.stringify({ external_id: unknown, status: 'FAILED', reason: 'Invalid key' }),
    `evt-${unknown}`,
  );
  expect(kept.status).toBe(202);
  expect((await unmatched()).data).toContainEqual(
    expect.objectContaining({
      reference: unknown,
      signed: true,
      count: 1,
      payload: { external_id: unknown, status: 'FAILED', reason: 'Invalid key' },
    }),
  );

  // Without a status it still names its payout: a hint to look now, never a refusal of well-formed JSON.
  const noStatus = await api.sendCallback('/callbacks/withdrawals', JSON.stringify({ external_id: externalId }));
  expect(noStatus.status).toBe(200);
});

test('a retried event is kept once (counted), with only the fields the engine reads, each cut short', async () => {
  const reference = `dup-${randomUUID().slice(0, 8)}`;
  const body = JSON.stringify({
    transaction_id: 'wd_77',
    external_id: reference,
    status: 'FAILED',
    amount: 25,
    fee: 0.5,
    total: 25.5,
    type: 'Withdrawal',
    updated_at: new Date().toISOString(),
    reason: 'r'.repeat(200 * 1024),
    pix_key: 'ana@example.com',
    receiver: { name: 'Ana Souza', document: '52998224725' },
  });
  expect((await api.sendCallback('/callbacks/withdrawals', body, `evt-${reference}`)).status).toBe(202);
  // The provider's retry is signed again, at its own time: a new request with the same event id.
  expect((await api.sendCallback('/callbacks/withdrawals', body, `evt-${reference}`, 1)).status).toBe(202);

  const kept = (await unmatched()).data.filter((entry) => entry.reference === reference);
  expect(kept).toHaveLength(1);
  expect(kept[0]).toMatchObject({ eventId: `evt-${reference}`, count: 2, signed: true });
  expect(Object.keys(kept[0]?.payload ?? {}).sort()).toEqual(['external_id', 'reason', 'status', 'transaction_id']);
  expect(String(kept[0]?.payload?.reason)).toHaveLength(MAX_FIELD_LENGTH);
  expect(kept[0]?.problem).toBeUndefined();
});

test('past UNMATCHED_CALLBACKS_MAX the oldest are dropped and counted', async () => {
  const before = await unmatched();
  const references = Array.from({ length: 4 }, (_, index) => `cap-${index}-${randomUUID().slice(0, 6)}`);
  for (const reference of references) {
    expect(
      (
        await api.sendCallback(
          '/callbacks/withdrawals',
          JSON.stringify({ external_id: reference, status: 'COMPLETED' }),
          `evt-${reference}`,
        )
      ).status,
    ).toBe(202);
  }
  const after = await unmatched();
  expect(after.data.map((entry) => entry.reference)).toEqual(references.slice(-3));
  expect(after.dropped).toBe(before.dropped + before.data.length + 1);
});

const freshDatabase = postgresForThisFile();

describe.each([
  [
    'SQLite',
    () =>
      openUnmatchedCallbackStore({
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'unmatched-')),
        UNMATCHED_CALLBACKS_MAX: 3,
      }),
  ],
  [
    'PostgreSQL',
    async () =>
      openUnmatchedCallbackStore({ DATA_DIR: '.', DATABASE_URL: await freshDatabase(), UNMATCHED_CALLBACKS_MAX: 3 }),
  ],
])('the store on %s', (_name, open: () => Promise<UnmatchedCallbackStore>) => {
  let store: UnmatchedCallbackStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  const route = '/callbacks/withdrawals';
  const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, second));

  test('of an unsigned callback only its ids and a count, ids cut short; the newest kept, the pruned counted', async () => {
    const long = `ref-${'x'.repeat(10_000)}`;
    expect(
      await store.add({ receivedAt: at(1), route, reference: long, providerId: 'p'.repeat(500), signed: false }),
    ).toBe(true);
    expect(await store.add({ receivedAt: at(2), route, reference: long, signed: false })).toBe(false);
    expect(
      await store.add({
        receivedAt: at(3),
        route,
        reference: 'b',
        eventId: 'evt-b',
        signed: true,
        payload: { external_id: 'b', receiver: { name: 'Ana' } },
      }),
    ).toBe(true);
    expect(
      await store.add({ receivedAt: at(4), route, reference: 'c', signed: true, payload: { external_id: 'c' } }),
    ).toBe(true);
    expect(await store.list()).toEqual({
      data: [
        {
          receivedAt: at(2).toISOString(),
          firstReceivedAt: at(1).toISOString(),
          route,
          reference: long.slice(0, MAX_ID_LENGTH - 1) + '…',
          providerId: 'p'.repeat(MAX_ID_LENGTH - 1) + '…',
          signed: false,
          count: 2,
        },
        {
          receivedAt: at(3).toISOString(),
          firstReceivedAt: at(3).toISOString(),
          route,
          reference: 'b',
          eventId: 'evt-b',
          signed: true,
          count: 1,
          payload: { external_id: 'b', receiver: '{"name":"Ana"}' },
        },
        {
          receivedAt: at(4).toISOString(),
          firstReceivedAt: at(4).toISOString(),
          route,
          reference: 'c',
          signed: true,
          count: 1,
          payload: { external_id: 'c' },
        },
      ],
      dropped: 0,
    });

    // The unsigned reference seen again is the newest: the signed 'b' is the oldest now, and goes.
    await store.add({ receivedAt: at(5), route, reference: long, signed: false });
    await store.add({ receivedAt: at(6), route, reference: 'd', signed: false });
    const after = await store.list();
    expect(after.data.map((entry) => [entry.reference.slice(0, 4), entry.count])).toEqual([
      ['c', 1],
      ['ref-', 3],
      ['d', 1],
    ]);
    expect(after.dropped).toBe(1);
  });
});
