/**
 * A chaos run: its own stack in a temporary folder (the dev server, or the cluster), the flapping webhook
 * receiver, then trial after trial (until CHAOS_TRIALS are done or the next one would not fit in the time
 * given), each judged by the checkers; the sum of the verdicts is the report. The folder (every service's
 * log, the SQLite files, PostgreSQL's) is removed after a clean run and kept, with its path in the
 * report, after one that found a problem.
 */
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PAYOUT_METHODS, type PayoutMethod } from '../../src/payouts/rails/methods';
import { StackClient } from '../cluster/stack-client';
import { COMPONENTS, startChaosStack, type ChaosStack, type ComponentName } from './chaos-stack';
import { zeroCounts, type TrialCounts } from './checker';
import { startClusterChaosStack } from './cluster-chaos-stack';
import type { Flow } from './flows';
import {
  addLifecycleVerdict,
  emptyLifecycleVerdict,
  type LifecycleKind,
  type LifecycleVerdict,
} from './lifecycle-checker';
import { Prng } from './prng';
import { planTrial, type PlanSettings } from './trial-plan';
import { runTrial, zeroKills, type TrialTimeouts } from './trial-run';
import {
  addWebhookVerdict,
  emptyWebhookVerdict,
  startFlappingEndpoint,
  type FlappingEndpoint,
  type WebhookVerdict,
} from './webhook-trial';

export interface ChaosOptions extends Omit<PlanSettings, 'seed' | 'targets'>, TrialTimeouts {
  seed: number;
  /** `postgres`: the batch store on a PostgreSQL of the run's own, killed too (the cluster's is always PostgreSQL). */
  store: 'sqlite' | 'postgres';
  /** `cluster`: the Temporal server built from the Go module on PostgreSQL, two workers (npm run cluster:install first). */
  temporal: 'dev-server' | 'cluster';
  trials: number;
  /** Whether the sandbox de-duplicates by external_id (SANDBOX_DEDUPLICATE); false proves exactly once on the engine alone. */
  deduplicate: boolean;
  /** No trial starts when it would likely end past this. */
  seconds: number;
  /** A workflow bundle already built from this checkout (a test run's); omitted: built for the run. */
  workflowBundle?: string;
  log: (line: string) => void;
}

type Counts = TrialCounts;
type LifecycleFigures = Omit<LifecycleVerdict, 'problems'>;
type WebhookFigures = Omit<WebhookVerdict, 'problems'> & { refusedAnswers: number };

export type ChaosReport = {
  trials: number;
  seed: number;
  flows: readonly Flow[];
  temporal: 'dev-server' | 'cluster';
  store: 'sqlite' | 'postgres';
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
    /** Charges, card payments and infractions against the provider's ledger. */
    lifecycles: Record<LifecycleKind, LifecycleFigures>;
    /** The merchant events at the flapping receiver (without the webhooks flow: absent). */
    webhooks?: WebhookFigures;
    /** Where the logs and state of a run that found a problem (or failed) were kept. */
    keptDataDir?: string;
    error?: string;
  };

type Failures = Pick<Counts, 'doubleDebits' | 'lost' | 'stuckWithoutReason' | 'ledgerMismatches'>;

/** Exactly the counts that must be 0 for a run to pass: the payouts', each lifecycle's, and the merchant events'. */
export function failedCounts(
  report: Failures & {
    lifecycles?: Record<LifecycleKind, Failures>;
    webhooks?: Pick<WebhookVerdict, 'lost' | 'changedOnRetry' | 'badSignatures'>;
  },
): number {
  const sum = (counts: Failures) =>
    counts.doubleDebits + counts.lost + counts.stuckWithoutReason + counts.ledgerMismatches;
  const lifecycles = Object.values(report.lifecycles ?? {}).reduce((total, counts) => total + sum(counts), 0);
  const webhooks = report.webhooks
    ? report.webhooks.lost + report.webhooks.changedOnRetry + report.webhooks.badSignatures
    : 0;
  return sum(report) + lifecycles + webhooks;
}

/** The per-trial chaos plan's defaults: a few kills in a window of 8 to 15 s, each part down for up to 3 s, the batch sent within the first 6 s. */
export const DEFAULT_PLAN = {
  submitAfterMs: [0, 6_000],
  chaosWindowMs: [8_000, 15_000],
  killGapMs: [1_500, 5_000],
  downMs: [200, 3_000],
} as const satisfies Omit<PlanSettings, 'seed' | 'batchSize' | 'flows' | 'lifecyclesPerKind' | 'targets'>;

export const DEFAULT_TIMEOUTS: TrialTimeouts = { submitMs: 180_000, settleMs: 240_000 };

async function buildWorkflowBundle(out: string, logFile: string): Promise<void> {
  const fd = openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, '..', '..', 'src', 'cli', 'build-workflows.ts'), out],
    { stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`building the workflow bundle exited with ${code} (see ${logFile})`);
}

