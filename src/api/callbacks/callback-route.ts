/**
 * What a callback route declares: where it is posted, which fields the engine reads of it (under the provider's
 * names, a setting per kind), the operation it names and the hint that operation's workflow is signalled.
 */
import type { SignalDefinition, UpdateDefinition } from '@temporalio/common';
import type { FieldReaders, FieldsRead } from '../../infractions/record-reader';
import {
  CALLBACK_KINDS,
  type CallbackFieldsConfig,
  type CallbackKind,
} from '../../payment-api/schemas/callback-fields';
import type { IntentKind } from '../../intents/intent-store';

export interface CallbackTarget<H> {
  /** The workflow of our id, when the callback carries it; else found by `providerId`. */
  workflowId?: string;
  /** The provider's id of the operation, when the callback carries it. */
  providerId?: string;
  signal: SignalDefinition<[H]>;
  /** The same hint as an update, tried first where the workflow takes it (deliver-callback.ts); the signal otherwise. */
  update?: UpdateDefinition<void, [H]>;
  hint: H;
  /** The business id, for logs and the unmatched store. */
  reference: string;
}

export interface CallbackRoute<R extends FieldReaders, H> {
  path: string;
  kind: CallbackKind;
  /** How each field the engine reads is read. */
  readers: R;
  /** The provider's names of each field, tried in order (the kind's setting). */
  names: Readonly<Record<keyof R & string, readonly string[]>>;
  /** The operation the callback names; asked only when one of its kind's `routedBy` fields was read. */
  target(read: FieldsRead<R>, receivedAt: Date): CallbackTarget<H>;
  /** The hint an unsigned callback may give: nothing the workflow could take as an outcome. */
  untrusted(hint: H): H;
  /** The flows (PayoutFlow values) a provider id is looked up among in the visibility index. */
  flows: readonly string[];
  /** The money intent the operation claims before it calls the provider, where a provider id is looked up first. */
  intent?: { kind: IntentKind; workflowId(businessId: string): string };
}

/** The status of a hint that carries no provider claim (an unsigned callback's, or one whose status could not be read): "look now". */
export const UNVERIFIED = 'UNVERIFIED';

type ReadersOf<K extends CallbackKind> = (typeof CALLBACK_KINDS)[K]['readers'];

/**
 * Builds a route that reads its kind's fields under the names `fields` gives them; the generic keeps each route's
 * schema and hint types tied together.
 */
export function callbackRoute<K extends CallbackKind, H>(
  fields: CallbackFieldsConfig,
  route: Omit<CallbackRoute<ReadersOf<K>, H>, 'kind' | 'readers' | 'names'> & { kind: K },
): CallbackRoute<ReadersOf<K>, H> {
  return { ...route, readers: CALLBACK_KINDS[route.kind].readers, names: fields[route.kind] };
}
