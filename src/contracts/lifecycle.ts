/** What every lifecycle's contract says of its moves: each recorded transition, and the table of allowed ones. */
export interface Transition<S extends string> {
  from: S | null;
  to: S;
  at: string;
  cause: string;
}

export type TransitionTable<S extends string> = { readonly [K in S]: readonly S[] };
