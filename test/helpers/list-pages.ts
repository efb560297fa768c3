/** What list tests ask of a list served from the read model: every page, walked by its cursor, and whether it came newest first. */
import type { Statement } from 'better-sqlite3';
import { engineDatabasePath } from '../../src/db/database';
import { openSqlite } from '../../src/db/sqlite';
import type { EngineHarness } from './engine-harness';

/** Every item of `path` (which carries its limit), page after page by nextCursor until none. */
export async function everyPage<T>(stack: EngineHarness, path: string): Promise<T[]> {
  const seen: T[] = [];
  let cursor: string | undefined;
  do {
    const page: { status: number; body: { data: T[]; nextCursor?: string } } = await stack.api<{
      data: T[];
      nextCursor?: string;
    }>('GET', `${path}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    seen.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor);
  return seen;
}

/** The index of the first item not strictly before the next in (createdAt, id) descending; -1 when in order. */
export function firstOutOfOrder<T extends { createdAt: string }>(
  items: readonly T[],
  idOf: (item: T) => string,
): number {
  return items.findIndex((item, index) => {
    const next = items[index + 1];
    return (
      next !== undefined &&
      (next.createdAt > item.createdAt || (next.createdAt === item.createdAt && idOf(next) >= idOf(item)))
    );
  });
}

/** Where a bulk goes in the read model's database: its insert, and the select of the ids its list shows (as `id`). */
export interface BulkTable {
  insertSql: string;
  selectSql: string;
}

/**
 * A list far larger than tests can make through the API: `count` rows written straight into the stack's read-model
 * database in one transaction, from 2020-01-01 on (before the stack's own rows), `perMs` sharing each millisecond so
 * that their ids order the ties. `write` runs the table's insert for the nth row, given its id (`bulk-` and
 * fixed-width base-36 digits) and time; answers the ids the table's select reads back.
 */
export function bulkInto(
  stack: EngineHarness,
  table: BulkTable,
  { count, perMs }: { count: number; perMs: number },
  write: (insert: Statement, row: { n: number; id: string; at: number }) => void,
): string[] {
  const db = openSqlite(engineDatabasePath(stack.config.DATA_DIR), { busyTimeoutMs: 10_000 });
  try {
    const insert = db.prepare(table.insertSql);
    const base = Date.parse('2020-01-01T00:00:00.000Z');
    db.transaction(() => {
      for (let n = 0; n < count; n += 1)
        write(insert, { n, id: `bulk-${n.toString(36).padStart(4, '0')}`, at: base + Math.floor(n / perMs) });
    })();
    return db
      .prepare<[], { id: string }>(table.selectSql)
      .all()
      .map((row) => row.id);
  } finally {
    db.close();
  }
}

/** Every page of `path` together lists each of `expected` once and no other, newest first in (createdAt, id) order. */
export async function expectEachOnceInOrder<T extends { createdAt: string; externalId?: string }>(
  stack: EngineHarness,
  path: string,
  expected: readonly string[],
): Promise<void> {
  const seen = await everyPage<T>(stack, path);
  const ids = seen.map((item) => item.externalId);
  expect(ids).toHaveLength(expected.length);
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set(ids)).toEqual(new Set(expected));
  expect(firstOutOfOrder(seen, (item) => item.externalId ?? '')).toBe(-1);
}
