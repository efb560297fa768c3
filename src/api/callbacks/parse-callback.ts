/**
 * The second step: the body as JSON, and the fields the engine reads of it under the provider's names. A body
 * that is not JSON is a 400; well-formed JSON never is: one naming no operation is kept unmatched, with why.
 */
import { fieldNamesOf, readFields, type FieldReaders, type FieldsRead } from '../../infractions/record-reader';
import { CALLBACK_KINDS } from '../../payment-api/schemas/callback-fields';
import { ApiError } from '../errors';
import type { CallbackRoute } from './callback-route';

export type ParsedCallback =
  | { kind: 'routable'; read: FieldsRead<FieldReaders> }
  | { kind: 'unroutable'; read: FieldsRead<FieldReaders>; json: unknown };

export function parseCallback(route: CallbackRoute<FieldReaders, unknown>, rawBody: Buffer): ParsedCallback {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new ApiError(400, 'MALFORMED_JSON', 'The callback body is not valid JSON');
  }
  const read = readFields(json, route.readers, route.names);
  const { routedBy } = CALLBACK_KINDS[route.kind];
  return routedBy.some((field: string) => read[field] !== undefined)
    ? { kind: 'routable', read }
    : { kind: 'unroutable', read, json };
}

/** Why a callback names no operation: the provider's names the engine looked for (and, when given, the body's own field names, never their values). */
export function unroutable(
  route: CallbackRoute<FieldReaders, unknown>,
  body: unknown,
  withFieldNames: boolean,
): string {
  const { routedBy, setting } = CALLBACK_KINDS[route.kind];
  const lookedFor = routedBy.flatMap((field: string) => route.names[field] ?? []);
  const fields = withFieldNames ? `; its fields: ${fieldNamesOf(body).join(', ') || 'none'}` : '';
  return `no id to route by: none of ${lookedFor.join(', ')} holds one (${setting} names them)${fields}`;
}

/** What a signed callback said that the engine read, under the provider's names (the rest, possibly personal data, is not kept). */
export function fieldsRead(read: FieldsRead<FieldReaders>): Record<string, unknown> {
  return Object.fromEntries(Object.values(read).flatMap((found) => (found ? [[found.name, found.value]] : [])));
}
