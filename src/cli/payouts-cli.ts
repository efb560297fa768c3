/**
 * `payouts`: payouts from a terminal. `payouts submit payouts.csv --watch` sends a file to the engine API
 * and follows the batch until it is done; `payouts status <batchId>` shows it once; `payouts reconcile
 * <payoutId>` settles one payout from the provider (the recheck endpoint); `payouts get`, `list` and
 * `events` read payouts. Every subcommand prints JSON instead with `--json`. The calls go through the
 * client typed from the served OpenAPI document (src/client/engine-client.ts). The engine's URL and key
 * come from PAYOUTS_API_URL and PAYOUTS_API_KEY. Exit codes: 0 done (or accepted, or settled, or read),
 * 1 refused or unreachable, 2 done with FAILED or NEEDS_REVIEW items (a reconciled payout that needs review).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { RowIssue } from '../validation/issues';
import { externalIdSchema } from '../validation/external-id';
import { EngineApiError, EngineApiUnreachableError, EngineClient, type BatchSummary } from '../client/engine-client';
import { payoutListQuerySchema } from '../api/payouts/list-schemas';
import { formatReais, renderFailure, renderProgress, settledCount } from './batch-progress';
import { eventsCommand, getCommand, listCommand } from './payout-commands';
import { reconcilePayout } from './reconcile';
import { batchRequestBodySchema } from '../batches/batch-request';
import { printable } from '../validation/plain-text';

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown };
  /** The file's bytes: a CSV goes as it is (the engine reads its encoding), a JSON file is read as UTF-8. */
  readFile(file: string): Promise<Uint8Array>;
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const EXIT = { OK: 0, ERROR: 1, FAILURES: 2 } as const;

const USAGE = `Usage:
  payouts submit <file.csv|file.json> [--batch-id ID] [--watch] [--json]
  payouts status <batchId> [--watch] [--json]
  payouts reconcile <payoutId> [--json]
  payouts get <payoutId> [--json]
  payouts events <payoutId> [--json]
  payouts list [--status S] [--method M] [--batch-id ID] [--created-from T] [--created-to T] [--limit N] [--cursor C] [--json]

Environment: PAYOUTS_API_URL (default http://127.0.0.1:3000), PAYOUTS_API_KEY (default dev-api-key).
A CSV file names its columns in a header row: externalId and amount always (reais, e.g. 25.50), then
those of the rails its rows use: method (pix_key when empty or absent), pixKey and keyType (pix_key),
emv (pix_copy_paste), email (internal), wallet and network (crypto); description is optional. An empty
cell is a field not given, e.g.:
  externalId,method,amount,pixKey,keyType,emv,email,wallet,network,description
  s-1,,25.00,52998224725,CPF,,,,,March rent
  s-3,internal,12.50,,,,recipient@sandbox.test,,,
Excel pt-BR's files are read as saved: ";" between cells, amounts as 25,50 or 1.234,56, in UTF-8 or
Windows-1252 (the file goes as it is; the engine reads its encoding).
A JSON file is either an array of items or { "batchId"?: ..., "items": [...] }.
reconcile asks the provider where one payout stands (POST /v1/payouts/:id/recheck): a payout in
NEEDS_REVIEW is asked again; one whose workflow was terminated is re-run from what it claimed, never
sent twice; it prints the payout's state and why.
get prints a payout (its PIX key masked) with its transitions; events the events announced about it;
list a page of payouts, newest first: --status (RECEIVED, SUBMITTED, COMPLETED, FAILED, CANCELLED,
NEEDS_REVIEW), --method (pix_key, pix_copy_paste, internal, crypto), --batch-id, --created-from and
--created-to (RFC 3339, e.g. 2026-03-01T00:00:00-03:00), --limit (1-500), and --cursor from the page before.
--json prints the engine's answer as JSON (submit --watch and status: the batch's summary and its failures).
Exit codes: 0 done (reconcile: settled, settling, or never sent), 1 refused or unreachable,
2 done with FAILED or NEEDS_REVIEW items (reconcile: the payout needs review).
`;

const cliEnvSchema = z.object({
  PAYOUTS_API_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:3000'),
  PAYOUTS_API_KEY: z.string().min(1).default('dev-api-key'),
});

const TTY_REFRESH_MS = 1_000;
// Logs of a CI job or a pipe: a line every few seconds is readable, one per second is noise.
const PLAIN_REFRESH_MS = 5_000;
const FAILURE_STATES = ['FAILED', 'NEEDS_REVIEW'] as const;

