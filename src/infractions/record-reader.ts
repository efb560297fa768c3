/**
 * Endpoint 7's record, whose fields the spec does not show, read by the provider's names (MED_RECORD_FIELDS):
 * what the engine needs (the id, the PIX it is about, the status, the amount, when it was opened or is due)
 * or, when something of that cannot be read, what an operator needs to fix the setting: the record's own
 * field NAMES (never its values, which may be personal data) and the engine's fields that were missing.
 */
import { z } from 'zod';
import { maskSecretText } from '../logging/redaction';
import { reaisToCentavos } from '../money/centavos';
import { providerIdSchema, responseAmountSchema, timestampSchema } from '../payment-api/schemas/common';
import type { MedRecordField, MedRecordFields } from '../payment-api/schemas/infractions';
import { INFRACTION_ID_PATTERN, NOT_A_PLAIN_ID } from './infraction-id';
import { DEFAULT_DEFENSE_WINDOW_MS, type InfractionRecord } from './infraction-record';
import type { UnreadableInfraction } from './unreadable-record';

export type RecordReading =
  { kind: 'read'; record: InfractionRecord } | { kind: 'unreadable'; unreadable: UnreadableInfraction };

const MAX_NAMES = 30;
const MAX_NAME_LENGTH = 64;
const MAX_TEXT = 2_000;

/** The value at `path` (dots reach into objects), or undefined. */
export function valueAt(body: unknown, path: string): unknown {
  let value = body;
  for (const name of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/** The names of an object's fields, bounded, with anything that looks like personal data masked. */
export function fieldNamesOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const names = Array.isArray(value) ? ['(a list)'] : Object.keys(value);
  return names
    .slice(0, MAX_NAMES)
    .map((name) => maskSecretText(name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}…` : name));
}

const readers = {
  id: providerIdSchema.pipe(z.string().regex(INFRACTION_ID_PATTERN)),
  transactionId: providerIdSchema,
  status: z.string().min(1).max(64),
  amount: responseAmountSchema.transform((reais) => reaisToCentavos(reais)),
  createdAt: timestampSchema,
  defenseDeadline: timestampSchema,
  reason: z.string().transform((text) => text.slice(0, MAX_TEXT)),
  analise: z.string().max(64),
  defendedAt: timestampSchema,
  resolvedAt: timestampSchema,
} satisfies Record<MedRecordField, z.ZodType>;

/** What `readFields` found of one field: the value read, and the provider's name it was under. */
export interface FieldRead<T> {
  value: T;
  name: string;
}

/** Whether one of the id's names holds an id of some kind (which the reader refused): said so, not called missing. */
function holdsAnyId(raw: unknown, names: MedRecordFields): boolean {
  return names.id.some((name) => providerIdSchema.safeParse(valueAt(raw, name)).success);
}

export type FieldReaders = Readonly<Record<string, z.ZodType>>;
export type FieldsRead<R extends FieldReaders> = { [F in keyof R]?: FieldRead<z.output<R[F]>> };

/** Each field of `readers` under the first of its names (`names`) that holds a value its reader takes; a field none holds is left out. */
export function readFields<R extends FieldReaders>(
  raw: unknown,
  readers: R,
  names: Readonly<Record<keyof R, readonly string[]>>,
): FieldsRead<R> {
  const read: Record<string, FieldRead<unknown>> = {};
  for (const field of Object.keys(readers) as (keyof R & string)[]) {
    for (const name of names[field]) {
      const parsed = (readers[field] as z.ZodType).safeParse(valueAt(raw, name));
      if (!parsed.success) continue;
      read[field] = { value: parsed.data, name };
      break;
    }
  }
  return read as FieldsRead<R>;
}

type Read = { [F in MedRecordField]?: z.output<(typeof readers)[F]> };

const iso = (text: string): string => new Date(text).toISOString();

export function readInfractionRecord(raw: unknown, names: MedRecordFields): RecordReading {
  const found = readFields(raw, readers, names);
  const read = Object.fromEntries(Object.entries(found).map(([field, { value }]) => [field, value])) as Read;
  const { id, transactionId, status, amount, createdAt, defenseDeadline } = read;
  const missing = (['id', 'transactionId', 'status', 'amount'] as const)
    .filter((field) => read[field] === undefined)
    .map((field): string => (field === 'id' && holdsAnyId(raw, names) ? NOT_A_PLAIN_ID : field));
  if (createdAt === undefined && defenseDeadline === undefined) missing.push('createdAt or defenseDeadline');
  if (
    id === undefined ||
    transactionId === undefined ||
    status === undefined ||
    amount === undefined ||
    missing.length > 0
  ) {
    return {
      kind: 'unreadable',
      unreadable: { ...(id === undefined ? {} : { infractionId: id }), fields: fieldNamesOf(raw), missing },
    };
  }
  // One of the two is there; the documented window (docs/assumptions.md §8) gives the other.
  const opened =
    createdAt === undefined ? Date.parse(defenseDeadline ?? '') - DEFAULT_DEFENSE_WINDOW_MS : Date.parse(createdAt);
  const due = defenseDeadline === undefined ? opened + DEFAULT_DEFENSE_WINDOW_MS : Date.parse(defenseDeadline);
  return {
    kind: 'read',
    record: {
      infractionId: id,
      transactionId,
      providerStatus: status,
      reason: read.reason ?? '',
      amountCents: amount,
      createdAt: new Date(opened).toISOString(),
      defenseDeadline: new Date(due).toISOString(),
      ...(read.defendedAt ? { defendedAt: iso(read.defendedAt) } : {}),
      ...(read.analise ? { analise: read.analise } : {}),
      ...(read.resolvedAt ? { resolvedAt: iso(read.resolvedAt) } : {}),
    },
  };
}
