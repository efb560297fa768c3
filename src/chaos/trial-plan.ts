/**
 * What one trial does, drawn up front from the run's PRNG in a fixed order: the batch, the sandbox's
 * faults and the kill schedule. The same seed gives the same plans; what the processes do in between
 * (timings on a loaded machine) is not replayable, the plan is.
 */
import { centavosToReais } from '../money/centavos';
import type { Faults } from '../sandbox/faults/fault-state';
import { COMPONENTS, type ComponentName } from './chaos-stack';
import type { Prng } from './prng';

export interface PlannedItem {
  externalId: string;
  amount: number;
  pixKey: string;
  keyType: 'EMAIL';
}

export interface PlannedKill {
  /** Wait before this kill, from the previous one (the first: from the trial's start). */
  afterMs: number;
  target: ComponentName;
  /** How long the part stays down before it is started again. */
  downMs: number;
}

export interface TrialPlan {
  trial: number;
  batchId: string;
  items: PlannedItem[];
  faults: Faults;
  kills: PlannedKill[];
  /** When the batch is sent, from the trial's start: kills may come before, so the request meets a dead API or Temporal. */
  submitAfterMs: number;
}

export interface PlanSettings {
  seed: number;
  batchSize: number;
  /** When the batch is sent within the trial: drawn in this range. */
  submitAfterMs: readonly [number, number];
  /** How long the killing goes on: drawn in this range per trial. */
  chaosWindowMs: readonly [number, number];
  killGapMs: readonly [number, number];
  downMs: readonly [number, number];
}

/** Shares of items that end FAILED at the provider (centavos .13) and that never settle there (.14, NEEDS_REVIEW). */
const FAILING_SHARE = 0.05;
const NEVER_SETTLING_SHARE = 0.03;

function itemCents(rng: Prng): number {
  const reais = rng.int(1, 500) * 100;
  if (rng.chance(FAILING_SHARE)) return reais + 13;
  if (rng.chance(NEVER_SETTLING_SHARE)) return reais + 14;
  const centavos = rng.int(0, 99);
  return reais + (centavos === 13 || centavos === 14 ? 15 : centavos);
}

function planFaults(rng: Prng): Faults {
  return {
    latencyMs: rng.int(0, 200),
    errorRate: rng.int(0, 20) / 100,
    timeoutAfterCommit: { count: rng.int(1, 5), mode: rng.pick(['hang', 'reset'] as const) },
    callbacks: { drop: { share: rng.int(0, 30) / 100 }, duplicate: { share: rng.int(0, 30) / 100 } },
  };
}

function planKills(rng: Prng, settings: PlanSettings): PlannedKill[] {
  const windowMs = rng.int(...settings.chaosWindowMs);
  const kills: PlannedKill[] = [];
  for (let at = 0; ; ) {
    const afterMs = rng.int(...settings.killGapMs);
    at += afterMs;
    if (at > windowMs) return kills;
    kills.push({ afterMs, target: rng.pick(COMPONENTS), downMs: rng.int(...settings.downMs) });
  }
}

export function planTrial(rng: Prng, trial: number, settings: PlanSettings): TrialPlan {
  const prefix = `chaos-${settings.seed}-${trial}`;
  const items = Array.from({ length: settings.batchSize }, (_, index) => ({
    externalId: `${prefix}-${index}`,
    amount: centavosToReais(itemCents(rng)),
    pixKey: `seller${index}@example.com`,
    keyType: 'EMAIL' as const,
  }));
  return { trial, batchId: prefix, items, faults: planFaults(rng), kills: planKills(rng, settings), submitAfterMs: rng.int(...settings.submitAfterMs) };
}
