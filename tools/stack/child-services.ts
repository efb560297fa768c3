/**
 * The stack's parts as child processes: started from their entry points in their own process
 * groups, waited on through their health endpoints, stopped with SIGTERM and a grace period.
 * Used by `npm start`, the benchmark, the fuzz run and `npm run cluster`.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { STACK_PARENT_PID_ENV } from '../../src/cli/parent-watch';

const ROOT = path.join(__dirname, '..', '..');

/** Each service's entry point: the engine's in src/cli, the provider sandbox's own, the benchmark's yardsticks' (the cluster's bare payout's worker and signaller, the bench's minimal payout). */
const ENTRY_POINTS = {
  api: 'src/cli/api.ts',
  worker: 'src/cli/worker.ts',
  'build-workflows': 'src/cli/build-workflows.ts',
  sandbox: 'sandbox/main.ts',
  'bench-worker': 'tools/bench/bench-worker.ts',
  'bench-signaller': 'tools/bench/bare-signaller.ts',
  'minimal-payout': 'tools/bench/minimal-payout/service.ts',
} as const;

export type ServiceName = keyof typeof ENTRY_POINTS;

/**
 * Node flags per service; keep in step with the npm scripts of the same name. The worker's heap is
 * capped because V8 otherwise grows it lazily towards a limit derived from the machine's memory: the
 * cap keeps its memory flat under load (docs/benchmarks.md) at no cost in throughput. The young
 * generation is capped too: Node 24's V8 lets each semi-space grow to 64 MB (Node 20's: 16 MB), which
 * took the worker's peak about 200 MB higher; 16 MB keeps it where it was on Node 20.
 */
const WORKER_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=16'] as const;

/** The bench's yardsticks' workers run under the engine worker's flags, so that their GC is the same. */
export const SERVICE_NODE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  worker: WORKER_FLAGS,
  'bench-worker': WORKER_FLAGS,
  'minimal-payout': WORKER_FLAGS,
};

/**
 * With SERVICE_CPU_PROFILE_DIR set, each service writes V8 CPU profiles of its threads into
 * `<dir>/<service>/` when it exits (how docs/benchmarks.md finds where a payout's CPU goes).
 */
function profilingFlags(name: string): string[] {
  const dir = process.env.SERVICE_CPU_PROFILE_DIR;
  return dir ? ['--cpu-prof', '--cpu-prof-interval=500', `--cpu-prof-dir=${path.join(dir, name)}`] : [];
}

export function spawnService(
  name: ServiceName,
  options: { env?: NodeJS.ProcessEnv; stdio?: StdioOptions; args?: readonly string[] } = {},
): ChildProcess {
  return spawn(
    process.execPath,
    [
      ...(SERVICE_NODE_FLAGS[name] ?? []),
      ...profilingFlags(name),
      '--import',
      'tsx',
      path.join(ROOT, ENTRY_POINTS[name]),
      ...(options.args ?? []),
    ],
    {
      stdio: options.stdio ?? 'inherit',
      // Its own process group (Ctrl-C reaches the launcher only), and it stops itself if the launcher dies.
      env: { ...(options.env ?? process.env), [STACK_PARENT_PID_ENV]: String(process.pid) },
      detached: true,
    },
  );
}

/** Runs an entry point to its end (`build-workflows`); rejects unless it exits 0. Its errors go to this process's stderr, or all its output to `logFile`. */
export async function runToExit(
  name: ServiceName,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  logFile?: string,
): Promise<void> {
  const fd = logFile === undefined ? undefined : openSync(logFile, 'a');
  const child = spawnService(name, {
    env,
    args,
    stdio: fd === undefined ? ['ignore', 'ignore', 'inherit'] : ['ignore', fd, fd],
  });
  if (fd !== undefined) closeSync(fd);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${name} exited with ${code}${logFile ? ` (see ${logFile})` : ''}`);
}

/** Resolves once `pid` no longer exists: for a process that is not this one's child (a dev server's, PostgreSQL's postmaster). */
export async function processGone(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (hasExited(child)) return;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (!hasExited(child) && child.pid) process.kill(-child.pid, 'SIGKILL');
  }, graceMs);
  await done;
  clearTimeout(timer);
}

/**
 * A service whose output is not shown: its stdout is drained and the last 10 KB kept, so that a service
 * that exits (a taken port, a bad setting: its last log lines say which) can be explained.
 */
export function spawnKeepingTail(
  name: ServiceName,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; tail: () => string } {
  const child = spawnService(name, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-10_000);
  });
  return { child, tail: () => output };
}

/** Resolves once `url` answers 2xx; a service that exits first fails it, with its last output when `tail` has it. */
export async function waitHealthy(
  url: string,
  child: ChildProcess,
  name: string,
  options: { timeoutMs?: number; tail?: () => string } = {},
): Promise<void> {
  await pollUntil(
    async () => {
      if (hasExited(child))
        throw new StopPolling(`${name} exited during start-up${options.tail ? `: ${options.tail()}` : ''}`);
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return response.ok ? true : undefined;
    },
    { timeoutMs: options.timeoutMs ?? 60_000, intervalMs: 200, description: `${name} at ${url}` },
  );
}

/** Starts a service and resolves once its output shows `marker` (the worker has no health endpoint). */
export async function spawnWaitingForLog(
  name: ServiceName,
  env: NodeJS.ProcessEnv,
  marker: string,
): Promise<ChildProcess> {
  const { child, tail } = spawnKeepingTail(name, env);
  await pollUntil(
    () => {
      if (hasExited(child)) throw new StopPolling(`${name} exited: ${tail()}`);
      return tail().includes(marker) ? true : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 100, description: `${name} to start` },
  );
  return child;
}

function statusBytes(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Peak resident set size of a live process, in bytes (Linux: VmHWM). */
export function peakRssBytes(pid: number): number | undefined {
  return statusBytes(pid, 'VmHWM');
}

/** Resident set size of a live process now, in bytes (Linux: VmRSS). */
export function rssBytes(pid: number): number | undefined {
  return statusBytes(pid, 'VmRSS');
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces); undefined once it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
  } catch {
    return undefined;
  }
}

const ticksToSeconds = (ticks: number): number | undefined =>
  Number.isFinite(ticks) ? ticks / CLOCK_TICKS_PER_SECOND : undefined;

/** CPU time (user + system) a process has used so far, in seconds; undefined once it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  const fields = statFields(pid);
  // utime and stime are the 12th and 13th of those fields.
  return fields ? ticksToSeconds(Number(fields[11]) + Number(fields[12])) : undefined;
}

/**
 * CPU time of a server that works through child processes (PostgreSQL's backends): its own, its children's
 * that have exited (cutime, cstime), and its live children's; undefined once it is gone.
 */
export function treeCpuSeconds(pid: number): number | undefined {
  const fields = statFields(pid);
  if (!fields) return undefined;
  const own = ticksToSeconds(Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) ?? 0;
  let children: string[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    // No children file (an older kernel): the exited children's time is still counted.
  }
  return children.reduce((sum, child) => sum + (treeCpuSeconds(Number(child)) ?? 0), own);
}

// USER_HZ: 100 on every Linux the engine targets.
const CLOCK_TICKS_PER_SECOND = 100;
