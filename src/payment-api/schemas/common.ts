/**
 * Building blocks shared by every area of the provider contract.
 *
 * Two postures, on purpose:
 * - requests are validated strictly (the sandbox answers 400 with field paths, the client catches its
 *   own mistakes before money moves);
 * - responses and callbacks are read tolerantly (unknown fields pass, ids in either spelling, unknown
 *   status strings pass) because a real provider may add things and the engine must not crash on them.
 */
import { z } from 'zod';
import { positiveReaisSchema, reaisAmountSchema } from '../../money/reais-schemas';

/** Upper bound of one operation, chosen for the sandbox (see docs/assumptions.md). */
export const MAX_OPERATION_REAIS = 1_000_000;

/** A request amount: reais, at most 2 decimals, at least 0.01, at most MAX_OPERATION_REAIS. */
export const requestAmountSchema = positiveReaisSchema(MAX_OPERATION_REAIS).describe(
  `Reais as a JSON number with at most 2 decimals, from 0.01 to ${MAX_OPERATION_REAIS.toFixed(2)}`,
);

/** A decimal amount the provider may spell as text ("25.50"): plain digits, at most 15 of them. */
const DECIMAL_TEXT = /^\d{1,13}(\.\d{1,15})?$/;

/**
 * An amount the provider reports: reais with at most 2 decimals (trailing zeros aside), so it converts to
 * centavos exactly; a JSON number or a decimal string ("25.50"), since the spec's "decimal numbers" may
 * reach us either way. Anything else is refused, naming the field: the caller's problem, not a guess.
 */
export const responseAmountSchema = z.preprocess(
  (value) => (typeof value === 'string' && DECIMAL_TEXT.test(value.trim()) ? Number(value.trim()) : value),
  reaisAmountSchema,
);

/**
 * What String.prototype.trim removes, spelled out: `\s` means a different set in every regex engine,
 * and the OpenAPI documents' patterns are read by engines other than JavaScript's.
 */
const WHITESPACE = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const NOT_BLANK = new RegExp(`[^${WHITESPACE}]`);

/** Text that is not blank, handed on trimmed; `max` counts the characters as sent. */
export function nonBlankTextSchema(max?: number) {
  const text = z.string().regex(NOT_BLANK, { message: 'must not be empty' });
  return (max === undefined ? text : text.max(max, { message: `must have at most ${max} characters` })).transform(
    (value) => value.trim(),
  );
}

/** A required text field: present and not blank. */
export const requiredTextSchema = nonBlankTextSchema();

/** An identifier chosen by the client (external_id, cash-in transactionId): printable, bounded. */
export const clientIdentifierSchema = z
  .string()
  .min(1, { message: 'must not be empty' })
  .max(100, { message: 'must have at most 100 characters' })
  .regex(/^[A-Za-z0-9._:-]+$/, { message: 'may contain only letters, digits, ".", "_", ":" and "-"' });

/**
 * An absolute http(s) URL, by a pattern both sides of the OpenAPI document read alike: a host name (its
 * last label starting with a letter) or a dotted IPv4 address, a port up to 65535, then RFC 3986
 * characters. The URL parser alone would be looser than `format: uri` in places (`http://a b`) and
 * stricter in others (`HTTP://`, `http://a.1`), so the pattern decides and the parser confirms.
 */
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const LABEL = '[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*';
const HOST = `(?:(?:${LABEL}\\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*|(?:${OCTET}\\.){3}${OCTET})`;
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}|0))?';
const URL_CHARS = (extra: string) => `(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~!$&'()*+,;=:@/${extra}-])*`;
export const HTTP_URL_PATTERN = new RegExp(
  `^[Hh][Tt][Tt][Pp][Ss]?://${HOST}${PORT}(?:/${URL_CHARS('')})?(?:\\?${URL_CHARS('?')})?(?:#${URL_CHARS('?')})?$`,
);

export const httpUrlSchema = z
  .string()
  .regex(HTTP_URL_PATTERN, { message: 'must be an http(s) URL', abort: true })
  .refine((value) => URL.canParse(value), { message: 'must be an http(s) URL' });

/** Where callbacks go: an absolute http(s) URL (http allowed so the sandbox can call localhost). */
export const callbackUrlSchema = httpUrlSchema;

export const descriptionSchema = z.string().max(255, { message: 'must have at most 255 characters' });

