/**
 * A real PostgreSQL server for one test file, from the machine's binaries (Debian's `postgresql`
 * package: the newest /usr/lib/postgresql/<version>/bin; PG_BIN_DIR to use others): initdb into a temporary directory,
 * pg_ctl start on a free loopback port, stop and delete in afterAll. PostgreSQL refuses to run as root:
 * as root, the binaries run as the `postgres` user, which owns the directory. Durability is off (the
 * data is thrown away), which makes it start and write fast.
 */
import { execFile } from 'node:child_process';
import { existsSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from '../../src/net/free-port';

const run = promisify(execFile);
const DEBIAN_DIR = '/usr/lib/postgresql';
const SERVER_USER = 'postgres';

export interface TestPostgres {
  port: number;
  /** postgres://… of a database on this server. */
  url(database: string): string;
  /** Creates an empty database (a fresh name each call unless given) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}

let databases = 0;

/** Debian installs each major version side by side: the newest one. */
function debianBinDir(): string {
  const versions = existsSync(DEBIAN_DIR) ? readdirSync(DEBIAN_DIR).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
  return path.join(DEBIAN_DIR, newest, 'bin');
}

export async function startPostgres(): Promise<TestPostgres> {
  const binDir = process.env.PG_BIN_DIR ?? debianBinDir();
  const bin = (name: string) => path.join(binDir, name);
  if (!existsSync(bin('initdb')) || !existsSync(bin('pg_ctl'))) {
    throw new Error(`PostgreSQL binaries not found in ${binDir}: install Debian's postgresql package (apt-get install -y postgresql) or set PG_BIN_DIR`);
  }
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pg-test-'));
  if (asRoot) {
    const [uid, gid] = await Promise.all([run('id', ['-u', SERVER_USER]), run('id', ['-g', SERVER_USER])]);
    chownSync(dir, Number(uid.stdout.trim()), Number(gid.stdout.trim()));
  }
  const exec = (name: string, args: string[]) => (asRoot ? run('runuser', ['-u', SERVER_USER, '--', bin(name), ...args]) : run(bin(name), args));
  const data = path.join(dir, 'data');
  const port = await freePort();
  await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const serverOptions = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1'", '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
  await exec('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', serverOptions.join(' '), '-w', 'start']);

  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name = `test_${process.pid}_${(databases += 1)}`) {
      const admin = new Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    async stop() {
      try {
        await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
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

/** One PostgreSQL server for the test file, started before its tests and stopped after them: call the answer for a fresh database. */
export function postgresForThisFile(): () => Promise<string> {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());
  return () => {
    if (!server) throw new Error('the PostgreSQL server did not start');
    return server.createDatabase();
  };
}
