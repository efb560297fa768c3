/**
 * PostgreSQL as a part a Supervisor keeps: the first start runs initdb, every later one starts the same
 * data folder on the same port (the engine's and Temporal's connection strings do not change), and a
 * kill is what a crash of the machine's database is: `pg_ctl stop -m immediate` (every backend gone at
 * once, no checkpoint, crash recovery from the WAL at the next start). A SIGKILL of the postmaster alone
 * would leave its backends holding the shared memory, and no new postmaster could start on the folder.
 */
import type { Running } from '../chaos/supervisor';
import { processGone } from './child-services';
import {
  POSTGRES_SUPERUSER,
  startPostgresServer,
  type PostgresServer,
  type PostgresServerOptions,
} from './postgres-server';

export interface PostgresPart {
  port: number;
  /** Starts the server (a Supervisor's launcher). */
  launch(): Promise<Running>;
  /** postgres://… of a database on this server (valid across restarts: same port). */
  url(database: string): string;
  /** The server of the last start; undefined before the first. */
  current(): PostgresServer | undefined;
}

export function postgresPart(options: PostgresServerOptions): PostgresPart {
  let server: PostgresServer | undefined;
  const url = (database: string) => `postgres://${POSTGRES_SUPERUSER}@127.0.0.1:${options.port}/${database}`;
  return {
    port: options.port,
    url,
    current: () => server,
    async launch() {
      const started = await startPostgresServer(options);
      server = started;
      const pid = started.pid() ?? -1;
      return {
        pid,
        exited: processGone(pid),
        // Fire and forget: `exited` says when it is gone.
        kill: () => void started.stop('immediate').catch(() => undefined),
        stop: () => started.stop('fast'),
      };
    },
  };
}
