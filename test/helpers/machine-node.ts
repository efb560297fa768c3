/**
 * The machine as a user's shell sees it, not as `npm test` does: npm puts node_modules/.bin folders (where the
 * pinned Node is) and its own node-gyp-bin first on PATH, and sets npm_* variables, INIT_CWD and NODE. Without
 * them, `node` is the machine's own (Debian's 20 here).
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** PATH without any folder inside a node_modules. */
export function machinePath(): string {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !dir.split(path.sep).includes('node_modules'))
    .join(path.delimiter);
}

/** This process's environment without what `npm run` added, on the machine's PATH. */
export function machineEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && !['INIT_CWD', 'NODE'].includes(name)),
  );
  return { ...env, PATH: machinePath() };
}

/** The `node` a user's shell runs: the first on the machine's PATH, with its version (e.g. "20.20.2"). */
export function machineNode(): { path: string; version: string } {
  for (const dir of machinePath().split(path.delimiter)) {
    const candidate = path.join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    return {
      path: candidate,
      version: execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, ''),
    };
  }
  throw new Error(`no node on the machine's PATH (${machinePath()})`);
}
