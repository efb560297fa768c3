/**
 * PIX keys as the provider's withdrawal request accepts them (key_type CPF, EMAIL or PHONE).
 * Validating here lets a merchant fix a typo before money moves, instead of reading a provider
 * rejection later. Pure and free of Node built-ins so workflow code may import it.
 */
import { z } from 'zod';

export const PIX_KEY_TYPES = ['CPF', 'EMAIL', 'PHONE'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];
export const pixKeyTypeSchema = z.enum(PIX_KEY_TYPES);

export type PixKeyValidation = { ok: true; normalized: string } | { ok: false; message: string };

const CPF_DIGITS = /^\d{11}$/;
const CPF_MASKED = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const MAX_EMAIL_LENGTH = 77;
// Local part: RFC 5322 atoms separated by single dots; domain: at least two labels and an alphabetic TLD.
const EMAIL_PATTERN =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const PHONE_SEPARATORS = /[\s()-]/g;
// Area codes (DDD) never contain a 0; mobiles have 9 digits starting with 9, landlines 8 starting with 2-5.
const PHONE_PATTERN = /^\+55([1-9]{2})(9\d{8}|[2-5]\d{7})$/;
const PHONE_EXAMPLE = '+5511987654321';

/** Official mod-11 check digit over `digits`, weights counting down from digits.length + 1. */
function cpfCheckDigit(digits: readonly number[]): number {
  let sum = 0;
  digits.forEach((digit, index) => {
    sum += digit * (digits.length + 1 - index);
  });
  const remainder = (sum * 10) % 11;
  return remainder === 10 ? 0 : remainder;
}

/** True for 11 digits (no mask) whose two check digits match and that are not all the same digit. */
export function isValidCpf(digits: string): boolean {
  if (!CPF_DIGITS.test(digits)) return false;
  if (/^(\d)\1{10}$/.test(digits)) return false;
  const numbers = Array.from(digits, Number);
  const first = cpfCheckDigit(numbers.slice(0, 9));
  const second = cpfCheckDigit(numbers.slice(0, 10));
  return numbers[9] === first && numbers[10] === second;
}

function validateCpf(key: string): PixKeyValidation {
  const trimmed = key.trim();
  if (!CPF_DIGITS.test(trimmed) && !CPF_MASKED.test(trimmed)) {
    return { ok: false, message: 'CPF must have 11 digits, with or without the mask 123.456.789-09' };
  }
  const digits = trimmed.replace(/\D/g, '');
  if (/^(\d)\1{10}$/.test(digits)) return { ok: false, message: 'CPF cannot have all digits equal' };
  if (!isValidCpf(digits)) return { ok: false, message: 'CPF check digits do not match' };
  return { ok: true, normalized: digits };
}

function validateEmail(key: string): PixKeyValidation {
  const normalized = key.trim().toLowerCase();
  if (normalized.length > MAX_EMAIL_LENGTH) {
    return { ok: false, message: `EMAIL must have at most ${MAX_EMAIL_LENGTH} characters` };
  }
  if (!EMAIL_PATTERN.test(normalized)) {
    return { ok: false, message: 'EMAIL must be a valid address, e.g. name@example.com' };
  }
  return { ok: true, normalized };
}

function validatePhone(key: string): PixKeyValidation {
  const normalized = key.replace(PHONE_SEPARATORS, '');
  if (!/^\+55\d{10,11}$/.test(normalized)) {
    return { ok: false, message: `PHONE must be in +55 form, e.g. ${PHONE_EXAMPLE}` };
  }
  const match = PHONE_PATTERN.exec(normalized);
  if (!match) {
    const areaCode = normalized.slice(3, 5);
    if (areaCode.includes('0')) {
      return { ok: false, message: `PHONE area code (DDD) ${areaCode} is not valid: it has no 0, e.g. 11 or 21` };
    }
    return {
      ok: false,
      message: `PHONE number after the area code must be 9 digits starting with 9 (mobile) or 8 digits starting with 2-5 (landline), e.g. ${PHONE_EXAMPLE}`,
    };
  }
  return { ok: true, normalized };
}

function maskPhone(normalized: string): string {
  const areaCode = normalized.slice(3, 5);
  const subscriber = normalized.slice(5);
  return `+55 ${areaCode} ${'*'.repeat(subscriber.length - 4)}-${subscriber.slice(-4)}`;
}

/** Each key type: how a key is checked and normalized, and how its normalized form is shown masked. */
const KEY_TYPES: Readonly<
  Record<PixKeyType, { validate(key: string): PixKeyValidation; mask(normalized: string): string }>
> = {
  CPF: { validate: validateCpf, mask: (cpf) => `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**` },
  EMAIL: { validate: validateEmail, mask: (email) => `${email.slice(0, 1)}***${email.slice(email.lastIndexOf('@'))}` },
  PHONE: { validate: validatePhone, mask: maskPhone },
};

function keyTypeOf(keyType: string): (typeof KEY_TYPES)[PixKeyType] | undefined {
  const parsed = pixKeyTypeSchema.safeParse(keyType);
  return parsed.success ? KEY_TYPES[parsed.data] : undefined;
}

/** Validates and normalizes a key for its type: CPF → 11 digits, EMAIL → lowercase, PHONE → +55DDDNUMBER. */
export function validatePixKey(keyType: string, key: string): PixKeyValidation {
  return (
    keyTypeOf(keyType)?.validate(key) ?? { ok: false, message: `key_type must be one of ${PIX_KEY_TYPES.join(', ')}` }
  );
}

/** A placeholder that reveals nothing, for keys that do not even validate. */
const FULLY_MASKED = '***';

/**
 * A key safe for logs and screens: enough to recognise it, not enough to reuse it
 * (CPF → ***.456.789-**, EMAIL → f***@example.com, PHONE → +55 11 *****-4321).
 */
export function maskPixKey(keyType: string, key: string): string {
  const type = keyTypeOf(keyType);
  const validation = type?.validate(key);
  return type && validation?.ok ? type.mask(validation.normalized) : FULLY_MASKED;
}
