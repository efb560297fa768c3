/**
 * A part of a long-running local stack (`npm run cluster`) as a process a Supervisor keeps: its output
 * appended to a log file of its own, ready once its health URL answers or its output shows a marker
 * (the worker has no health endpoint), killed with SIGKILL or stopped with SIGTERM and a grace period.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, createWriteStream, openSync, readFileSync } from 'node:fs';
import type { Running } from '../chaos/supervisor';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { hasExited, spawnService, stopChild, waitHealthy, type ServiceName } from './child-services';

export type Readiness = { healthUrl: string } | { marker: string } | { probe: () => Promise<boolean> };

/** The last line a part wrote before it exited: what says why (a taken port, a bad setting). */
function lastLine(logFile: string): string {
  try {
    const lines = readFileSync(logFile, 'utf8').slice(-8_192).trim().split('\n');
    return (lines.at(-1) ?? '').slice(0, 1_000);
  } catch {
    return '(no log)';
  }
}

const exitOf = (child: ChildProcess): Promise<unknown> =>
  hasExited(child) ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));

/** Resolves once `child` is ready; rejects (and kills it) when it exits first or the deadline passes. */
async function untilReady(
  child: ChildProcess,
  name: string,
  ready: Readiness,
  timeoutMs: number,
  logFile: string,
): Promise<void> {
  const tail = () => lastLine(logFile);
  if ('healthUrl' in ready) return waitHealthy(ready.healthUrl, child, name, { timeoutMs, tail });
  let seen = false;
  if ('marker' in ready && child.stdout) {
    let recent = '';
    child.stdout.on('data', (chunk: Buffer) => {
      recent = (recent + chunk.toString()).slice(-4_096);
      seen ||= recent.includes(ready.marker);
    });
  }
  await pollUntil(
    async () => {
      if (hasExited(child)) throw new StopPolling(`${name} exited during start-up: ${tail()}`);
      return ('probe' in ready ? await ready.probe() : seen) ? true : undefined;
    },
    { timeoutMs, intervalMs: 200, description: `${name} to start` },
  );
}

/** Starts `child`'s readiness wait and wraps it as a Running; its output must already go to `logFile`. */
async function asRunning(
  child: ChildProcess,
  name: string,
  ready: Readiness,
  timeoutMs: number,
  logFile: string,
): Promise<Running> {
  // A binary that cannot be started at all (absent, not executable) reports an error and never exits.
  const spawnFailed = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`${name} could not be started: ${error.message}`))),
  );
  spawnFailed.catch(() => undefined);
  const exited = Promise.race([exitOf(child), spawnFailed.catch(() => undefined)]);
  const kill = () => {
    if (!hasExited(child) && child.pid) process.kill(-child.pid, 'SIGKILL');
  };
  try {
    await Promise.race([untilReady(child, name, ready, timeoutMs, logFile), spawnFailed]);
  } catch (error) {
    kill();
    await exited;
    throw error;
  }
  return { pid: child.pid ?? -1, exited, kill, stop: () => stopChild(child, 20_000) };
}

/** Starts the child with its output added to `logFile`, through a pipe where its readiness is a line it prints. */
function launchLogged(
  name: string,
  logFile: string,
  ready: Readiness,
  timeoutMs: number,
  start: (stdio: ['ignore', number | 'pipe', number]) => ChildProcess,
): Promise<Running> {
  const fd = openSync(logFile, 'a');
  const viaPipe = 'marker' in ready;
  let child: ChildProcess;
  try {
    child = start(['ignore', viaPipe ? 'pipe' : fd, fd]);
  } finally {
    closeSync(fd);
  }
  if (viaPipe) child.stdout?.pipe(createWriteStream(logFile, { flags: 'a' }));
  return asRunning(child, name, ready, timeoutMs, logFile);
}

/** A service of the stack (`sandbox`, `worker`, `api`), started with `env`. */
export function launchLoggedService(
  name: ServiceName,
  env: NodeJS.ProcessEnv,
  logFile: string,
  ready: Readiness,
  timeoutMs = 120_000,
): Promise<Running> {
  return launchLogged(name, logFile, ready, timeoutMs, (stdio) => spawnService(name, { env, stdio }));
}

/** Any executable, in its own process group, started with `env` (added to this process's). */
export function launchLoggedBinary(
  name: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  ready: Readiness,
  timeoutMs = 120_000,
): Promise<Running> {
  return launchLogged(name, logFile, ready, timeoutMs, (stdio) =>
    spawn(command, args, { env: { ...process.env, ...env }, stdio, detached: true }),
  );
}