class UsageError extends Error {}

/** `row 17 (order-17): amount: must have at most 2 decimal places` (row numbers count from 1). */
export function formatRowIssue(row: RowIssue): string {
  // The payout schema's messages often start with the field's name already: do not say it twice.
  const message = row.message.startsWith(`${row.field} `) ? row.message.slice(row.field.length + 1) : row.message;
  const id = row.externalId ? ` (${row.externalId})` : '';
  return printable(`row ${row.index + 1}${id}: ${row.field}: ${message}`);
}

export async function runPayoutsCli(argv: readonly string[], io: CliIo): Promise<number> {
  const out = (line: string): void => void io.stdout.write(`${line}\n`);
  const err = (line: string): void => void io.stderr.write(`${line}\n`);
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        'batch-id': { type: 'string' },
        watch: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        status: { type: 'string' },
        method: { type: 'string' },
        'created-from': { type: 'string' },
        'created-to': { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    const [command, target, ...extra] = positionals;
    if (values.help || command === undefined) {
      out(USAGE);
      return values.help ? EXIT.OK : EXIT.ERROR;
    }
    if (command === 'list' ? target !== undefined : target === undefined || extra.length > 0)
      throw new UsageError(
        command === 'list' ? 'list takes no argument, only options' : `${command} takes exactly one argument`,
      );
    const env = cliEnvSchema.safeParse(
      Object.fromEntries(Object.entries(io.env).filter(([, value]) => value !== undefined && value !== '')),
    );
    if (!env.success) throw new UsageError(`bad environment: ${z.prettifyError(env.error)}`);
    const client = new EngineClient({ baseUrl: env.data.PAYOUTS_API_URL, apiKey: env.data.PAYOUTS_API_KEY });
    const json = values.json;
    const payoutId = (): string => {
      if (!externalIdSchema.safeParse(target).success) throw new UsageError('the payoutId is not valid');
      return target ?? '';
    };
    if (command === 'get') return (await getCommand(client, payoutId(), json, out), EXIT.OK);
    if (command === 'events') return (await eventsCommand(client, payoutId(), json, out), EXIT.OK);
    if (command === 'list') return (await listCommand(client, listQuery(values), json, out), EXIT.OK);

    let batchId: string;
    if (command === 'submit') {
      const requestedId = values['batch-id'];
      if (requestedId !== undefined && !externalIdSchema.safeParse(requestedId).success)
        throw new UsageError('--batch-id must be 1-64 letters, digits, dot, dash, underscore or colon');
      const accepted = await submitFile(client, target ?? '', requestedId, io);
      batchId = accepted.batchId;
      if (json && !values.watch) {
        out(JSON.stringify(accepted));
        return EXIT.OK;
      }
      if (!json)
        out(
          `Batch ${printable(accepted.batchId)} accepted: ${accepted.total} payouts, ${formatReais(accepted.totalAmount)}.`,
        );
      if (!values.watch) {
        out(`Follow it with: payouts status ${printable(accepted.batchId)} --watch`);
        return EXIT.OK;
      }
    } else if (command === 'reconcile') {
      return await reconcilePayout(client, payoutId(), json, out);
    } else if (command === 'status') {
      if (!externalIdSchema.safeParse(target).success) throw new UsageError('the batchId is not valid');
      batchId = target ?? '';
    } else {
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }

    const summary = values.watch ? await watch(client, batchId, io, json) : await client.batchSummary(batchId);
    if (json) {
      const failures = summary.done ? await failuresOf(client, batchId) : [];
      out(JSON.stringify({ summary, ...(summary.done ? { failures } : {}) }));
      return failures.length > 0 ? EXIT.FAILURES : EXIT.OK;
    }
    if (!values.watch) out(renderProgress(summary, progressOptions(summary, io, io.now())));
    if (!summary.done) return EXIT.OK;
    return (await printFailures(client, batchId, out)) > 0 ? EXIT.FAILURES : EXIT.OK;
  } catch (error) {
    return reportError(error, err);
  }
}

/** The list's filters as the engine's own query schema reads them: a bad one is refused here, naming it. */
function listQuery(values: {
  status?: string | undefined;
  method?: string | undefined;
  'batch-id'?: string | undefined;
  'created-from'?: string | undefined;
  'created-to'?: string | undefined;
  limit?: string | undefined;
  cursor?: string | undefined;
}) {
  const given = {
    status: values.status,
    method: values.method,
    batchId: values['batch-id'],
    createdFrom: values['created-from'],
    createdTo: values['created-to'],
    limit: values.limit,
    cursor: values.cursor,
  };
  const query = payoutListQuerySchema.safeParse(
    Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
  );
  if (!query.success) throw new UsageError(`bad filter: ${z.prettifyError(query.error)}`);
  return query.data;
}

