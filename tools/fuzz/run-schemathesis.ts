/**
 * One schemathesis run against one OpenAPI document, every check on: its full text goes to a file, its
 * verdict is read back from schemathesis's JSON report (parsed with zod, like every other boundary).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SchemathesisCommand } from './schemathesis';

/** The settings every run shares (expected statuses of the checks): tools/fuzz/schemathesis.toml. */
export const SCHEMATHESIS_CONFIG = path.join(__dirname, 'schemathesis.toml');

export const schemathesisReportSchema = z.object({
  exit_code: z.number().int(),
  operations: z.object({ selected: z.number().int(), tested: z.number().int(), errored: z.number().int() }).nullable(),
  test_cases: z.object({
    generated: z.number().int(),
    with_failures: z.number().int(),
    unique_failures: z.number().int(),
    errored: z.number().int(),
  }),
  failures: z.array(
    z.object({ code: z.string(), title: z.string(), count: z.number().int(), operations: z.array(z.string()) }),
  ),
  errors: z.array(z.object({ title: z.string(), count: z.number().int() })),
});
export type SchemathesisReport = z.infer<typeof schemathesisReportSchema>;

export interface FuzzTarget {
  /** Names the report files. */
  name: string;
  schemaUrl: string;
  /** Sent with every request: the credentials. */
  headers: Record<string, string>;
}

export interface FuzzSettings {
  /** Test cases per operation and phase. */
  maxExamples: number;
  /** Replays a run; the report's own copy is a float, too short for schemathesis's 128-bit seeds. */
  seed: number;
  reportDir: string;
}

export interface FuzzResult {
  target: string;
  seed: number;
  report: SchemathesisReport;
  /** schemathesis's own output: every failure with its curl reproduction. */
  textReport: string;
  passed: boolean;
}

function runToExit(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  outputFile: string,
): Promise<number | null> {
  const output = openSync(outputFile, 'w');
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', output, output] });
  return new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  }).finally(() => closeSync(output));
}

export async function runSchemathesis(
  st: SchemathesisCommand,
  target: FuzzTarget,
  settings: FuzzSettings,
): Promise<FuzzResult> {
  mkdirSync(settings.reportDir, { recursive: true });
  const jsonReport = path.join(settings.reportDir, `${target.name}.json`);
  const textReport = path.join(settings.reportDir, `${target.name}.txt`);
  const args = [
    ...st.args,
    '--config-file',
    SCHEMATHESIS_CONFIG,
    'run',
    target.schemaUrl,
    '--checks',
    'all',
    // Every failure of an operation in one run, not only its first.
    '--continue-on-failure',
    '--max-examples',
    String(settings.maxExamples),
    '--seed',
    String(settings.seed),
    ...Object.entries(target.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    '--report',
    'json',
    '--report-json-path',
    jsonReport,
    '--no-color',
  ];
  // Run in the report folder: schemathesis keeps its cache of failing cases (replayed first next time) in `.schemathesis/` of its working folder.
  const exitCode = await runToExit(st.command, args, { ...process.env, ...st.env }, settings.reportDir, textReport);
  let report: SchemathesisReport;
  try {
    report = schemathesisReportSchema.parse(JSON.parse(readFileSync(jsonReport, 'utf8')));
  } catch (error) {
    throw new Error(
      `schemathesis exited with ${exitCode} and left no readable report (${error instanceof Error ? error.message : String(error)}); its output: ${textReport}`,
    );
  }
  const passed =
    exitCode === 0 && report.exit_code === 0 && report.test_cases.unique_failures === 0 && report.errors.length === 0;
  return { target: target.name, seed: settings.seed, report, textReport, passed };
}
