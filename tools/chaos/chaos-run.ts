/**
 * A chaos run: its own stack in a temporary folder, then trial after trial (until CHAOS_TRIALS are done
 * or the next one would not fit in the time given), each judged by the checker; the sum of the verdicts
 * is the report. The folder (every service's log, the SQLite files) is removed after a clean run and
 * kept, with its path in the report, after one that found a problem.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PAYOUT_METHODS, type PayoutMethod } from '../../src/payouts/rails/methods';
import { COMPONENTS, startChaosStack, type ChaosStack, type ComponentName } from './chaos-stack';
import type { TrialVerdict } from './checker';
import { Prng } from './prng';
import { planTrial, type PlanSettings } from './trial-plan';
import { runTrial, type TrialTimeouts } from './trial-run';

export interface ChaosOptions extends Omit<PlanSettings, 'seed'>, TrialTimeouts {
  seed: number;
  trials: number;
  /** Whether the sandbox de-duplicates by external_id (SANDBOX_DEDUPLICATE); false proves exactly once on the engine alone. */
  deduplicate: boolean;
  /** No trial starts when it would likely end past this. */
  seconds: number;
  log: (line: string) => void;
}

type Counts = Omit<TrialVerdict, 'problems' | 'reviewReasons'>;

export type ChaosReport = {
  trials: number;
  seed: number;
  sandboxDeduplicates: boolean;
  seconds: number;
  kills: Record<ComponentName, number>;
  /** Exits the monkey did not cause (a worker whose Temporal went away), each followed by a restart. */
  crashes: Record<ComponentName, number>;
  /** Batch requests sent again because the API was down or answered 5xx (503 while Temporal was down). */
  resubmissions: number;
  /** The batches' items by rail. */
  methods: Record<PayoutMethod, number>;
  /** What the NEEDS_REVIEW payouts say, by kind of reason. */
  reviewReasons: Record<string, number>;
} & Counts & {
  /** Where the logs and state of a run that found a problem (or failed) were kept. */
  keptDataDir?: string;
  error?: string;
};

/** Exactly the counts that must be 0 for a run to pass. */
export function failedCounts(report: Pick<Counts, 'doubleDebits' | 'lost' | 'stuckWithoutReason' | 'ledgerMismatches'>): number {
  return report.doubleDebits + report.lost + report.stuckWithoutReason + report.ledgerMismatches;
}

/** The per-trial chaos plan's defaults: a few kills in a window of 8 to 15 s, each part down for up to 3 s, the batch sent within the first 6 s. */
export const DEFAULT_PLAN = {
  submitAfterMs: [0, 6_000],
  chaosWindowMs: [8_000, 15_000],
  killGapMs: [1_500, 5_000],
  downMs: [200, 3_000],
} as const satisfies Omit<PlanSettings, 'seed' | 'batchSize'>;

export const DEFAULT_TIMEOUTS: TrialTimeouts = { submitMs: 180_000, settleMs: 240_000 };

async function buildWorkflowBundle(out: string, logFile: string): Promise<void> {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', '..', 'src', 'cli', 'build-workflows.ts'), out], { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`building the workflow bundle exited with ${code} (see ${logFile})`);
}

const zeroCounts = (): Counts => ({ payouts: 0, completed: 0, failed: 0, cancelled: 0, needsReview: 0, needsReviewNeverSettled: 0, doubleDebits: 0, lost: 0, stuckWithoutReason: 0, ledgerMismatches: 0 });
const zeroPerPart = (): Record<ComponentName, number> => ({ worker: 0, api: 0, sandbox: 0, temporal: 0 });

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const startedAt = Date.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-chaos-'));
  const rng = new Prng(options.seed);
  const counts = zeroCounts();
  const kills = zeroPerPart();
  const reviewReasons: Record<string, number> = {};
  const methods = Object.fromEntries(PAYOUT_METHODS.map((method) => [method, 0])) as Record<PayoutMethod, number>;
  let resubmissions = 0;
  let trials = 0;
  let error: string | undefined;
  let stack: ChaosStack | undefined;
  try {
    options.log(`chaos: building the workflow bundle and starting the stack in ${dataDir}`);
    const workflowBundle = path.join(dataDir, 'workflow-bundle.js');
    await buildWorkflowBundle(workflowBundle, path.join(dataDir, 'build-workflows.log'));
    stack = await startChaosStack({ dataDir, workflowBundle, deduplicate: options.deduplicate, log: options.log });
    const trialsStartedAt = Date.now();
    for (; trials < options.trials; trials += 1) {
      const elapsed = Date.now() - startedAt;
      const perTrial = trials === 0 ? 0 : (Date.now() - trialsStartedAt) / trials;
      if (elapsed + perTrial > options.seconds * 1_000) {
        options.log(`chaos: time is up after ${trials} trials`);
        break;
      }
      const plan = planTrial(rng, trials + 1, options);
      for (const item of plan.items) methods[item.method] += 1;
      const result = await runTrial(stack, plan, options, options.log, startedAt);
      for (const name of COMPONENTS) kills[name] += result.kills[name];
      resubmissions += result.resubmissions;
      const { problems, reviewReasons: trialReasons, ...trialCounts } = result.verdict;
      for (const key of Object.keys(counts) as (keyof Counts)[]) counts[key] += trialCounts[key];
      for (const [kind, count] of Object.entries(trialReasons)) reviewReasons[kind] = (reviewReasons[kind] ?? 0) + count;
      options.log(`chaos: trial ${plan.trial} (started at ${result.seconds} s): ${JSON.stringify({ ...trialCounts, reviewReasons: trialReasons, kills: result.kills, resubmissions: result.resubmissions })}`);
      for (const line of problems.slice(0, 20)) options.log(`chaos: trial ${plan.trial}: ${line}`);
    }
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    options.log(`chaos: run stopped: ${error}`);
  }
  const crashes = zeroPerPart();
  if (stack) {
    for (const name of COMPONENTS) crashes[name] = stack.parts[name].crashes;
    await stack.stop();
  }
  const keep = error !== undefined || failedCounts(counts) > 0;
  if (!keep) rmSync(dataDir, { recursive: true, force: true });
  return {
    trials,
    seed: options.seed,
    sandboxDeduplicates: options.deduplicate,
    seconds: Math.round((Date.now() - startedAt) / 1_000),
    kills,
    payouts: counts.payouts,
    completed: counts.completed,
    failed: counts.failed,
    cancelled: counts.cancelled,
    needsReview: counts.needsReview,
    needsReviewNeverSettled: counts.needsReviewNeverSettled,
    doubleDebits: counts.doubleDebits,
    lost: counts.lost,
    stuckWithoutReason: counts.stuckWithoutReason,
    ledgerMismatches: counts.ledgerMismatches,
    resubmissions,
    methods,
    reviewReasons,
    crashes,
    ...(keep ? { keptDataDir: dataDir } : {}),
    ...(error ? { error } : {}),
  };
}
