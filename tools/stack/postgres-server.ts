/**
 * A PostgreSQL server from the machine's binaries (Debian's `postgresql` package: the newest
 * /usr/lib/postgresql/<version>/bin; PG_BIN_DIR to use others), in a data folder of its own: initdb when
 * the folder is new, pg_ctl start on a loopback port, stop. PostgreSQL refuses to run as root: as root,
 * the binaries run as the `postgres` user, which owns the folder. Used by `npm run cluster` (durable)
 * and the store tests (durability off: their data is thrown away, which makes it start and write fast).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);
const DEBIAN_DIR = '/usr/lib/postgresql';
const SERVER_USER = 'postgres';
/** The superuser initdb creates, trusted on loopback only. */
export const POSTGRES_SUPERUSER = 'postgres';

export interface PostgresServerOptions {
  /** Holds the cluster (`data/`), its socket and its log; created when absent. */
  dir: string;
  port: number;
  /** false: no fsync, no synchronous commit (throwaway data). */
  durable: boolean;
  /** Server settings beyond the defaults (`max_connections`, ...). */
  settings?: Readonly<Record<string, string>>;
}

export interface PostgresServer {
  port: number;
  /** postgres://… of a database on this server. */
  url(database: string): string;
  /** Creates the database unless it exists; its URL. */
  ensureDatabase(name: string): Promise<string>;
  /** The postmaster's process id (its backends are its children). */
  pid(): number | undefined;
  /** A clean shutdown (`immediate`: no checkpoint, crash recovery at the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
}

/** Debian installs each major version side by side: the newest one. */
function debianBinDir(): string {
  const versions = existsSync(DEBIAN_DIR) ? readdirSync(DEBIAN_DIR).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
  return path.join(DEBIAN_DIR, newest, 'bin');
}

async function serverUserIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', SERVER_USER]), run('id', ['-g', SERVER_USER])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export async function startPostgresServer(options: PostgresServerOptions): Promise<PostgresServer> {
  const binDir = process.env.PG_BIN_DIR ?? debianBinDir();
  const bin = (name: string) => path.join(binDir, name);
  if (!existsSync(bin('initdb')) || !existsSync(bin('pg_ctl'))) {
    throw new Error(
      `PostgreSQL binaries not found in ${binDir}: install Debian's postgresql package (apt-get install -y postgresql) or set PG_BIN_DIR`,
    );
  }
  const asRoot = process.getuid?.() === 0;
  mkdirSync(options.dir, { recursive: true });
  if (asRoot) {
    const { uid, gid } = await serverUserIds();
    chownSync(options.dir, uid, gid);
  }
  const exec = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', SERVER_USER, '--', bin(name), ...args]) : run(bin(name), args);
  const data = path.join(options.dir, 'data');
  const pgCtl = (args: string[]) => exec('pg_ctl', ['-D', data, ...args]);

  if (!existsSync(path.join(data, 'PG_VERSION'))) {
    await exec('initdb', [
      '-D',
      data,
      '-U',
      POSTGRES_SUPERUSER,
      '--auth=trust',
      ...(options.durable ? [] : ['--no-sync']),
      '-E',
      'UTF8',
      '--locale=C',
    ]);
  } else if (
    await pgCtl(['status']).then(
      () => true,
      () => false,
    )
  ) {
    // Left running by a run whose launcher was killed: it is ours (its folder), stop it before starting on the new port.
    await pgCtl(['-m', 'fast', '-w', 'stop']);
  }
  const settings: Record<string, string> = {
    listen_addresses: "'127.0.0.1'",
    ...(options.durable ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
    ...options.settings,
  };
  const serverOptions = [
    `-p ${options.port}`,
    `-k ${options.dir}`,
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ];
  await pgCtl(['-l', path.join(options.dir, 'server.log'), '-o', serverOptions.join(' '), '-w', 'start']);

  const url = (database: string) => `postgres://${POSTGRES_SUPERUSER}@127.0.0.1:${options.port}/${database}`;
  return {
    port: options.port,
    url,
    async ensureDatabase(name) {
      const admin = new Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    pid() {
      try {
        return Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        return undefined;
      }
    },
    async stop(mode = 'fast') {
      await pgCtl(['-m', mode, '-w', 'stop']);
    },
  };
}
