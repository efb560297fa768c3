/**
 * A real PostgreSQL server for one test file, from the machine's binaries (tools/stack/postgres-server.ts):
 * in a temporary directory, on a free loopback port, durability off (the data is thrown away), stopped
 * and deleted in afterAll.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startPostgresServer } from '../../tools/stack/postgres-server';
import { freePort } from '../../src/net/free-port';

export interface TestPostgres {
  port: number;
  /** postgres://… of a database on this server. */
  url(database: string): string;
  /** Creates an empty database (a fresh name each call unless given) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

let databases = 0;

export async function startPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pg-test-'));
  const server = await startPostgresServer({ dir, port: await freePort(), durable: false });
  return {
    port: server.port,
    url: (database) => server.url(database),
    createDatabase: (name = `test_${process.pid}_${(databases += 1)}`) => server.ensureDatabase(name),
    async stop() {
      try {
        await server.stop('immediate');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs `work` on one connection to the database at `url`, closed afterwards: what a test reads or writes behind a store's back. */
export async function onDatabase<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * One PostgreSQL server for the test file, started by the first test that asks for a database (a run filtered to
 * other tests never starts it) and stopped after them: call the answer for a fresh database.
 */
export function postgresForThisFile(): () => Promise<string> {
  let server: Promise<TestPostgres> | undefined;
  afterAll(async () => (await server)?.stop(), 60_000);
  return async () => {
    server ??= startPostgres();
    return (await server).createDatabase();
  };
}

/**
 * The SQL dialects a store suite runs on: both, unless TEST_SQL_DIALECTS names some (the mutation run takes SQLite
 * only: the stores' statements are written once, and a mutant of them dies on either).
 */
export function dialectsUnderTest<T extends { name: string }>(dialects: T[]): T[] {
  const wanted = process.env.TEST_SQL_DIALECTS?.split(',').map((name) => name.trim().toLowerCase());
  return wanted ? dialects.filter((dialect) => wanted.includes(dialect.name.toLowerCase())) : dialects;
}

const onPostgres = dialectsUnderTest([{ name: 'PostgreSQL' }]).length > 0;
/** `describe` and `test` for what runs on PostgreSQL only: skipped where TEST_SQL_DIALECTS leaves PostgreSQL out. */
export const describeOnPostgres: jest.Describe = onPostgres ? describe : describe.skip;
export const testOnPostgres: jest.It = onPostgres ? test : test.skip;
