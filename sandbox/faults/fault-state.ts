/**
 * Fault injection, held in memory on purpose: faults belong to one test or demo session, and a
 * restart that silently kept "drop every callback" would look like a bug. Counts are deterministic
 * (the next n); shares use Math.random.
 */
import { z } from 'zod';

const countOrShareSchema = z.union([
  z.strictObject({ count: z.number().int().min(1).max(1_000_000) }),
  z.strictObject({ share: z.number().min(0).max(1) }),
]);

export const faultsSchema = z.strictObject({
  /** Added before every provider endpoint answers. */
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  /** Share of provider endpoint calls answered 503 before doing anything. */
  errorRate: z.number().min(0).max(1).optional(),
  /** The next `count` matching requests commit and are then never answered. */
  timeoutAfterCommit: z
    .strictObject({
      count: z.number().int().min(1).max(1_000),
      mode: z.enum(['hang', 'reset']),
      /** Request paths to match (exact), of any endpoint that commits state (an infraction's defense too); default: every money-moving endpoint. */
      paths: z.array(z.string().startsWith('/')).min(1).optional(),
    })
    .optional(),
  callbacks: z
    .strictObject({
      /** Callbacks never sent (kept as `dropped` in the outbox; redeliver sends them). */
      drop: countOrShareSchema.optional(),
      /** Callbacks sent twice with the same event id. */
      duplicate: countOrShareSchema.optional(),
      /** Extra delay before the first attempt of each callback. */
      delayMs: z.number().int().min(0).max(600_000).optional(),
      /** Up to this much more, at random, on each callback's delay: `delayMs` 2000 and 3000 here spread them over 2–5 s. */
      delayJitterMs: z.number().int().min(0).max(600_000).optional(),
      /** Hold callbacks and release them newest first once none was created for `reorderWindowMs`. */
      reorder: z.boolean().optional(),
      reorderWindowMs: z.number().int().min(0).max(60_000).optional(),
    })
    .optional(),
});
export type Faults = z.infer<typeof faultsSchema>;
type CountOrShare = z.infer<typeof countOrShareSchema>;

export const DEFAULT_REORDER_WINDOW_MS = 750;
export const HANG_DESTROY_AFTER_MS = 30_000;

export interface CallbackFaultDecision {
  drop: boolean;
  extraCopies: number;
  delayMs: number;
  hold: boolean;
}

export interface FaultState {
  get(): Faults;
  set(faults: Faults): void;
  clear(): void;
  /** Decided before the endpoint does anything. */
  shouldFailRequest(): boolean;
  latencyMs(): number;
  /** Consumes one `timeoutAfterCommit` count when this committed request matches. */
  takeTimeoutAfterCommit(request: { path: string; movesMoney: boolean }): 'hang' | 'reset' | undefined;
  /** Consumes the callback counts for one newly created callback. */
  decideCallback(): CallbackFaultDecision;
  reorderWindowMs(): number;
  isReordering(): boolean;
}

export function createFaultState(random: () => number = Math.random): FaultState {
  let faults: Faults = {};

  /** A count is consumed deterministically; a share is a coin flip each time. */
  const take = (rule: CountOrShare | undefined, replace: (next: CountOrShare | undefined) => void): boolean => {
    if (!rule) return false;
    if ('share' in rule) return random() < rule.share;
    replace(rule.count > 1 ? { count: rule.count - 1 } : undefined);
    return true;
  };

  const withCallbacks = (patch: Partial<NonNullable<Faults['callbacks']>>): void => {
    faults = { ...faults, callbacks: { ...faults.callbacks, ...patch } };
  };

  return {
    get: () => faults,
    set: (next) => {
      faults = next;
    },
    clear: () => {
      faults = {};
    },
    shouldFailRequest: () => (faults.errorRate ?? 0) > 0 && random() < (faults.errorRate ?? 0),
    latencyMs: () => faults.latencyMs ?? 0,
    takeTimeoutAfterCommit({ path, movesMoney }) {
      const rule = faults.timeoutAfterCommit;
      if (!rule || !(rule.paths ? rule.paths.includes(path) : movesMoney)) return undefined;
      const { timeoutAfterCommit: _consumed, ...rest } = faults;
      faults = rule.count > 1 ? { ...rest, timeoutAfterCommit: { ...rule, count: rule.count - 1 } } : rest;
      return rule.mode;
    },
    decideCallback() {
      const callbacks = faults.callbacks ?? {};
      const drop = take(callbacks.drop, (next) => withCallbacks({ drop: next }));
      const duplicate = !drop && take(callbacks.duplicate, (next) => withCallbacks({ duplicate: next }));
      return {
        drop,
        extraCopies: duplicate ? 1 : 0,
        delayMs:
          (callbacks.delayMs ?? 0) + (callbacks.delayJitterMs ? Math.floor(random() * callbacks.delayJitterMs) : 0),
        hold: callbacks.reorder === true,
      };
    },
    reorderWindowMs: () => faults.callbacks?.reorderWindowMs ?? DEFAULT_REORDER_WINDOW_MS,
    isReordering: () => faults.callbacks?.reorder === true,
  };
}
