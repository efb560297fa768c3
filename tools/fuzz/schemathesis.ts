/**
 * Finds schemathesis (the OpenAPI fuzzer of `npm run fuzz`), installing it when missing: an explicit
 * SCHEMATHESIS_PATH, otherwise the pinned PyPI wheel in `.tools/python/schemathesis`. Never whatever
 * `st` is on PATH: the checks change between versions, and the documents are held to one version's.
 */
import { execFileSync } from 'node:child_process';
import { findPython, isExecutable, pipInstallWheel, wheelDir, wheelInstalled, type PinnedWheel } from '../pip-wheels';

export const SCHEMATHESIS: PinnedWheel = { pypiPackage: 'schemathesis', pypiVersion: '4.32.5' };

/** How to run schemathesis: `command ...args run ...`, with `env` added to the environment. */
export interface SchemathesisCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export class SchemathesisNotFoundError extends Error {
  constructor(reason: string) {
    super(
      `schemathesis not found: ${reason}\n` +
        `Install it with \`npm run fuzz:install\` (python3 -m pip install --target ${wheelDir(SCHEMATHESIS)} ` +
        `${SCHEMATHESIS.pypiPackage}==${SCHEMATHESIS.pypiVersion}), or point SCHEMATHESIS_PATH at an existing \`schemathesis\` executable.`,
    );
    this.name = 'SchemathesisNotFoundError';
  }
}

export interface ResolveSchemathesisOptions {
  env?: Record<string, string | undefined>;
  /** When false, only looks; never installs. */
  install?: boolean;
  log?: (line: string) => void;
}

export function resolveSchemathesis(options: ResolveSchemathesisOptions = {}): SchemathesisCommand {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`[schemathesis] ${line}\n`));
  const explicit = env.SCHEMATHESIS_PATH;
  if (explicit) {
    if (isExecutable(explicit)) return { command: explicit, args: [], env: {} };
    throw new SchemathesisNotFoundError(`SCHEMATHESIS_PATH=${explicit} is not an executable file`);
  }
  const python = findPython();
  if (!python) throw new SchemathesisNotFoundError('no python3 on PATH');
  if (!wheelInstalled(SCHEMATHESIS)) {
    if (options.install === false)
      throw new SchemathesisNotFoundError(
        `${wheelDir(SCHEMATHESIS)} holds no ${SCHEMATHESIS.pypiPackage} ${SCHEMATHESIS.pypiVersion}`,
      );
    if (!pipInstallWheel(SCHEMATHESIS, log) || !wheelInstalled(SCHEMATHESIS))
      throw new SchemathesisNotFoundError('pip install failed');
  }
  // A `--target` install is a folder of packages, not an environment: its scripts need it on the path.
  return { command: python, args: ['-m', 'schemathesis.cli'], env: { PYTHONPATH: wheelDir(SCHEMATHESIS) } };
}

export function schemathesisVersion(st: SchemathesisCommand): string {
  return execFileSync(st.command, [...st.args, '--version'], {
    encoding: 'utf8',
    env: { ...process.env, ...st.env },
  }).trim();
}
