/**
 * `npm run chaos`: starts its own stack (Temporal dev server, sandbox, worker, engine API, each its own
 * process; or the cluster) and runs trials of a batch of payouts, charges, card payments and infractions
 * under the sandbox's faults while parts are killed with SIGKILL and started again, the merchant's
 * webhook receiver flapping; then checks every one against the provider's ledger and every event at the
 * receiver (docs/reliability.md). Prints one JSON line; exits 1 on any double debit, loss, lifecycle stuck
 * without a reason, ledger mismatch or event lost or changed. CHAOS_FLOWS (all), CHAOS_STORE (sqlite),
 * CHAOS_TEMPORAL (dev-server), CHAOS_SECONDS (600), CHAOS_TRIALS (20), CHAOS_BATCH_SIZE (200),
 * CHAOS_LIFECYCLES (2 of each kind per trial), CHAOS_SEED (random, printed), SANDBOX_DEDUPLICATE (true;
 * false: a second POST of a payout is a second debit at the sandbox).
 */
import { z } from 'zod';
import { DEFAULT_PLAN, DEFAULT_TIMEOUTS, failedCounts, runChaos } from './chaos-run';
import { flowsSchema } from './flows';
import { freshSeed } from './prng';
import { toolSettingsOrExit } from '../stack/tool-settings';

const chaosEnvSchema = z.object({
  CHAOS_SECONDS: z.coerce.number().int().min(30).default(600),
  CHAOS_TRIALS: z.coerce.number().int().min(1).default(20),
  CHAOS_BATCH_SIZE: z.coerce.number().int().min(1).max(5_000).default(200),
  CHAOS_SEED: z.coerce.number().int().min(1).max(4_294_967_295).optional(),
  SANDBOX_DEDUPLICATE: z.enum(['true', 'false'], { message: 'must be true or false' }).default('true'),
  CHAOS_FLOWS: flowsSchema.default(['payouts', 'charges', 'cardPayments', 'infractions', 'webhooks']),
  CHAOS_LIFECYCLES: z.coerce.number().int().min(0).max(50).default(2),
  CHAOS_STORE: z.enum(['sqlite', 'postgres'], { message: 'must be sqlite or postgres' }).default('sqlite'),
  CHAOS_TEMPORAL: z.enum(['dev-server', 'cluster'], { message: 'must be dev-server or cluster' }).default('dev-server'),
});

async function main(): Promise<void> {
  const settings = toolSettingsOrExit(chaosEnvSchema);
  const seed = settings.CHAOS_SEED ?? freshSeed();
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const deduplicate = settings.SANDBOX_DEDUPLICATE === 'true';
  log(
    `chaos: seed ${seed} (CHAOS_SEED=${seed} replays this plan), ${settings.CHAOS_TRIALS} trials of ${settings.CHAOS_FLOWS.join(', ')} within ${settings.CHAOS_SECONDS} s ` +
      `(${settings.CHAOS_BATCH_SIZE} payouts, ${settings.CHAOS_LIFECYCLES} of each other kind per trial), on the ${settings.CHAOS_TEMPORAL}, the batch store on ${settings.CHAOS_TEMPORAL === 'cluster' ? 'postgres' : settings.CHAOS_STORE}, ` +
      `the sandbox ${deduplicate ? 'de-duplicating' : 'not de-duplicating'} by external_id`,
  );
  const report = await runChaos({
    seed,
    trials: settings.CHAOS_TRIALS,
    deduplicate,
    flows: settings.CHAOS_FLOWS,
    lifecyclesPerKind: settings.CHAOS_LIFECYCLES,
    store: settings.CHAOS_STORE,
    temporal: settings.CHAOS_TEMPORAL,
    batchSize: settings.CHAOS_BATCH_SIZE,
    seconds: settings.CHAOS_SECONDS,
    ...DEFAULT_PLAN,
    ...DEFAULT_TIMEOUTS,
    log,
  });
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(report.error !== undefined || failedCounts(report) > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
