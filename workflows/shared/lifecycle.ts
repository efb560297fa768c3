/**
 * The status/transition recorder every lifecycle shares: the allowed transitions are data, a move
 * outside them throws (a bug, not a business outcome), every move is recorded with its time and cause,
 * and the lifecycle's own state search attribute follows the state so operators can filter on it.
 */
import type { defineSearchAttributeKey, SearchAttributes } from '@temporalio/common';
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { Transition, TransitionTable } from '../../src/contracts/lifecycle';

export class IllegalTransitionError extends Error {
  constructor(from: string, to: string) {
    super(`illegal transition ${from} -> ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

type KeywordAttribute = ReturnType<typeof defineSearchAttributeKey<'KEYWORD'>>;

export interface LifecycleOptions<S extends string> {
  table: TransitionTable<S>;
  initial: S;
  cause: string;
  /** The search attribute that carries this lifecycle's state (PayoutStatus, BatchStatus, ...). */
  stateAttribute: KeywordAttribute;
  /** The start request already set the state attribute to the initial state: no upsert for it. */
  initialIndexed?: boolean;
  /** A run continued as new carries the transitions of the runs before; `initial` is then the current state. */
  history?: readonly Transition<S>[];
  /**
   * The business outcome of a state in the operator's words (`the buyer paid`, `declined by the card
   * issuer`), heading the workflow's current details: a workflow that ended normally is "Completed" in the
   * Temporal UI whether the payment was paid or declined, so its page must say which.
   */
  outcome?: (state: S) => string | undefined;
}

export class Lifecycle<S extends string> {
  private current: S;
  private readonly log: Transition<S>[] = [];
  private readonly table: TransitionTable<S>;
  private readonly stateAttribute: string;
  private readonly listeners: ((transition: Transition<S>, index: number) => void)[] = [];
  private readonly outcome: ((state: S) => string | undefined) | undefined;
  /** Attributes of a move indexed with the next one. */
  private deferredIndex: SearchAttributes | undefined;

  constructor(options: LifecycleOptions<S>) {
    this.table = options.table;
    this.outcome = options.outcome;
    this.stateAttribute = options.stateAttribute.name;
    this.current = options.initial;
    if (options.history) {
      this.log.push(...options.history);
      setCurrentDetails(`**${options.initial}** (continued)`);
    } else this.record(null, options.initial, options.cause, !options.initialIndexed);
  }

  get state(): S {
    return this.current;
  }

  get history(): readonly Transition<S>[] {
    return this.log;
  }

  /** The lifecycle's part of every view: where it stands and how it got there. */
  view(): { state: S; transitions: readonly Transition<S>[] } {
    return { state: this.current, transitions: this.log };
  }

  isTerminal(state: S = this.current): boolean {
    return this.table[state].length === 0;
  }

  can(to: S): boolean {
    return this.table[this.current].includes(to);
  }

  /** Whether the lifecycle was ever in `state`. */
  hasBeen(state: S): boolean {
    return this.log.some((transition) => transition.to === state);
  }

  /** Called after each move from now on, with the move and its index in the history (stable across runs). */
  onMove(listener: (transition: Transition<S>, index: number) => void): void {
    this.listeners.push(listener);
  }

  /**
   * `alsoIndex`: attributes the move makes known (the provider's id once submitted), written in the state's
   * own upsert: one history event and one visibility write instead of two. `indexed: 'with-next-move'`: the
   * state is not written to the index now, and `alsoIndex` rides the next move's upsert, or `indexDeferred` (a
   * state most runs leave within seconds, whose visibility write would cost more than it tells; the workflow's
   * details and the read model show it meanwhile).
   */
  moveTo(to: S, cause: string, alsoIndex?: SearchAttributes, indexed: 'now' | 'with-next-move' = 'now'): void {
    if (!this.can(to)) throw new IllegalTransitionError(this.current, to);
    const from = this.current;
    this.current = to;
    if (indexed === 'with-next-move') this.deferredIndex = { ...this.deferredIndex, ...alsoIndex };
    const transition = this.record(from, to, cause, indexed === 'now', alsoIndex);
    for (const listener of this.listeners) listener(transition, this.log.length - 1);
  }

  /** Writes a move left for the next one (`with-next-move`) now, with the current state: it has become worth finding. */
  indexDeferred(): void {
    if (this.deferredIndex !== undefined) this.writeIndex(this.current);
  }

  /** One upsert: the state, what the move makes known, and whatever a move before it left for the next one. */
  private writeIndex(state: S, alsoIndex?: SearchAttributes): void {
    upsertSearchAttributes({ ...this.deferredIndex, ...alsoIndex, [this.stateAttribute]: [state] });
    this.deferredIndex = undefined;
  }

  private record(from: S | null, to: S, cause: string, index: boolean, alsoIndex?: SearchAttributes): Transition<S> {
    const at = new Date().toISOString();
    const transition = { from, to, at, cause };
    this.log.push(transition);
    if (index) this.writeIndex(to, alsoIndex);
    // The Temporal UI shows it on the workflow's page: where it stands and why. Not a command: replay-neutral.
    const outcome = this.outcome?.(to);
    setCurrentDetails(outcome ? `**${to}**: ${outcome}\nsince ${at}: ${cause}` : `**${to}** since ${at}\n${cause}`);
    return transition;
  }
}
