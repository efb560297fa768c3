/**
 * The bench's yardstick figures: the engine's CPU per payout beside the minimal Temporal payout's (minimal-phase.ts),
 * measured before and after the engine in one run (the machine's speed drifts within minutes), and their ratio.
 * A ratio in one run is the target: times differ 2–3× between machines and hours.
 */
import type { CpuReading } from './cpu-use';
import type { MinimalRunResult } from './minimal-phase';

export const TARGET_MINIMAL_RATIO = 0.85;

/** Each process's CPU per item, in milliseconds. */
export function perItem(reading: CpuReading, items: number): Record<string, number | null> {
  return Object.fromEntries(
    Object.entries(reading).map(([name, seconds]) => [
      name,
      seconds === null ? null : Number(((seconds * 1_000) / items).toFixed(1)),
    ]),
  );
}

/** NaN when any part is missing: a total never silently leaves a process out. */
export const sumOf = (values: (number | null | undefined)[]): number =>
  Number(values.reduce<number>((total, value) => total + (value ?? Number.NaN), 0).toFixed(1));

/** What the engine's payout costs: the Temporal server, the worker and the API (the provider's sandbox is neither's). */
export const engineTotal = (ms: Record<string, number | null>): number => sumOf([ms.temporal, ms.worker, ms.api]);

/** What the minimal payout costs: the Temporal server and its one process (worker, starter, callback receiver). */
const minimalTotal = (ms: Record<string, number | null>): number => sumOf([ms.temporal, ms.worker]);

function addReadings(a: CpuReading, b: CpuReading): CpuReading {
  return Object.fromEntries(
    Object.entries(a).map(([name, seconds]) => {
      const other = b[name];
      return [name, seconds === null || other === null || other === undefined ? null : seconds + other];
    }),
  );
}

export function yardstickFigures(engineMsPerPayout: number, before: MinimalRunResult, after: MinimalRunResult) {
  const ms = perItem(addReadings(before.cpu, after.cpu), before.payouts + after.payouts);
  const total = minimalTotal(ms);
  const ratio = Number((total / engineMsPerPayout).toFixed(2));
  return {
    cpuMsPerMinimalPayout: {
      temporal: ms.temporal,
      worker: ms.worker,
      sandbox: ms.sandbox,
      total,
      before: minimalTotal(perItem(before.cpu, before.payouts)),
      after: minimalTotal(perItem(after.cpu, after.payouts)),
    },
    /** Minimal ÷ engine: how close the engine's payout comes to the least a Temporal payout costs. */
    ratio,
    minimalPayouts: {
      completed: before.completed + after.completed,
      eagerlyStarted: before.eagerlyStarted + after.eagerlyStarted,
      perSecond: Number(((before.perSecond + after.perSecond) / 2).toFixed(1)),
      serverStorePerPayout: { before: before.store, after: after.store },
    },
    ratioAtLeast0_85: ratio >= TARGET_MINIMAL_RATIO,
  };
}
