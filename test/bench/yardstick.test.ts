/**
 * `BENCH_YARDSTICK_ONLY=1 npm run bench` with a few payouts: the bench's yardstick runs end to end (the minimal Temporal
 * payout before and after the engine, callbacks delayed) and prints the engine's CPU per payout, the minimal payout's
 * and their ratio with its target. What the figures are is the machine's business: only that they are there and
 * consistent is held here, never a time.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';

const PAYOUTS = 4;
const ROOT = path.join(__dirname, '..', '..');

const printedSchema = z.object({
  settings: z.object({ payouts: z.number(), callbackDelayMs: z.number() }),
  cpuMsPerPayout: z.object({ engine: z.number().positive() }),
  cpuMsPerMinimalPayout: z.object({ total: z.number().positive(), before: z.number(), after: z.number() }),
  ratio: z.number().positive(),
  minimalPayouts: z.object({ completed: z.number(), eagerlyStarted: z.number() }),
  completed: z.number(),
  targets: z.object({ ratioAtLeast0_85: z.boolean() }),
});

function runBench(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'tools/bench/bench.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-5_000)));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('the bench prints the engine CPU per payout, the minimal payout’s and their ratio, from payouts that all completed', async () => {
  const run = await runBench({
    BENCH_YARDSTICK_ONLY: '1',
    BENCH_PAYOUTS: String(PAYOUTS),
    BENCH_CALLBACK_DELAY_MS: '1000',
  });
  if (run.code !== 0) throw new Error(`the bench exited with ${run.code}: ${run.stderr}`);
  const printed = printedSchema.parse(JSON.parse(run.stdout));
  expect(printed.settings).toMatchObject({ payouts: PAYOUTS, callbackDelayMs: 1_000 });
  expect(printed.completed).toBe(PAYOUTS);
  // Both yardstick phases, each payout completed by its provider's callback and check; started eagerly.
  expect(printed.minimalPayouts.completed).toBe(2 * PAYOUTS);
  expect(printed.minimalPayouts.eagerlyStarted).toBeGreaterThan(0);
  expect(printed.ratio).toBeCloseTo(printed.cpuMsPerMinimalPayout.total / printed.cpuMsPerPayout.engine, 1);
  expect(printed.targets.ratioAtLeast0_85).toBe(printed.ratio >= 0.85);
}, 900_000);
