/**
 * What one trial does, drawn up front from the run's PRNG in a fixed order: the batch, the sandbox's
 * faults and the kill schedule. The same seed gives the same plans; what the processes do in between
 * (timings on a loaded machine) is not replayable, the plan is.
 */
import { centavosToReais } from '../../src/money/centavos';
import { PAYOUT_METHODS, type PayoutMethod } from '../../src/payouts/rails/methods';
import { buildBrCode } from '../../src/pix/brcode';
import type { Faults } from '../../sandbox/faults/fault-state';
import { SEEDED_USERS } from '../../sandbox/store/users';
import type { ComponentName } from './chaos-stack';
import type { Flow } from './flows';
import { planLifecycles, type LifecyclePlan } from './lifecycle-trial';
import type { Prng } from './prng';

/** One item of the batch request, of any rail; `amount` on each, so that the checker knows the provider's rule for it. */
export type PlannedItem = { externalId: string; amount: number } & (
  | { method: 'pix_key'; pixKey: string; keyType: 'EMAIL' }
  | { method: 'pix_copy_paste'; emv: string }
  /** The provider knows an internal transfer by its own id only: the description names the item, for the checker. */
  | { method: 'internal'; email: string; description: string }
  | { method: 'crypto'; wallet: string }
);

const CRYPTO_WALLET = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
/** The sandbox's default crypto bounds are R$ 50 to R$ 50,000. */
const CRYPTO_MIN_REAIS = 50;

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
  /** The charges, card payments and infractions driven beside the batch. */
  lifecycles: LifecyclePlan;
  /** When the batch is sent, from the trial's start: kills may come before, so the request meets a dead API or Temporal. */
  submitAfterMs: number;
}

export interface PlanSettings {
  seed: number;
  /** Payouts in the batch (0 without the payouts flow: no batch). */
  batchSize: number;
  flows: readonly Flow[];
  /** Charges, card payments and infractions of each kind per trial. */
  lifecyclesPerKind: number;
  /** The parts the stack has, in the order the kills are drawn from (the default stack's order keeps old seeds' plans). */
  targets: readonly ComponentName[];
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

function itemCents(rng: Prng, minReais: number): number {
  const reais = rng.int(minReais, 500) * 100;
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
  for (let at = 0; ;) {
    const afterMs = rng.int(...settings.killGapMs);
    at += afterMs;
    if (at > windowMs) return kills;
    kills.push({ afterMs, target: rng.pick(settings.targets), downMs: rng.int(...settings.downMs) });
  }
}

function planItem(rng: Prng, externalId: string, index: number): PlannedItem {
  const method: PayoutMethod = rng.pick(PAYOUT_METHODS);
  const cents = itemCents(rng, method === 'crypto' ? CRYPTO_MIN_REAIS : 1);
  const amount = centavosToReais(cents);
  switch (method) {
    case 'pix_key':
      return { externalId, method, amount, pixKey: `seller${index}@example.com`, keyType: 'EMAIL' };
    case 'pix_copy_paste':
      return {
        externalId,
        method,
        amount,
        emv: buildBrCode({
          pixKey: `shop${index}@example.com`,
          merchantName: 'Loja Caos',
          merchantCity: 'SAO PAULO',
          txid: `CAOS${index}`,
          amountCentavos: cents,
        }),
      };
    case 'internal':
      return { externalId, method, amount, email: SEEDED_USERS.recipient.email, description: externalId };
    case 'crypto':
      return { externalId, method, amount, wallet: CRYPTO_WALLET };
  }
}

export function planTrial(rng: Prng, trial: number, settings: PlanSettings): TrialPlan {
  const prefix = `chaos-${settings.seed}-${trial}`;
  const batchSize = settings.flows.includes('payouts') ? settings.batchSize : 0;
  const items = Array.from({ length: batchSize }, (_, index) => planItem(rng, `${prefix}-${index}`, index));
  return {
    trial,
    batchId: prefix,
    items,
    faults: planFaults(rng),
    kills: planKills(rng, settings),
    submitAfterMs: rng.int(...settings.submitAfterMs),
    lifecycles: planLifecycles(prefix, settings.flows, { perKind: settings.lifecyclesPerKind }),
  };
}