async function submitFile(client: EngineClient, file: string, batchId: string | undefined, io: CliIo) {
  const extension = path.extname(file).toLowerCase();
  if (extension !== '.csv' && extension !== '.json') throw new UsageError('the file must end in .csv or .json');
  let bytes: Uint8Array;
  try {
    bytes = await io.readFile(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (extension === '.csv') return client.submitCsv(bytes, batchId);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const body = batchRequestBodySchema.safeParse(Array.isArray(json) ? { items: json } : json);
  if (!body.success) throw new UsageError(`${file} is not a batch: ${z.prettifyError(body.error)}`);
  const chosenId = batchId ?? body.data.batchId;
  return client.submitJson({ ...(chosenId ? { batchId: chosenId } : {}), items: body.data.items });
}

function progressOptions(summary: BatchSummary, io: CliIo, watchStartedAt: number, lastSettledAt?: number) {
  const width = io.stdout.isTTY ? (io.stdout.columns ?? 100) : 160;
  return {
    now: io.now(),
    startedAt: summary.startedAt ? Date.parse(summary.startedAt) : watchStartedAt,
    width,
    ...(lastSettledAt === undefined ? {} : { lastSettledAt }),
  };
}

/** Redraws one line on a terminal, prints a line every few seconds elsewhere (nothing with --json); returns the final summary. */
async function watch(client: EngineClient, batchId: string, io: CliIo, json: boolean): Promise<BatchSummary> {
  const watchStartedAt = io.now();
  const tty = io.stdout.isTTY === true;
  let settled = -1;
  let lastSettledAt = watchStartedAt;
  for (;;) {
    const summary = await client.batchSummary(batchId);
    if (settledCount(summary) !== settled) {
      settled = settledCount(summary);
      lastSettledAt = io.now();
    }
    const line = renderProgress(summary, progressOptions(summary, io, watchStartedAt, lastSettledAt));
    // \x1b[K clears what a longer previous line left to the right.
    if (!json) io.stdout.write(tty ? `\r${line}\x1b[K${summary.done ? '\n' : ''}` : `${line}\n`);
    if (summary.done) return summary;
    await io.sleep(tty ? TTY_REFRESH_MS : PLAIN_REFRESH_MS);
  }
}

/** Every FAILED and NEEDS_REVIEW item. */
async function failuresOf(client: EngineClient, batchId: string) {
  const items = [];
  for (const state of FAILURE_STATES) for await (const item of client.allItems(batchId, state)) items.push(item);
  return items;
}

/** Prints every FAILED and NEEDS_REVIEW item; returns how many there were. */
async function printFailures(client: EngineClient, batchId: string, out: (line: string) => void): Promise<number> {
  const failures = await failuresOf(client, batchId);
  if (failures.length > 0) out('Failures:');
  for (const item of failures) out(renderFailure(item));
  out(failures.length === 0 ? 'No failures.' : `${failures.length} payout(s) failed or need review.`);
  return failures.length;
}

/** Every message printed here may carry text from the server or a file: each goes out through `printable`. */
function reportError(error: unknown, writeErr: (line: string) => void): number {
  const err = (line: string): void => writeErr(printable(line));
  if (error instanceof UsageError) {
    err(`payouts: ${error.message}`);
    writeErr(USAGE);
  } else if (error instanceof EngineApiError) {
    err(`payouts: the engine refused: ${error.status} ${error.body.code}: ${error.body.message}`);
    for (const issue of error.body.issues ?? []) err(`  ${issue.path}: ${issue.message}`);
    for (const row of error.body.rows ?? []) err(`  ${formatRowIssue(row)}`);
  } else if (error instanceof EngineApiUnreachableError) {
    err(`payouts: ${error.message} (set PAYOUTS_API_URL)`);
  } else if (
    error instanceof Error &&
    error.name === 'TypeError' &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('ERR_PARSE_ARGS')
  ) {
    err(`payouts: ${error.message}`);
    writeErr(USAGE);
  } else {
    err(`payouts: ${error instanceof Error ? error.message : String(error)}`);
  }
  return EXIT.ERROR;
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runPayoutsCli(argv, {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    readFile: (file) => readFile(file),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
}

if (require.main === module) void main();
