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
import { reaisAmountSchema } from '../../money/centavos';

/** Upper bound of one operation, chosen for the sandbox (see docs/assumptions.md). */
export const MAX_OPERATION_REAIS = 1_000_000;

/** A request amount: reais, at most 2 decimals, at least 0.01, at most MAX_OPERATION_REAIS. */
export const requestAmountSchema = reaisAmountSchema
  // A pipe so that a malformed amount reports one problem, not three.
  .pipe(
    z
      .number()
      .gt(0, { message: 'amount must be greater than zero' })
      .max(MAX_OPERATION_REAIS, { message: `amount must be at most ${MAX_OPERATION_REAIS.toFixed(2)}` }),
  )
  .describe(`Reais as a JSON number with at most 2 decimals, from 0.01 to ${MAX_OPERATION_REAIS.toFixed(2)}`);

/** An amount the provider reports: reais with at most 2 decimals, so it converts to centavos exactly. */
export const responseAmountSchema = reaisAmountSchema;

/** A required text field: present and not blank. */
export const requiredTextSchema = z.string().trim().min(1, { message: 'must not be empty' });

/** An identifier chosen by the client (external_id, cash-in transactionId): printable, bounded. */
export const clientIdentifierSchema = z
  .string()
  .min(1, { message: 'must not be empty' })
  .max(100, { message: 'must have at most 100 characters' })
  .regex(/^[A-Za-z0-9._:-]+$/, { message: 'may contain only letters, digits, ".", "_", ":" and "-"' });

/** Where callbacks go: an absolute http(s) URL (http allowed so the sandbox can call localhost). */
export const callbackUrlSchema = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

export const descriptionSchema = z.string().max(255, { message: 'must have at most 255 characters' });

/** Routing label; accepted values are not published, so any short label passes (see assumptions). */
export const gatewaySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, { message: 'must be 1-32 letters, digits, "_" or "-"' });

/** CPF (11 digits) or CNPJ (14 digits), without mask. */
export const documentNumberSchema = z
  .string()
  .regex(/^(\d{11}|\d{14})$/, { message: 'must be 11 (CPF) or 14 (CNPJ) digits without mask' });

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
export function acceptSpellings<T extends z.ZodType>(spellings: Readonly<Record<string, readonly string[]>>, schema: T) {
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
