/**
 * PostgreSQL under the stores (src/db/sql.ts): a pool of connections, a transaction on one of them;
 * times are TIMESTAMPTZ by the server's clock (machines' clocks differ); lists travel as arrays.
 */
import type { Pool } from 'pg';
import { inTransaction } from './postgres';
import type { Column, Sql, SqlDialect, SqlResult, SqlRunner } from './sql';

interface Queryable {
  query(text: string, params: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

function runOn(client: Queryable): Sql {
  return {
    async query<R>(text: string, params: readonly unknown[] = []): Promise<SqlResult<R>> {
      const result = await client.query(text, [...params]);
      return { rows: result.rows as R[], changes: result.rowCount ?? 0 };
    },
  };
}

export class PgRunner implements SqlRunner {
  private closing: Promise<void> | undefined;
  private readonly direct: Sql;

  constructor(readonly pool: Pool) {
    this.direct = runOn(pool);
  }

  query<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<SqlResult<R>> {
    return this.direct.query<R>(text, params);
  }

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, (client) => work(runOn(client)));
  }

  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }
}

export const postgresDialect: SqlDialect = {
  schema: {
    engine: 'postgres',
    time: 'TIMESTAMPTZ',
    int64: 'BIGINT',
    serial: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
    bytes: 'BYTEA',
    tableEnd: '',
    covering: (keys, carried) => `(${keys}) INCLUDE (${carried})`,
  },
  now: 'now()',
  msBefore: (param) => `now() - ${param} * interval '1 millisecond'`,
  forUpdate: ' FOR UPDATE',
  timeParam: (at) => at,
  timeOf: (value) => value as Date,
  rows(alias: string, columns: readonly Column[], rows: readonly (readonly unknown[])[], firstParam: number) {
    const arrays = columns.map((column, index) => `$${firstParam + index}::${column.type}[]`);
    return {
      sql: `unnest(${arrays.join(', ')}) AS ${alias} (${columns.map((column) => column.name).join(', ')})`,
      params: columns.map((_, index) => rows.map((row) => row[index])),
    };
  },
};
