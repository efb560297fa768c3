/**
 * A buyer's phone as people write it (docs/assumptions.md §9): E.164 (`+5511999999999`, any country),
 * or a Brazilian number with its area code, masked or not (`(11) 99999-9999`, `11 99999-9999`,
 * `11999999999`, `5511999999999`). Inside it is one form: digits with the country code, no `+`.
 */
import { z } from 'zod';

const SEPARATORS = /[\s().-]/g;
// Area code (DDD) without a 0, then an 8-digit landline or a 9-digit mobile.
const BRAZILIAN_NATIONAL = /^[1-9]{2}\d{8,9}$/;
// E.164: a country code that does not start with 0, at most 15 digits in all.
const E164_DIGITS = /^[1-9]\d{7,14}$/;
const BRAZIL = '55';

export const PHONE_FORMS =
  'E.164 (+5511999999999) or a Brazilian number with area code, e.g. (11) 99999-9999 or 11999999999';

/** Digits with the country code, or undefined when `text` is not a phone in one of the accepted forms. */
export function normalizePhone(text: string): string | undefined {
  const compact = text.trim().replace(SEPARATORS, '');
  if (compact.startsWith('+')) {
    const digits = compact.slice(1);
    if (!E164_DIGITS.test(digits)) return undefined;
    return !digits.startsWith(BRAZIL) || BRAZILIAN_NATIONAL.test(digits.slice(BRAZIL.length)) ? digits : undefined;
  }
  if (BRAZILIAN_NATIONAL.test(compact)) return BRAZIL + compact;
  if (compact.startsWith(BRAZIL) && BRAZILIAN_NATIONAL.test(compact.slice(BRAZIL.length))) return compact;
  return undefined;
}

export const phoneSchema = z.string().transform((text, ctx) => {
  const normalized = normalizePhone(text);
  if (normalized === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be a phone number: ${PHONE_FORMS}` });
    return z.NEVER;
  }
  return normalized;
});
