/**
 * The yardstick's two processes, started for a phase and stopped after it: the stand-in provider
 * (bare-signaller.ts) and the bare payout's worker (bench-worker.ts) on their own task queue. `settled`
 * emits once per bare payout that ended.
 */
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import { freePort } from '../../src/net/free-port';
import { pollUntil, StopPolling } from '../../src/util/poll';
import { hasExited, spawnService, spawnWaitingForLog, stopChild } from '../stack/child-services';

export const BARE_TASK_QUEUE = 'bench-bare';

export interface BarePhase {
  worker: ChildProcess;
  signaller: ChildProcess;
  settled: EventEmitter;
  stop(): Promise<void>;
}

export async function startBarePhase(env: NodeJS.ProcessEnv): Promise<BarePhase> {
  const phaseEnv = { ...env, BENCH_SIGNALLER_PORT: String(await freePort()), TEMPORAL_TASK_QUEUE: BARE_TASK_QUEUE };
  const signaller = spawnService('bench-signaller', { env: phaseEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  const settled = new EventEmitter();
  let listening = false;
  if (!signaller.stdout) throw new Error('the bare signaller has no output to read');
  createInterface({ input: signaller.stdout }).on('line', (line) => {
    if (line.startsWith('settled ')) settled.emit('settled');
    else if (line === 'signaller.listening') listening = true;
  });
  try {
    await pollUntil(
      () => {
        if (hasExited(signaller)) throw new StopPolling('the bare signaller exited during start-up');
        return listening ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100, description: 'the bare signaller to listen' },
    );
    const worker = await spawnWaitingForLog('bench-worker', { ...phaseEnv, LOG_LEVEL: 'info' }, '"worker.started"');
    return {
      worker,
      signaller,
      settled,
      stop: async () => {
        await stopChild(worker, 30_000);
        await stopChild(signaller, 10_000);
      },
    };
  } catch (error) {
    await stopChild(signaller, 10_000);
    throw error;
  }
}
