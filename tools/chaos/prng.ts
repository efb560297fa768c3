/**
 * A small seeded PRNG (mulberry32): every random choice of a chaos run (faults, kill moments, pauses,
 * amounts) is drawn from it in a fixed order, so that a seed replays the same plan.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(values: readonly T[]): T {
    const value = values[this.int(0, values.length - 1)];
    if (value === undefined) throw new Error('pick from an empty list');
    return value;
  }
}

/** A seed for a run that was not given one: printed, so that the run can be replayed. */
export function freshSeed(): number {
  return Math.floor(Math.random() * 2_147_483_647) + 1;
}
