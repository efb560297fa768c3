/**
 * SQLite under the stores (src/db/sql.ts): better-sqlite3 runs each statement synchronously, so the
 * runners of a process let one piece of work at a time use their connections: a transaction's
 * statements must not interleave with another call's, and another connection of this process must not
 * wait for the write lock synchronously (busy_timeout) while a transaction of this thread holds it.
 * Times are milliseconds since the epoch; lists travel as JSON.
 */
import type Database from 'better-sqlite3';
import type { Column, Sql, SqlDialect, SqlResult, SqlRunner } from './sql';

interface Prepared {
  statement: Database.Statement;
  /** For each `?` of the statement, the index of the parameter it takes (`$2` -> 1). */
  order: number[];
}

export class SqliteRunner implements SqlRunner {
  /** One for every connection of the process (see the header). */
  private static queue: Promise<unknown> = Promise.resolve();
  private readonly prepared = new Map<string, Prepared>();
  private readonly tx: Sql = { query: (text, params) => Promise.resolve(this.run(text, params)) };

  constructor(readonly db: Database.Database) {}

  query<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<SqlResult<R>> {
    return this.exclusive(() => Promise.resolve(this.run<R>(text, params)));
  }

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      try {
        this.db.exec('BEGIN IMMEDIATE');
        const result = await work(this.tx);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw ofThisRealm(error);
      }
    });
  }

  close(): Promise<void> {
    return this.exclusive(() => {
      if (this.db.open) this.db.close();
      return Promise.resolve();
    });
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = SqliteRunner.queue.then(work);
    SqliteRunner.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private run<R>(text: string, params: readonly unknown[] = []): SqlResult<R> {
    let prepared = this.prepared.get(text);
    if (!prepared) {
      const order: number[] = [];
      const sql = text.replace(/\$(\d+)/g, (_, n: string) => {
        order.push(Number(n) - 1);
        return '?';
      });
      prepared = { statement: this.db.prepare(sql), order };
      this.prepared.set(text, prepared);
    }
    const args = prepared.order.map((index) => params[index]);
    try {
      if (prepared.statement.reader) return { rows: prepared.statement.all(...args) as R[], changes: 0 };
      return { rows: [], changes: prepared.statement.run(...args).changes };
    } catch (error) {
      throw ofThisRealm(error);
    }
  }
}

/**
 * better-sqlite3's native part keeps the SqliteError class of the first context that loaded it, so in
 * another one (a jest test file, a vm) its errors are no `instanceof Error`: rethrown as this context's
 * Error, with the SQLite code kept.
 */
function ofThisRealm(error: unknown): Error {
  if (error instanceof Error) return error;
  const { message, code } = (typeof error === 'object' && error !== null ? error : {}) as {
    message?: unknown;
    code?: unknown;
  };
  return Object.assign(
    new Error(typeof message === 'string' ? message : String(error)),
    typeof code === 'string' ? { code } : {},
  );
}

const NOW = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

export const sqliteDialect: SqlDialect = {
  schema: {
    engine: 'sqlite',
    time: 'INTEGER',
    int64: 'INTEGER',
    serial: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    bytes: 'BLOB',
    tableEnd: ' WITHOUT ROWID',
    covering: (keys, carried) => `(${keys}, ${carried})`,
  },
  now: NOW,
  msBefore: (param) => `(${NOW} - ${param})`,
  // Every transaction holds the database's write lock from its start.
  forUpdate: '',
  timeParam: (at) => at.getTime(),
  timeOf: (value) => new Date(Number(value)),
  rows(alias: string, columns: readonly Column[], rows: readonly (readonly unknown[])[], firstParam: number) {
    const selected = columns.map((column, index) =>
      column.type === 'bytea' ? `unhex(value->>${index}) AS ${column.name}` : `value->>${index} AS ${column.name}`,
    );
    const json = JSON.stringify(
      rows.map((row) => row.map((value) => (Buffer.isBuffer(value) ? value.toString('hex') : value))),
    );
    return { sql: `(SELECT ${selected.join(', ')} FROM json_each($${firstParam})) AS ${alias}`, params: [json] };
  },
};
