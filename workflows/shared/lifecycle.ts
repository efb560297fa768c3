/**
 * The status/transition recorder every lifecycle shares: the allowed transitions are data, a move
 * outside them throws (a bug, not a business outcome), every move is recorded with its time and cause,
 * and the PayoutStatus search attribute follows the state so operators can filter on it.
 */
import { upsertSearchAttributes } from '@temporalio/workflow';
import { PayoutStatus } from '../../src/temporal/search-attributes';

export interface Transition<S extends string> {
  from: S | null;
  to: S;
  at: string;
  cause: string;
}

export type TransitionTable<S extends string> = { readonly [K in S]: readonly S[] };

export class IllegalTransitionError extends Error {
  constructor(from: string, to: string) {
    super(`illegal transition ${from} -> ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

export class Lifecycle<S extends string> {
  private current: S;
  private readonly log: Transition<S>[] = [];

  constructor(
    private readonly table: TransitionTable<S>,
    initial: S,
    cause: string,
    /** initialIndexed: the start request already set PayoutStatus to the initial state. */
    options: { initialIndexed?: boolean } = {},
  ) {
    this.current = initial;
    this.record(null, initial, cause, !options.initialIndexed);
  }

  get state(): S {
    return this.current;
  }

  get history(): readonly Transition<S>[] {
    return this.log;
  }

  isTerminal(state: S = this.current): boolean {
    return this.table[state].length === 0;
  }

  can(to: S): boolean {
    return this.table[this.current].includes(to);
  }

  moveTo(to: S, cause: string): void {
    if (!this.can(to)) throw new IllegalTransitionError(this.current, to);
    const from = this.current;
    this.current = to;
    this.record(from, to, cause, true);
  }

  private record(from: S | null, to: S, cause: string, index: boolean): void {
    this.log.push({ from, to, at: new Date().toISOString(), cause });
    if (index) upsertSearchAttributes({ [PayoutStatus.name]: [to] });
  }
}
