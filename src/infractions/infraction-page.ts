/**
 * Endpoint 7's page, whose shape the spec does not show: the list is the one array in the answer (at its
 * top, or one level down), or the field MED_LIST_ENVELOPE names; each record read on its own
 * (record-reader.ts), so that one the engine cannot read is set aside while the others sync.
 *
 * The provider may apply a page size other than the one asked (the spec shows neither a maximum nor a
 * default), so the pages are followed until one is empty or shorter than the longest seen before it.
 */
import type { MedRecordFields } from '../payment-api/schemas/infractions';
import type { InfractionRecord } from './infraction-record';
import { fieldNamesOf, readInfractionRecord, valueAt } from './record-reader';
import type { UnreadableInfraction } from './unreadable-record';

export interface MedReading {
  /** MED_LIST_ENVELOPE: the field that holds the list; unset, the one array in the answer. */
  envelope?: string | undefined;
  fields: MedRecordFields;
}

export interface InfractionPage {
  /** Records on the page, read or not. */
  size: number;
  records: InfractionRecord[];
  unreadable: UnreadableInfraction[];
}

/** The answer holds no list the engine can tell: nothing on it is synced until the setting says where it is. */
export class UnreadableListError extends Error {}

function arraysIn(value: unknown): unknown[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.values(value).filter((field): field is unknown[] => Array.isArray(field));
}

/** The one array at the top of the answer, else the one a level down. */
function listIn(body: unknown, envelope: string | undefined): unknown[] {
  if (envelope !== undefined) {
    const named = valueAt(body, envelope);
    // An empty page may come as null, or without the field.
    if (named === undefined || named === null) return [];
    if (Array.isArray(named)) return named;
    throw new UnreadableListError(
      `MED_LIST_ENVELOPE names ${envelope}, which is not a list in endpoint 7's answer (its fields: ${fieldNamesOf(body).join(', ')})`,
    );
  }
  if (Array.isArray(body)) return body;
  const top = arraysIn(body);
  const found =
    top.length > 0 ? top : typeof body === 'object' && body !== null ? Object.values(body).flatMap(arraysIn) : [];
  if (found.length === 1 && found[0]) return found[0];
  const what = found.length === 0 ? 'no list' : `${found.length} lists`;
  throw new UnreadableListError(
    `endpoint 7's answer holds ${what} where one list of infractions was expected (its fields: ${fieldNamesOf(body).join(', ')}): MED_LIST_ENVELOPE names the one that holds them`,
  );
}

export function readInfractionPage(body: unknown, reading: MedReading): InfractionPage {
  const items = listIn(body, reading.envelope);
  const page: InfractionPage = { size: items.length, records: [], unreadable: [] };
  for (const item of items) {
    const read = readInfractionRecord(item, reading.fields);
    if (read.kind === 'read') page.records.push(read.record);
    else page.unreadable.push(read.unreadable);
  }
  return page;
}

/** Whether a page after this one may hold more: it was not empty, nor shorter than the longest page before it. */
export function morePagesAfter(size: number, longestBefore: number | undefined): boolean {
  return size > 0 && (longestBefore === undefined || size >= longestBefore);
}