const withoutProblems = <T extends { problems: string[] }>({
  problems: _problems,
  ...figures
}: T): Omit<T, 'problems'> => figures;

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const startedAt = Date.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payout-chaos-'));
  // mkdtemp makes it 0700; as root PostgreSQL runs as its own user, which must be able to reach its folder inside.
  chmodSync(dataDir, 0o711);
  const rng = new Prng(options.seed);
  const counts = zeroCounts();
  const kills = zeroKills();
  let lifecycles: Record<LifecycleKind, LifecycleVerdict> = {
    charge: emptyLifecycleVerdict(),
    cardPayment: emptyLifecycleVerdict(),
    infraction: emptyLifecycleVerdict(),
  };
  let webhooks = emptyWebhookVerdict();
  let endpoint: FlappingEndpoint | undefined;
  const reviewReasons: Record<string, number> = {};
  const methods = Object.fromEntries(PAYOUT_METHODS.map((method) => [method, 0])) as Record<PayoutMethod, number>;
  let resubmissions = 0;
  let trials = 0;
  let error: string | undefined;
  let stack: ChaosStack | undefined;
  try {
    if (options.temporal === 'cluster') {
      options.log(`chaos: starting the cluster in ${dataDir}`);
      stack = await startClusterChaosStack({ dataDir, deduplicate: options.deduplicate, log: options.log });
    } else {
      options.log(`chaos: starting the stack in ${dataDir}`);
      let workflowBundle = options.workflowBundle;
      if (!workflowBundle) {
        workflowBundle = path.join(dataDir, 'workflow-bundle.js');
        await buildWorkflowBundle(workflowBundle, path.join(dataDir, 'build-workflows.log'));
      }
      stack = await startChaosStack({
        dataDir,
        workflowBundle,
        deduplicate: options.deduplicate,
        store: options.store,
        log: options.log,
      });
    }
    if (options.flows.includes('webhooks')) {
      const client = StackClient.of(stack);
      // A PRNG of its own: the receiver's answers do not shift the trials' plans.
      endpoint = await startFlappingEndpoint(client, new Prng(options.seed ^ 0x5eed));
    }
    const targets = stack.components;
    const trialsStartedAt = Date.now();
    for (; trials < options.trials; trials += 1) {
      const elapsed = Date.now() - startedAt;
      const perTrial = trials === 0 ? 0 : (Date.now() - trialsStartedAt) / trials;
      if (elapsed + perTrial > options.seconds * 1_000) {
        options.log(`chaos: time is up after ${trials} trials`);
        break;
      }
      const plan = planTrial(rng, trials + 1, { ...options, targets });
      for (const item of plan.items) methods[item.method] += 1;
      const result = await runTrial(stack, plan, options, options.log, startedAt, endpoint);
      for (const name of COMPONENTS) kills[name] += result.kills[name];
      lifecycles = {
        charge: addLifecycleVerdict(lifecycles.charge, result.lifecycles.charge),
        cardPayment: addLifecycleVerdict(lifecycles.cardPayment, result.lifecycles.cardPayment),
        infraction: addLifecycleVerdict(lifecycles.infraction, result.lifecycles.infraction),
      };
      if (result.webhooks) webhooks = addWebhookVerdict(webhooks, result.webhooks);
      resubmissions += result.resubmissions;
      const { problems, reviewReasons: trialReasons, ...trialCounts } = result.verdict;
      for (const key of Object.keys(counts) as (keyof Counts)[]) counts[key] += trialCounts[key];
      for (const [kind, count] of Object.entries(trialReasons))
        reviewReasons[kind] = (reviewReasons[kind] ?? 0) + count;
      const trialLifecycles = Object.fromEntries(
        Object.entries(result.lifecycles).map(([kind, verdict]) => [kind, withoutProblems(verdict)]),
      );
      options.log(
        `chaos: trial ${plan.trial} (started at ${result.seconds} s): ${JSON.stringify({ ...trialCounts, reviewReasons: trialReasons, lifecycles: trialLifecycles, ...(result.webhooks ? { webhooks: withoutProblems(result.webhooks) } : {}), kills: result.kills, resubmissions: result.resubmissions })}`,
      );
      const allProblems = [
        ...problems,
        ...Object.values(result.lifecycles).flatMap((verdict) => verdict.problems),
        ...(result.webhooks?.problems ?? []),
      ];
      for (const line of allProblems.slice(0, 20)) options.log(`chaos: trial ${plan.trial}: ${line}`);
    }
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    options.log(`chaos: run stopped: ${error}`);
  }
  const crashes = zeroKills();
  await endpoint?.close();
  if (stack) {
    for (const name of COMPONENTS) crashes[name] = stack.parts[name]?.crashes ?? 0;
    await stack.stop();
  }
  const lifecycleFigures = {
    charge: withoutProblems(lifecycles.charge),
    cardPayment: withoutProblems(lifecycles.cardPayment),
    infraction: withoutProblems(lifecycles.infraction),
  };
  const webhookFigures = endpoint ? { ...withoutProblems(webhooks), refusedAnswers: endpoint.refused } : undefined;
  const keep =
    error !== undefined ||
    failedCounts({ ...counts, lifecycles: lifecycleFigures, ...(webhookFigures ? { webhooks: webhookFigures } : {}) }) >
      0;
  if (!keep) rmSync(dataDir, { recursive: true, force: true });
  return {
    trials,
    seed: options.seed,
    flows: options.flows,
    temporal: options.temporal,
    store: options.temporal === 'cluster' ? 'postgres' : options.store,
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
    lifecycles: lifecycleFigures,
    ...(webhookFigures ? { webhooks: webhookFigures } : {}),
    crashes,
    ...(keep ? { keptDataDir: dataDir } : {}),
    ...(error ? { error } : {}),
  };
}
