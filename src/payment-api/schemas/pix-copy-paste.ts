/**
 * Endpoint 5: POST /api/payments/pix-copy-paste/pay, paying an EMV (BR Code) payload. Shapes are not
 * in the spec. The sandbox's mirror the withdrawal (fee charged at request time, status PROCESSING, final
 * status by callback) with `qrcode` carrying the EMV text, the same name the cash-in response uses. The
 * engine sends the request under the field names PIX_COPY_PASTE_REQUEST_FIELDS gives (the sandbox's by
 * default) and reads any answer that names the payment (`readPixCopyPasteAnswer`).
 */
import { z } from 'zod';
import {
  callbackUrlSchema,
  clientIdentifierSchema,
  descriptionSchema,
  nonBlankTextSchema,
  providerIdSchema,
  requestAmountSchema,
  responseAmountSchema,
} from './common';
import { pixOutCallbackSchema, pixOutResponseSchema } from './withdrawal';

/** EMV payloads are at most 512 characters in practice (BR Code manual). */
const MAX_EMV_LENGTH = 512;

export const pixCopyPasteRequestSchema = z
  .strictObject({
    /** The EMV copy-and-paste text. Its CRC and fields are checked as a business rule (422 INVALID_QRCODE). */
    qrcode: nonBlankTextSchema(MAX_EMV_LENGTH),
    external_id: clientIdentifierSchema,
    /** Required when the EMV carries no amount; when both exist they must agree (422 AMOUNT_MISMATCH). */
    amount: requestAmountSchema.optional(),
    clientCallbackUrl: callbackUrlSchema,
    description: descriptionSchema.optional(),
  })
  .meta({ id: 'PixCopyPasteRequest' });
export type PixCopyPasteRequest = z.input<typeof pixCopyPasteRequestSchema>;

export const pixCopyPasteResponseSchema = pixOutResponseSchema('payment', 'PixCopyPaste', 'PixCopyPasteResponse');
export const pixCopyPasteCallbackSchema = pixOutCallbackSchema('PixCopyPaste');

/** What a copy-and-paste request carries, by the engine's name for each; `description` may go unsent. */
export const PIX_COPY_PASTE_REQUEST_PARTS = ['emv', 'amount', 'externalId', 'callbackUrl', 'description'] as const;
export type PixCopyPasteRequestPart = (typeof PIX_COPY_PASTE_REQUEST_PARTS)[number];
/** Each part's field name on the wire; a part without one (only `description` may lack it) is not sent. */
export type PixCopyPasteFieldNames = Readonly<Record<Exclude<PixCopyPasteRequestPart, 'description'>, string>> & {
  readonly description?: string;
};

/** The sandbox's names, those of `pixCopyPasteRequestSchema`: the default, and the names the client checks a request under. */
export const DEFAULT_PIX_COPY_PASTE_FIELDS: Readonly<Record<PixCopyPasteRequestPart, string>> = {
  emv: 'qrcode',
  amount: 'amount',
  externalId: 'external_id',
  callbackUrl: 'clientCallbackUrl',
  description: 'description',
};

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const REQUIRED_PARTS = PIX_COPY_PASTE_REQUEST_PARTS.filter((part) => part !== 'description');

/**
 * PIX_COPY_PASTE_REQUEST_FIELDS: `emv=<name>,amount=<name>,externalId=<name>,callbackUrl=<name>[,description=<name>]`,
 * every part but `description` named (without it no description is sent), each name a JSON field name, all distinct.
 */
