/**
 * A batch request: every item is validated with the single payout's schema before anything starts,
 * and every problem of every row is reported at once (index, externalId, field, message), including
 * an externalId repeated inside the batch or already used by another payout.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { externalIdSchema } from '../validation/external-id';
import { payoutHashParts, payoutRequestSchema, type PayoutRequest } from '../payouts/payout-request';
import type { RowIssue } from '../validation/issues';
import { isValidCpf, pixKeyTypeSchema, validatePixKey } from '../pix/keys';
import { WHOLE_ROW_FIELD } from './batch-csv';
import { runAtOnce, type Slices } from '../util/slices';

export const MAX_BATCH_ITEMS = 100_000;

/** The items stay `unknown` here: validateBatch checks each one so that the answer can name its row. */
export const batchItemsSchema = z
  .array(z.unknown())
  .min(1, 'a batch needs at least one item')
  .max(MAX_BATCH_ITEMS, `a batch has at most ${MAX_BATCH_ITEMS} items`);

/** `POST /v1/payout-batches` with `Content-Type: application/json`. */
export const batchRequestBodySchema = z
  .object({ batchId: externalIdSchema.optional(), items: batchItemsSchema })
  .strict();
export type BatchRequestBody = z.output<typeof batchRequestBodySchema>;

/** `POST /v1/payout-batches?batchId=...` with `Content-Type: text/csv`: the batch id cannot be in the CSV itself. */
export const batchCsvQuerySchema = z.object({ batchId: externalIdSchema.optional() }).strict();

export type BatchValidation =
  { ok: true; items: PayoutRequest[]; totalAmountCents: number } | { ok: false; rows: RowIssue[] };

export interface ValidateBatchOptions {
  /**
   * Problems already found by the reader of the body (the CSV parser). A row with a WHOLE_ROW_FIELD issue is
   * not validated further; for other rows the schema's issues on the same field are left out as repeats.
   */
  knownIssues?: readonly RowIssue[];
}

function fieldOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return issue.keys.join(',');
  return issue.path.map(String).join('.') || WHOLE_ROW_FIELD;
}

function readableExternalId(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || !('externalId' in raw)) return undefined;
  const { externalId } = raw;
  return typeof externalId === 'string' && externalIdSchema.safeParse(externalId).success ? externalId : undefined;
}

/**
 * The schema checks the PIX key only once every field is valid; when other fields failed, check the
 * key here with the same function, so that the merchant sees all of a row's problems in one answer.
 */
function pixKeyIssue(raw: unknown, reportedFields: ReadonlySet<string>): string | undefined {
  if (reportedFields.has('pixKey') || reportedFields.has('keyType')) return undefined;
  if (typeof raw !== 'object' || raw === null || !('pixKey' in raw) || !('keyType' in raw)) return undefined;
  const keyType = pixKeyTypeSchema.safeParse(raw.keyType);
  if (!keyType.success || typeof raw.pixKey !== 'string') return undefined;
  const key = validatePixKey(keyType.data, raw.pixKey);
  return key.ok ? undefined : key.message;
}

/**
 * A CPF of 10 digits is one a spreadsheet took for a number and dropped the leading zero of. The hint
 * says so, and whether the zero puts the check digits right, without repeating the key.
 */
function droppedZeroHint(raw: unknown, field: string): string {
  if (field !== 'pixKey' || typeof raw !== 'object' || raw === null || !('pixKey' in raw) || !('keyType' in raw))
    return '';
  if (raw.keyType !== 'CPF' || typeof raw.pixKey !== 'string' || !/^\d{10}$/.test(raw.pixKey.trim())) return '';
  const checks = isValidCpf(`0${raw.pixKey.trim()}`)
    ? 'with a leading 0 its check digits match'
    : 'a leading 0 would not make its check digits match either';
  return `; it has 10 digits: a spreadsheet drops a CPF's leading zero when the column holds numbers (format the column as text and write the 0; ${checks})`;
}

export function validateBatch(
  rawItems: readonly unknown[],
  existingIds: (ids: string[]) => Set<string>,
  options: ValidateBatchOptions = {},
): BatchValidation {
  return runAtOnce(validateBatchSlices(rawItems, existingIds, options));
}

