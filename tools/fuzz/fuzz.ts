/**
 * `npm run fuzz`: schemathesis (`--checks all`) against the engine's and the sandbox's OpenAPI
 * documents, on a stack of its own (Temporal dev server, sandbox, worker, engine API on free ports).
 * Prints a summary and exits 1 on any failure. FUZZ_MAX_EXAMPLES (100) test cases per operation and
 * phase; FUZZ_SEED to replay a run; FUZZ_REPORT_DIR (.data/fuzz) for the reports and service logs;
 * FUZZ_TEMPORAL_ADDRESS to use a running Temporal server instead of starting one.
 */
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { fuzzSummary, runFuzz } from './fuzz-run';
import { resolveSchemathesis, schemathesisVersion } from './schemathesis';

const fuzzEnvSchema = z.object({
  FUZZ_MAX_EXAMPLES: z.coerce.number().int().min(1).default(100),
  FUZZ_SEED: z.coerce.number().int().min(0).optional(),
  FUZZ_REPORT_DIR: z.string().min(1).default(path.join('.data', 'fuzz')),
  FUZZ_TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port')
    .optional(),
});

async function main(): Promise<number> {
  const env = fuzzEnvSchema.parse(process.env);
  const st = resolveSchemathesis();
  process.stderr.write(`fuzz: ${schemathesisVersion(st)}, ${env.FUZZ_MAX_EXAMPLES} examples per operation\n`);
  const results = await runFuzz(st, {
    maxExamples: env.FUZZ_MAX_EXAMPLES,
    reportDir: path.resolve(env.FUZZ_REPORT_DIR),
    seed: env.FUZZ_SEED ?? randomInt(2 ** 31),
    ...(env.FUZZ_TEMPORAL_ADDRESS ? { temporalAddress: env.FUZZ_TEMPORAL_ADDRESS } : {}),
  });
  process.stdout.write(`${fuzzSummary(results)}\n`);
  return results.every((result) => result.passed) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