export const pixCopyPasteFieldNamesSchema = z.string().transform((text, ctx) => {
  const names: Partial<Record<PixCopyPasteRequestPart, string>> = {};
  for (const entry of text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0)) {
    const [part = '', name = '', ...rest] = entry.split('=').map((item) => item.trim());
    if (
      !(PIX_COPY_PASTE_REQUEST_PARTS as readonly string[]).includes(part) ||
      rest.length > 0 ||
      !FIELD_NAME.test(name)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `\`${entry}\` is not <part>=<field name> with a part among ${PIX_COPY_PASTE_REQUEST_PARTS.join(', ')}`,
      });
      return z.NEVER;
    }
    names[part as PixCopyPasteRequestPart] = name;
  }
  const missing = REQUIRED_PARTS.filter((part) => names[part] === undefined);
  const given = Object.values(names);
  if (missing.length > 0)
    ctx.addIssue({
      code: 'custom',
      message: `must name ${missing.join(', ')} (e.g. emv=qrcode,amount=amount,externalId=external_id,callbackUrl=clientCallbackUrl)`,
    });
  else if (new Set(given).size !== given.length)
    ctx.addIssue({ code: 'custom', message: 'must give each part a field name of its own' });
  return names as PixCopyPasteFieldNames;
});

/** The setting's text for a set of names (a process started with the same configuration reads it back). */
export function formatPixCopyPasteFields(names: PixCopyPasteFieldNames): string {
  return PIX_COPY_PASTE_REQUEST_PARTS.flatMap((part) =>
    names[part] === undefined ? [] : [`${part}=${names[part]}`],
  ).join(',');
}

/** A request checked under the sandbox's names, as it goes out under the provider's. */
export function pixCopyPasteWireBody(
  request: Readonly<Record<string, unknown>>,
  names: PixCopyPasteFieldNames,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const part of PIX_COPY_PASTE_REQUEST_PARTS) {
    const value = request[DEFAULT_PIX_COPY_PASTE_FIELDS[part]];
    const name = names[part];
    if (value !== undefined && name !== undefined) body[name] = value;
  }
  return body;
}

/** Endpoint 5's answer as the engine reads it: the payment named, or what the answer held instead. */
export type PixCopyPasteAnswer =
  | { read: true; transactionId: string; status?: string; fee?: number; total?: number }
  | { read: false; fields: string[] };

const ID_FIELDS = ['transactionId', 'transaction_id'] as const;
const answerStatusSchema = z.string().min(1).max(64);
/** Field names listed when the answer names no payment: enough to see its shape, bounded. */
const LISTED_FIELDS = 20;

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first value of `names`, in these objects in order, that reads with `schema`. */
function firstReading<T>(levels: readonly Fields[], names: readonly string[], schema: z.ZodType<T>): T | undefined {
  for (const level of levels) {
    for (const name of names) {
      const read = schema.safeParse(level[name]);
      if (read.success) return read.data;
    }
  }
  return undefined;
}

/**
 * Endpoint 5's answer, whatever its shape (not shown by the spec): the payment's id as `transactionId` or
 * `transaction_id`, at the top level or in an object one level down (the top level first, then the objects
 * in their order), and `status`, `fee` and `total` the same way, from the id's object first. An answer that
 * names no payment reads as the field names it had, for the problem its payout shows.
 */
export function readPixCopyPasteAnswer(answer: unknown): PixCopyPasteAnswer {
  const top = isFields(answer) ? answer : {};
  const levels = [top, ...Object.values(top).filter(isFields)];
  for (const holder of levels) {
    const transactionId = firstReading([holder], ID_FIELDS, providerIdSchema);
    if (transactionId === undefined) continue;
    const fromHolder = [holder, ...levels.filter((level) => level !== holder)];
    const status = firstReading(fromHolder, ['status'], answerStatusSchema);
    const fee = firstReading(fromHolder, ['fee'], responseAmountSchema);
    const total = firstReading(fromHolder, ['total'], responseAmountSchema);
    return {
      read: true,
      transactionId,
      ...(status === undefined ? {} : { status }),
      ...(fee === undefined ? {} : { fee }),
      ...(total === undefined ? {} : { total }),
    };
  }
  const fields = Object.entries(top).flatMap(([name, value]) =>
    isFields(value) ? [name, ...Object.keys(value).map((inner) => `${name}.${inner}`)] : [name],
  );
  return { read: false, fields: fields.slice(0, LISTED_FIELDS).map((field) => field.slice(0, 64)) };
}

/** Endpoint 5's answer as the client hands it on: any JSON, read by `readPixCopyPasteAnswer`. */
export const pixCopyPasteAnswerSchema = z.unknown().transform(readPixCopyPasteAnswer);
