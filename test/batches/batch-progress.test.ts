import { toBatchSummaryResponse, batchSummarySchema, type BatchSummaryResponse } from '../../src/api/batches/schemas';
import { formatDuration, renderProgress, STALLED_AFTER_MS } from '../../src/cli/batch-progress';
import { emptyCounts, type ItemState } from '../../src/batches/batch-store';

const T0 = Date.parse('2025-03-01T12:00:00Z');

function summaryWith(
  counts: Partial<Record<ItemState, { count: number; amountCents: number }>>,
  extra: { done?: boolean; finishedAt?: Date; control?: 'RUNNING' | 'PAUSED' } = {},
): BatchSummaryResponse {
  const countsByState = { ...emptyCounts(), ...counts };
  const total = Object.values(countsByState).reduce((sum, entry) => sum + entry.count, 0);
  const totalAmountCents = Object.values(countsByState).reduce((sum, entry) => sum + entry.amountCents, 0);
  const response = toBatchSummaryResponse({
    batchId: 'b-1',
    total,
    totalAmountCents,
    control: extra.control ?? 'RUNNING',
    createdAt: new Date(T0 - 1_000),
    startedAt: new Date(T0),
    ...(extra.finishedAt ? { finishedAt: extra.finishedAt } : {}),
    countsByState,
    done: extra.done ?? (countsByState.PENDING.count === 0 && countsByState.STARTED.count === 0),
    paidAmountCents: countsByState.COMPLETED.amountCents,
  });
  return batchSummarySchema.parse(response);
}

test('a running batch: bar, done/total, counts by state, amount paid, rate and time left', () => {
  const summary = summaryWith({
    COMPLETED: { count: 4_000, amountCents: 10_000_005 },
    FAILED: { count: 900, amountCents: 90_000 },
    NEEDS_REVIEW: { count: 100, amountCents: 10_000 },
    STARTED: { count: 200, amountCents: 20_000 },
    PENDING: { count: 4_800, amountCents: 480_000 },
  });
  const line = renderProgress(summary, { now: T0 + 100_000, startedAt: T0, width: 200 });
  expect(line).toBe(
    '[███████████████░░░░░░░░░░░░░░░] 5000/10000 50% | completed 4000 · failed 900 · review 100 · in flight 200 · pending 4800 | paid R$ 100000.05 of R$ 106000.05 | 50.0/s | 1m 40s left',
  );
});

test('the line never exceeds the width, and the bar shrinks first', () => {
  const summary = summaryWith({ COMPLETED: { count: 1, amountCents: 100 }, PENDING: { count: 3, amountCents: 300 } });
  const wide = renderProgress(summary, { now: T0 + 1_000, startedAt: T0, width: 200 });
  const narrow = renderProgress(summary, { now: T0 + 1_000, startedAt: T0, width: 60 });
  expect(wide).toMatch(/^\[█{7}░{23}\] 1\/4 25%/);
  expect(narrow.length).toBeLessThanOrEqual(60);
  expect(narrow).toMatch(/^\[█{2}░{8}\] 1\/4 25%.*…$/);
});

test('a finished batch shows its duration; a paused one says so; no rate before anything settled', () => {
  const done = summaryWith(
    { COMPLETED: { count: 10, amountCents: 1_000 }, CANCELLED: { count: 2, amountCents: 50 } },
    { finishedAt: new Date(T0 + 125_000) },
  );
  expect(renderProgress(done, { now: T0 + 999_000, startedAt: T0, width: 200 })).toBe(
    '[██████████████████████████████] 12/12 100% | completed 10 · cancelled 2 | paid R$ 10.00 of R$ 10.50 | 0.1/s | done in 2m 05s',
  );
  const paused = summaryWith(
    { COMPLETED: { count: 1, amountCents: 1 }, PENDING: { count: 1, amountCents: 1 } },
    { control: 'PAUSED' },
  );
  expect(renderProgress(paused, { now: T0 + 10_000, startedAt: T0, width: 200 })).toMatch(/\| paused$/);
  const fresh = summaryWith({ PENDING: { count: 5, amountCents: 5 } });
  expect(renderProgress(fresh, { now: T0, width: 200 })).toMatch(
    /0\/5 0% \| completed 0 · pending 5 \| paid R\$ 0\.00 of R\$ 0\.05 \| –\/s \| time left unknown$/,
  );
});

test('durations read as people say them', () => {
  expect(formatDuration(0)).toBe('0s');
  expect(formatDuration(59.4)).toBe('59s');
  expect(formatDuration(65)).toBe('1m 05s');
  expect(formatDuration(3_600 * 2 + 60 * 3 + 5)).toBe('2h 03m');
});

test('a batch that stopped settling says what it waits for instead of a time left that keeps counting', () => {
  const stuck = summaryWith({ COMPLETED: { count: 9, amountCents: 900 }, STARTED: { count: 1, amountCents: 100 } });
  const moving = renderProgress(stuck, {
    now: T0 + 20_000,
    startedAt: T0,
    width: 200,
    lastSettledAt: T0 + 20_000 - STALLED_AFTER_MS + 1,
  });
  expect(moving).toMatch(/\| 2s left$/);
  const stalled = renderProgress(stuck, { now: T0 + 80_000, startedAt: T0, width: 200, lastSettledAt: T0 + 20_000 });
  expect(stalled).toMatch(/\| waiting for the provider on 1 payout \(nothing settled for 1m 00s\)$/);
  const withProblem = batchSummarySchema.parse({
    ...stuck,
    problem: { activity: 'topUpBatch', message: 'disk full\u001b[2J', since: '2025-03-01T12:00:05.000Z' },
  });
  const problemLine = renderProgress(withProblem, { now: T0 + 80_000, startedAt: T0, width: 300 });
  expect(problemLine).toMatch(/\| waiting: topUpBatch keeps failing since 2025-03-01T12:00:05\.000Z: disk full/);
  expect(problemLine).not.toContain('\u001b');
});
