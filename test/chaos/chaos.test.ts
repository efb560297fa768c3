/**
 * `SANDBOX_DEDUPLICATE=false npm run chaos`, short: two trials of 50 payouts of every rail on a stack of its
 * own (not the suite's Temporal server: this one gets killed), with the sandbox's faults on and parts killed
 * with SIGKILL. The sandbox makes a second operation for a repeated external_id, so a payout the engine
 * sent twice shows as debited twice. No payout may be debited twice, lost, stuck without a reason, or final
 * against the provider's money.
 */
import { DEFAULT_PLAN, DEFAULT_TIMEOUTS, failedCounts, runChaos } from '../../tools/chaos/chaos-run';

test('two trials under faults and kills: no double debit, nothing lost, nothing stuck without a reason', async () => {
  const log: string[] = [];
  // Seed 7 plans kills of every part in these two trials (the plan is drawn from the seed).
  const report = await runChaos({ seed: 7, trials: 2, batchSize: 50, seconds: 600, deduplicate: false, ...DEFAULT_PLAN, ...DEFAULT_TIMEOUTS, log: (line) => log.push(line) });
  const verdict = {
    trials: report.trials,
    payouts: report.payouts,
    doubleDebits: report.doubleDebits,
    lost: report.lost,
    stuckWithoutReason: report.stuckWithoutReason,
    ledgerMismatches: report.ledgerMismatches,
    error: report.error,
  };
  // The run's own log only when something is wrong: it says which payout and which kill.
  const clean = report.trials === 2 && failedCounts(report) === 0 && report.error === undefined;
  expect({ ...verdict, log: clean ? [] : log }).toEqual({
    trials: 2,
    payouts: 100,
    doubleDebits: 0,
    lost: 0,
    stuckWithoutReason: 0,
    ledgerMismatches: 0,
    error: undefined,
    log: [],
  });
  expect(report.completed + report.failed + report.cancelled + report.needsReview).toBe(100);
  expect({ sandboxDeduplicates: report.sandboxDeduplicates, everyRail: Object.values(report.methods).every((count) => count > 0) }).toEqual({ sandboxDeduplicates: false, everyRail: true });
  expect(Object.values(report.kills).reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(3);
  expect(Object.values(report.kills).filter((count) => count > 0).length).toBeGreaterThanOrEqual(3);
}, 420_000);