/** Routing label; accepted values are not published, so any short label passes (see assumptions). */
export const gatewaySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, { message: 'must be 1-32 letters, digits, "_" or "-"' });

/** CPF (11 digits) or CNPJ (14 characters: from July 2026 the first 12 may be capital letters), without mask. */
export const documentNumberSchema = z.string().regex(/^(\d{11}|[0-9A-Z]{12}\d{2})$/, {
  message: 'must be a CPF (11 digits) or a CNPJ (14 characters, capital letters and digits) without mask',
});

export const emailSchema = z.email({ message: 'must be a valid e-mail address' });

/** A timestamp the provider sends: ISO 8601; "Z" or an explicit offset both accepted. */
export const timestampSchema = z.iso.datetime({ offset: true });

/** An id the provider sends; a numeric id is read as its decimal text. */
export const providerIdSchema = z.preprocess(
  (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value),
  z.string().min(1),
);

/**
 * A status or code field of a response: the known values are listed (documentation, autocompletion
 * of the constants), but any other non-empty string passes so a new provider status does not crash
 * the engine; the engine treats an unknown status as "not final, check again".
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string().min(1)]);
}

/** True when `value` is one of `values`; narrows an open-enum string to its known members. */
export function isKnownValue<const T extends readonly string[]>(values: T, value: string): value is T[number] {
  return (values as readonly string[]).includes(value);
}

/**
 * Accepts an object field under its canonical spelling or under any alias (`transaction_id` for
 * `transactionId` and the reverse) and hands the schema the canonical one. The alias key is removed so
 * consumers never see two spellings.
 */
export function acceptSpellings<T extends z.ZodType>(
  spellings: Readonly<Record<string, readonly string[]>>,
  schema: T,
) {
  return z.preprocess((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    let record = value as Record<string, unknown>;
    for (const [canonical, aliases] of Object.entries(spellings)) {
      for (const alias of aliases) {
        if (!(alias in record)) continue;
        const { [alias]: aliased, ...rest } = record;
        record = rest[canonical] === undefined ? { ...rest, [canonical]: aliased } : rest;
      }
    }
    return record;
  }, schema);
}

/** The two spellings of a transaction id seen across platforms with this interface. */
export const TRANSACTION_ID_SPELLINGS = {
  camel: { transactionId: ['transaction_id'] },
  snake: { transaction_id: ['transactionId'] },
} as const;

/**
 * The spec's answer shape "message (string); <key> object with ...": the provider's human-readable result and, under
 * `key`, the object the request made (fields the provider adds pass).
 */
export function messageAnswerSchema<const K extends string, O extends z.ZodType>(key: K, object: O, id: string) {
  const named = { [key]: object } as Record<K, O>;
  return z.looseObject({ message: z.string(), ...named }).meta({ id });
}

/** A provider object read tolerantly (fields it adds pass) that names its transaction `transactionId`, or `transaction_id`. */
export function transactionRecord<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return acceptSpellings(TRANSACTION_ID_SPELLINGS.camel, z.looseObject(shape));
}

/** A payout callback names its payout by our external_id, the provider's transaction_id, or both. */
function namesAPayout(callback: { external_id?: unknown; transaction_id?: unknown }): boolean {
  return callback.external_id !== undefined || callback.transaction_id !== undefined;
}

/**
 * A payout's final-status callback (the spec never shows one): required only what routes it, `external_id` or
 * `transaction_id`, and the `status`; its amounts and the rail's own `fields` read with their type when present,
 * and unknown fields pass: a signed callback is never refused for a field the engine does not need.
 */
export function payoutCallbackSchema<const S extends readonly [string, ...string[]], Fields extends z.ZodRawShape>(
  finalStatuses: S,
  fields: Fields,
) {
  return acceptSpellings(
    TRANSACTION_ID_SPELLINGS.snake,
    z
      .looseObject({
        external_id: z.string().min(1).optional(),
        status: openEnum(finalStatuses),
        transaction_id: providerIdSchema.optional(),
        amount: responseAmountSchema.optional(),
        fee: responseAmountSchema.optional(),
        total: responseAmountSchema.optional(),
        ...fields,
      })
      .refine(namesAPayout, { message: 'must carry external_id or transaction_id', path: ['external_id'] }),
  );
}
