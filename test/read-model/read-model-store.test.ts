/**
 * The read model in both dialects, on the batch store's own database (a SQLite file, and a real PostgreSQL
 * server started for this file): a write never moves a payout back to an earlier transition, a re-run
 * writes the same row, the list pages newest first by (createdAt, externalId), and the sums are exact
 * centavos by status and rail; the rows of charges, card payments and infractions likewise, one kind per list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openBatchStore } from '../../src/batches/open-batch-store';
import { payoutInput } from '../../src/lifecycles/payout-client';
import type { PayoutInput } from '../../src/payouts/payout-input';
import { acceptedPayout, payoutOfView, submittedPayout } from '../../src/read-model/payout-records';
import type { OperationRecord } from '../../src/read-model/operation-records';
import type { ReadModel } from '../../src/read-model/read-model';
import { pgReadModel, sqliteReadModel } from '../../src/read-model/sql-read-model';
import { ACCEPTED_SUBMISSION } from '../helpers/payouts';
import { postgresForThisFile } from '../helpers/postgres';
import { testConfig } from '../helpers/temporal';

const freshDatabase = postgresForThisFile();
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** The read model opened beside a batch store on the same database, as the engine opens them. */
const dialects: { name: string; open: () => Promise<{ readModel: ReadModel; close: () => Promise<void> }> }[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'read-model-'));
      folders.push(dir);
      const batches = await openBatchStore(testConfig({ DATA_DIR: dir }));
      const readModel = sqliteReadModel(path.join(dir, 'batches.sqlite'));
      return { readModel, close: async () => (await readModel.close(), await batches.close()) };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const url = await freshDatabase();
      const batches = await openBatchStore(testConfig({ DATABASE_URL: url }));
      const readModel = await pgReadModel(url);
      return { readModel, close: async () => (await readModel.close(), await batches.close()) };
    },
  },
];

const timing = { callbackWaitMs: 1, pollInitialMs: 1, pollMaxMs: 1, reviewAfterMs: 1, submitDeadlineMs: 1 };
const input = (externalId: string, amountCents = 2500, batchId?: string): PayoutInput =>
  payoutInput({ method: 'pix_key', externalId, amountCents, pixKey: '52998224725', keyType: 'CPF' }, timing, batchId);

