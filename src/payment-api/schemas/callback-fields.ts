/**
 * The fields the engine reads from each kind of provider callback. The spec shows none of these payloads
 * but the card's, so each kind's field names are a setting (<KIND>_CALLBACK_FIELDS, `field=<name>,…`), the
 * sandbox's names by default. Each field is read only when it holds a value of its kind; anything else in
 * the body is ignored, so a callback is never refused for its shape: one whose id cannot be read is kept as
 * unmatched, naming the fields looked for.
 */
import { z } from 'zod';
import { cardPaymentIdSchema } from './card';
import { providerIdSchema, timestampSchema } from './common';
import { fieldNamesSetting, type FieldNames } from './field-names';
import { END_TO_END_ID_NAMES, endToEndIdSchema } from '../../pix/end-to-end-id';

/** The longest reason a callback hands its workflow. */
export const MAX_CALLBACK_REASON = 500;

/** A plain id, as every id the engine routes by is (our ids, the provider's): anything else routes nowhere. */
const routingId = providerIdSchema.pipe(z.string().regex(/^[\w.:-]{1,128}$/));
const status = z.string().min(1).max(64);

/** What each field is for, as the OpenAPI document says it. */
type About<R> = Readonly<Record<keyof R, string>>;

/** A payout's final status (PIX key, copy-and-paste, crypto): the same fields on every rail. */
export const payoutCallbackReaders = {
  externalId: routingId,
  transactionId: routingId,
  status,
  reason: z
    .string()
    .min(1)
    .transform((text) => text.slice(0, MAX_CALLBACK_REASON)),
  endToEndId: endToEndIdSchema,
};
const payoutAbout: About<typeof payoutCallbackReaders> = {
  externalId: 'the payout: the external_id the engine sent',
  transactionId: "the payout, by the provider's id (the one its answer gave)",
  status: 'the final status (a signed callback only: an unsigned one only makes the engine ask the check)',
  reason: 'why it failed (a signed callback only)',
  endToEndId: 'the PIX end-to-end id, when the provider gives one (a signed callback only)',
};
const payoutNames: FieldNames<keyof typeof payoutCallbackReaders> = {
  externalId: ['external_id'],
  transactionId: ['transaction_id', 'transactionId'],
  status: ['status'],
  reason: ['reason'],
  endToEndId: END_TO_END_ID_NAMES,
};

export const cashInCallbackReaders = { transactionId: routingId, status, paidAt: timestampSchema };
const cashInAbout: About<typeof cashInCallbackReaders> = {
  transactionId:
    "the charge: the transactionId the engine sent (or one it derived, `_r<n>_<id>`), or the provider's id of it",
  status: 'the status (a signed callback only: an unsigned one only makes the engine ask the check)',
  paidAt: 'when it was paid (a signed callback only)',
};

export const cardCallbackReaders = { externalReference: routingId, id: cardPaymentIdSchema, status };
const cardAbout: About<typeof cardCallbackReaders> = {
  externalReference: "the card payment: the spec's externalReference, the engine's externalId echoed",
  id: "the provider's payment id (data.id; a signed callback only)",
  status: 'the status (a signed callback only: an unsigned one only makes the engine ask endpoint 3)',
};

/**
 * Every kind: its fields, the sandbox's names for them, the fields any one of which names the operation
 * (without one the callback is unmatched), and the setting that renames them.
 */
export const CALLBACK_KINDS = {
  withdrawals: {
    readers: payoutCallbackReaders,
    about: payoutAbout,
    defaults: payoutNames,
    routedBy: ['externalId', 'transactionId'],
    setting: 'WITHDRAWAL_CALLBACK_FIELDS',
  },
  'pix-copy-paste': {
    readers: payoutCallbackReaders,
    about: payoutAbout,
    defaults: payoutNames,
    routedBy: ['externalId', 'transactionId'],
    setting: 'PIX_COPY_PASTE_CALLBACK_FIELDS',
  },
  crypto: {
    readers: payoutCallbackReaders,
    about: payoutAbout,
    defaults: payoutNames,
    routedBy: ['externalId', 'transactionId'],
    setting: 'CRYPTO_CALLBACK_FIELDS',
  },
  'cash-in': {
    readers: cashInCallbackReaders,
    about: cashInAbout,
    defaults: { transactionId: ['transactionId', 'transaction_id'], status: ['status'], paidAt: ['paidAt'] },
    routedBy: ['transactionId'],
    setting: 'CASH_IN_CALLBACK_FIELDS',
  },
  card: {
    readers: cardCallbackReaders,
    about: cardAbout,
    defaults: { externalReference: ['externalReference'], id: ['id'], status: ['status'] },
    routedBy: ['externalReference'],
    setting: 'CARD_CALLBACK_FIELDS',
  },
} as const satisfies Record<
  string,
  {
    readers: Record<string, z.ZodType>;
    about: Record<string, string>;
    defaults: Record<string, readonly string[]>;
    routedBy: readonly string[];
    setting: string;
  }
>;

export type CallbackKind = keyof typeof CALLBACK_KINDS;
export type CallbackFieldOf<K extends CallbackKind> = keyof (typeof CALLBACK_KINDS)[K]['readers'] & string;
export type CallbackFieldNames<K extends CallbackKind> = FieldNames<CallbackFieldOf<K>>;
/** The names the engine reads each kind's fields under (the settings). */
export type CallbackFieldsConfig = { readonly [K in CallbackKind]: CallbackFieldNames<K> };

export const DEFAULT_CALLBACK_FIELDS: CallbackFieldsConfig = {
  withdrawals: CALLBACK_KINDS.withdrawals.defaults,
  'pix-copy-paste': CALLBACK_KINDS['pix-copy-paste'].defaults,
  crypto: CALLBACK_KINDS.crypto.defaults,
  'cash-in': CALLBACK_KINDS['cash-in'].defaults,
  card: CALLBACK_KINDS.card.defaults,
};

/** The setting of one kind: `field=<name>,…` for the names that differ from the sandbox's. */
export function callbackFieldsSetting<K extends CallbackKind>(kind: K) {
  const fields = Object.keys(CALLBACK_KINDS[kind].readers) as CallbackFieldOf<K>[];
  return fieldNamesSetting(fields, CALLBACK_KINDS[kind].defaults as CallbackFieldNames<K>);
}
