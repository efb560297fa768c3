/**
 * `npm run fuzz` as a function: a stack of its own, then schemathesis against the engine's and the
 * sandbox's OpenAPI documents with the credentials each needs (the engine's twice: a key with every scope,
 * one that only reads), one after the other (2 cores).
 */
import { loginResponseSchema } from '../../src/payment-api/schemas/auth';
import { startFuzzStack, type FuzzStack } from './fuzz-stack';
import { runSchemathesis, type FuzzResult, type FuzzSettings, type FuzzTarget } from './run-schemathesis';
import type { SchemathesisCommand } from './schemathesis';

export interface FuzzRunOptions extends FuzzSettings {
  /** An existing Temporal frontend; omitted: the stack starts its own dev server. */
  temporalAddress?: string;
}

async function sandboxToken(stack: FuzzStack): Promise<string> {
  const response = await fetch(`${stack.sandboxUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: stack.config.PAYMENT_API_CLIENT_ID,
      client_secret: stack.config.PAYMENT_API_CLIENT_SECRET,
    }),
  });
  if (!response.ok) throw new Error(`sandbox login answered ${response.status}`);
  return loginResponseSchema.parse(await response.json()).token;
}

async function targets(stack: FuzzStack): Promise<FuzzTarget[]> {
  const { every, reader } = stack.apiKeys;
  return [
    {
      name: 'engine',
      schemaUrl: `${stack.engineUrl}/openapi.json`,
      headers: { Authorization: `Bearer ${every.secret}` },
    },
    // A key that only reads: every other operation answers its documented 403.
    {
      name: 'engine-read-only',
      schemaUrl: `${stack.engineUrl}/openapi.json`,
      headers: { Authorization: `Bearer ${reader.secret}` },
    },
    {
      name: 'sandbox',
      schemaUrl: `${stack.sandboxUrl}/openapi.json`,
      // Each endpoint reads the scheme it is documented with: a Bearer JWT, or the ci/cs headers.
      headers: {
        Authorization: `Bearer ${await sandboxToken(stack)}`,
        ci: stack.config.PAYMENT_API_CLIENT_ID,
        cs: stack.config.PAYMENT_API_CLIENT_SECRET,
      },
    },
  ];
}

export async function runFuzz(st: SchemathesisCommand, options: FuzzRunOptions): Promise<FuzzResult[]> {
  const stack = await startFuzzStack({
    logDir: options.reportDir,
    ...(options.temporalAddress ? { temporalAddress: options.temporalAddress } : {}),
  });
  try {
    const results: FuzzResult[] = [];
    for (const target of await targets(stack)) results.push(await runSchemathesis(st, target, options));
    const attempts = await stack.callbackAttempts();
    if (attempts > 0)
      throw new Error(
        `the sandbox tried to deliver ${attempts} callback(s) to fuzzed URLs; every callback must be kept`,
      );
    return results;
  } finally {
    await stack.stop();
  }
}

/** One line per document, then each failure with the operations it was found on. */
export function fuzzSummary(results: readonly FuzzResult[]): string {
  const lines: string[] = [];
  for (const { target, seed, report, textReport, passed } of results) {
    const failures = report.failures.reduce((sum, failure) => sum + failure.count, 0);
    lines.push(
      `${passed ? 'PASS' : 'FAIL'} ${target}: ${report.operations?.tested ?? 0} operations, ${report.test_cases.generated} test cases, ` +
        `${failures} failures, ${report.errors.length} errors (FUZZ_SEED=${seed}; details: ${textReport})`,
    );
    for (const failure of report.failures)
      lines.push(`  ${failure.code} ${failure.title} (${failure.count}): ${failure.operations.join(', ')}`);
    for (const error of report.errors) lines.push(`  error: ${error.title} (${error.count})`);
  }
  return lines.join('\n');
}
