/**
 * What the engine's stores need of a database, so that each store is written once: statements with
 * `$1`-style placeholders, transactions, and a dialect for the few things SQLite and PostgreSQL spell
 * differently (time columns, lists passed as one parameter, row locks). The runners and dialects are in
 * sqlite-dialect.ts and postgres-dialect.ts.
 */

export interface SqlResult<R> {
  rows: R[];
  /** Rows an INSERT, UPDATE or DELETE changed. */
  changes: number;
}

export interface Sql {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<R>>;
}

export interface SqlRunner extends Sql {
  /**
   * Runs `work` in one write transaction: committed when it resolves, rolled back when it throws.
   * SQLite takes the database's write lock up front (BEGIN IMMEDIATE); PostgreSQL locks rows as
   * statements touch them, and a reader that must hold a row uses `forUpdate`.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export const COLUMN_TYPES = ['text', 'int', 'bigint', 'bytea'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface Column {
  name: string;
  type: ColumnType;
}

function isColumnType(word: string | undefined): word is ColumnType {
  return COLUMN_TYPES.some((type) => type === word);
}

/** Columns written as SQL lists them, `name type, name type` (a ColumnType each), in that order. */
export function columns(list: string): Column[] {
  return list.split(',').map((entry) => {
    const [name, type, ...rest] = entry.trim().split(/\s+/);
    if (!name || !isColumnType(type) || rest.length > 0)
      throw new Error(`column "${entry.trim()}" is not "name type" with a type of ${COLUMN_TYPES.join(', ')}`);
    return { name, type };
  });
}

/** The few words of a schema that SQLite and PostgreSQL spell differently: each module writes its tables once with them. */
export interface SchemaWords {
  readonly engine: 'sqlite' | 'postgres';
  /** A point in time: SQLite ms since the epoch, PostgreSQL TIMESTAMPTZ by the server's clock. */
  readonly time: string;
  /** A 64-bit integer: an amount in centavos, a count. */
  readonly int64: string;
  /** A primary key the database numbers, in the order rows are inserted. */
  readonly serial: string;
  /** Sealed bytes. */
  readonly bytes: string;
  /** After a table's closing parenthesis: SQLite keeps the rows in primary-key order (WITHOUT ROWID). */
  readonly tableEnd: string;
  /** The column list of an index on `keys` that answers from the index alone for `carried` too. */
  covering(keys: string, carried: string): string;
}

export interface SqlDialect {
  readonly schema: SchemaWords;
  /** The current time as the time columns hold it. */
  readonly now: string;
  /** The time `param` (a placeholder holding milliseconds) before now. */
  msBefore(param: string): string;
  /** Appended to a SELECT inside a transaction that must hold the row until it ends. */
  readonly forUpdate: string;
  /** A time as a parameter of a time column, and back. */
  timeParam(at: Date): unknown;
  timeOf(value: unknown): Date;
  /**
   * Many rows as one table of a FROM clause, named `alias` with these columns: bound as parameters
   * from `$firstParam` on (PostgreSQL: one array per column; SQLite: one JSON text).
   */
  rows(
    alias: string,
    columns: readonly Column[],
    rows: readonly (readonly unknown[])[],
    firstParam: number,
  ): { sql: string; params: unknown[] };
}

/** deadlock_detected, serialization_failure: PostgreSQL undid the statement; running it again is safe. */
const RETRYABLE_CODES = new Set(['40P01', '40001']);

/** Runs `work` again (a few times) when PostgreSQL chose it as the victim of a deadlock. */
export async function retryingConflicts<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
      if (attempt >= attempts || typeof code !== 'string' || !RETRYABLE_CODES.has(code)) throw error;
    }
  }
}