describe.each(dialects)('$name read model', ({ open }) => {
  let db: Awaited<ReturnType<(typeof dialects)[number]['open']>>;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(() => db.close());

  test('a later transition is never overwritten by an earlier one; a re-run writes the same row; the key is kept masked only', async () => {
    const payout = input('order-1');
    const submitted = submittedPayout(payout, ACCEPTED_SUBMISSION);
    await db.readModel.recordPayout(submitted);
    await db.readModel.recordPayout(acceptedPayout(payout));
    expect(await db.readModel.findPayout('order-1')).toMatchObject({
      view: { state: 'SUBMITTED', feeCents: 125 },
      keyType: 'CPF',
      destination: '***.982.247-**',
    });

    const transitions = [
      { from: null, to: 'RECEIVED', at: '2026-01-01T00:00:00.000Z', cause: 'accepted' },
      { from: 'RECEIVED', to: 'SUBMITTED', at: '2026-01-01T00:00:01.000Z', cause: 'provider answered PROCESSING' },
      { from: 'SUBMITTED', to: 'COMPLETED', at: '2026-01-01T00:00:02.000Z', cause: 'transaction check: COMPLETED' },
    ] as const;
    const final = payoutOfView({ ...submitted.view, state: 'COMPLETED', transitions });
    await db.readModel.recordPayout(final);
    await db.readModel.recordPayout(final);
    await db.readModel.recordPayout(submitted);
    const stored = await db.readModel.findPayout('order-1');
    expect(stored).toMatchObject({
      view: { state: 'COMPLETED', feeCents: 125, totalCents: 2625, transitions },
      destination: '***.982.247-**',
    });
    expect(JSON.stringify(stored)).not.toContain('52998224725');
  });

  test('the list is newest first, by (createdAt, externalId) on equal times, filtered, and paged without duplicate or gap', async () => {
    const at = new Date('2026-03-10T12:00:00.000Z');
    const later = new Date('2026-03-10T12:00:01.000Z');
    await db.readModel.recordPayouts(
      ['a', 'c', 'b'].map((id) => acceptedPayout(input(id, 100, 'batch-1'))),
      at,
    );
    await db.readModel.recordPayouts(
      ['d', 'e'].map((id) => acceptedPayout(input(id))),
      later,
    );

    const ids: string[] = [];
    let page = await db.readModel.listPayouts({ limit: 2 });
    ids.push(...page.payouts.map((payout) => payout.view.externalId));
    while (page.next) {
      page = await db.readModel.listPayouts({ limit: 2, after: page.next });
      ids.push(...page.payouts.map((payout) => payout.view.externalId));
    }
    expect(ids).toEqual(['e', 'd', 'c', 'b', 'a']);

    const inBatch = await db.readModel.listPayouts({ limit: 10, batchId: 'batch-1' });
    expect(inBatch.payouts.map((payout) => payout.view.externalId)).toEqual(['c', 'b', 'a']);
    expect(inBatch.next).toBeUndefined();
    expect(
      (await db.readModel.listPayouts({ limit: 10, createdFrom: later })).payouts.map(
        (payout) => payout.view.externalId,
      ),
    ).toEqual(['e', 'd']);
    expect(
      (await db.readModel.listPayouts({ limit: 10, createdTo: later, status: 'RECEIVED', method: 'pix_key' })).payouts,
    ).toHaveLength(3);
  });

  test('totals are counted and summed in centavos by status and rail, over [from, to)', async () => {
    const day = new Date('2026-03-10T03:00:00.000Z');
    await db.readModel.recordPayouts([acceptedPayout(input('x', 1)), acceptedPayout(input('y', 2))], day);
    await db.readModel.recordPayout(submittedPayout(input('z', 2500), ACCEPTED_SUBMISSION), day);
    await db.readModel.recordPayout(acceptedPayout(input('outside', 999)), new Date('2026-03-11T03:00:00.000Z'));
    expect(await db.readModel.payoutTotals(day, new Date('2026-03-11T03:00:00.000Z'))).toEqual([
      { status: 'RECEIVED', method: 'pix_key', count: 2, amountCents: 3, feeCents: 0 },
      { status: 'SUBMITTED', method: 'pix_key', count: 1, amountCents: 2500, feeCents: 125 },
    ]);
  });

  test('charges, card payments and infractions: a later move is kept, each kind listed alone, newest first, by status, by deadline, paged without gap', async () => {
    const at = new Date('2026-03-10T12:00:00.000Z');
    const later = new Date('2026-03-10T12:00:01.000Z');
    const charge = (id: string, state: string, moves: number): OperationRecord => ({
      kind: 'charge',
      id,
      seq: moves - 1,
      status: state,
      amountCents: 15_025,
    });
    await db.readModel.recordOperation(charge('c-1', 'PAID', 2), at);
    await db.readModel.recordOperation(charge('c-1', 'PENDING', 1), later);
    await db.readModel.recordOperation(charge('c-2', 'PENDING', 1), later);
    await db.readModel.recordOperation({ ...charge('c-3', 'PENDING', 1), kind: 'card_payment' }, later);
    const deadline = '2026-03-17T12:00:00.000Z';
    await db.readModel.recordOperation(
      {
        kind: 'infraction',
        id: 'i-1',
        seq: 0,
        status: 'OPEN',
        amountCents: 8000,
        deadline,
      },
      at,
    );
    await db.readModel.recordOperation({ kind: 'infraction', id: 'i-2', seq: 0, status: 'NEEDS_REVIEW' }, at);

    const charges = await db.readModel.listOperations({ kind: 'charge', limit: 10 });
    expect(charges.operations.map(({ id, status, amountCents }) => ({ id, status, amountCents }))).toEqual([
      { id: 'c-2', status: 'PENDING', amountCents: 15_025 },
      { id: 'c-1', status: 'PAID', amountCents: 15_025 },
    ]);
    expect(charges.operations[1]?.createdAt).toEqual(at);
    expect(
      (await db.readModel.listOperations({ kind: 'charge', status: 'PAID', limit: 10 })).operations.map(
        (row) => row.id,
      ),
    ).toEqual(['c-1']);
    const first = await db.readModel.listOperations({ kind: 'charge', limit: 1 });
    expect(first.operations.map((row) => row.id)).toEqual(['c-2']);
    expect(first.next).toBeDefined();
    const second = await db.readModel.listOperations({
      kind: 'charge',
      limit: 1,
      ...(first.next ? { after: first.next } : {}),
    });
    expect(second.operations.map((row) => row.id)).toEqual(['c-1']);
    expect(second.next).toBeUndefined();
    expect(
      (await db.readModel.listOperations({ kind: 'card_payment', limit: 10 })).operations.map((row) => row.id),
    ).toEqual(['c-3']);

    const infractions = await db.readModel.listOperations({ kind: 'infraction', limit: 10 });
    expect(infractions.operations.find((row) => row.id === 'i-1')).toMatchObject({
      amountCents: 8000,
      deadline: new Date(deadline),
    });
    expect(infractions.operations.find((row) => row.id === 'i-2')).not.toHaveProperty('amountCents');
    expect(
      (
        await db.readModel.listOperations({
          kind: 'infraction',
          dueBefore: new Date(Date.parse(deadline) + 1),
          limit: 10,
        })
      ).operations.map((row) => row.id),
    ).toEqual(['i-1']);
    expect(
      (await db.readModel.listOperations({ kind: 'infraction', dueBefore: new Date(deadline), limit: 10 })).operations,
    ).toEqual([]);
  });
});