/** Rows (and lookups of existing ids) per slice: a few milliseconds of work between two turns of the event loop. */
const VALIDATION_SLICE = 1_000;

/** validateBatch in slices, for runInSlices: a big batch does not hold the event loop while it is checked. */
export function* validateBatchSlices(
  rawItems: readonly unknown[],
  existingIds: (ids: string[]) => Set<string>,
  options: ValidateBatchOptions = {},
): Slices<BatchValidation> {
  const issues: RowIssue[] = [...(options.knownIssues ?? [])];
  const knownFieldsByIndex = new Map<number, Set<string>>();
  for (const issue of issues) {
    const fields = knownFieldsByIndex.get(issue.index) ?? new Set<string>();
    fields.add(issue.field);
    knownFieldsByIndex.set(issue.index, fields);
  }

  const items: PayoutRequest[] = [];
  const seenIds = new Set<string>();
  const idsToCheck: { index: number; externalId: string }[] = [];
  let totalAmountCents = 0;

  for (const [index, raw] of rawItems.entries()) {
    if (index > 0 && index % VALIDATION_SLICE === 0) yield;
    const known = knownFieldsByIndex.get(index);
    if (known?.has(WHOLE_ROW_FIELD)) continue;
    const externalId = readableExternalId(raw);
    const parsed = payoutRequestSchema.safeParse(raw);
    if (parsed.success && !known) {
      items.push(parsed.data);
      totalAmountCents += parsed.data.amountCents;
    } else if (!parsed.success) {
      const reported = new Set(known);
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue);
        if (reported.has(field)) continue;
        reported.add(field);
        issues.push({
          index,
          ...(externalId ? { externalId } : {}),
          field,
          message: issue.message + droppedZeroHint(raw, field),
        });
      }
      const keyMessage = pixKeyIssue(raw, reported);
      if (keyMessage)
        issues.push({
          index,
          ...(externalId ? { externalId } : {}),
          field: 'pixKey',
          message: keyMessage + droppedZeroHint(raw, 'pixKey'),
        });
    }
    if (externalId === undefined) continue;
    if (!seenIds.has(externalId)) {
      seenIds.add(externalId);
      idsToCheck.push({ index, externalId });
    } else {
      issues.push({ index, externalId, field: 'externalId', message: 'externalId appears earlier in this batch' });
    }
  }

  for (let from = 0; from < idsToCheck.length; from += VALIDATION_SLICE) {
    yield;
    const slice = idsToCheck.slice(from, from + VALIDATION_SLICE);
    const taken = existingIds(slice.map((entry) => entry.externalId));
    for (const { index, externalId } of slice) {
      if (taken.has(externalId))
        issues.push({
          index,
          externalId,
          field: 'externalId',
          message: 'externalId already belongs to another payout',
        });
    }
  }

  if (issues.length > 0) return { ok: false, rows: issues.sort((a, b) => a.index - b.index) };
  return { ok: true, items, totalAmountCents };
}

/** The distinct externalIds of the rows that carry a well-formed one, for one question to the store before validation. */
export function* readableExternalIdsSlices(rawItems: readonly unknown[]): Slices<string[]> {
  const ids = new Set<string>();
  for (const [index, raw] of rawItems.entries()) {
    if (index > 0 && index % VALIDATION_SLICE === 0) yield;
    const externalId = readableExternalId(raw);
    if (externalId !== undefined) ids.add(externalId);
  }
  return [...ids];
}

/**
 * Same items in the same order ⇔ same hash: a re-submission of a batch is recognized, a different
 * batch under the same batchId is a conflict. Built from the validated (normalized) requests.
 */
export function batchRequestHash(items: readonly PayoutRequest[]): string {
  return runAtOnce(batchRequestHashSlices(items));
}

/** batchRequestHash in slices, for runInSlices. */
export function* batchRequestHashSlices(items: readonly PayoutRequest[]): Slices<string> {
  const hash = createHash('sha256');
  for (const [index, item] of items.entries()) {
    if (index > 0 && index % VALIDATION_SLICE === 0) yield;
    hash.update(JSON.stringify(payoutHashParts(item)));
    hash.update('\n');
  }
  return hash.digest('hex');
}
