/**
 * A Brazilian person's or company's document, CPF (11 digits) or CNPJ (14 digits), with or without its
 * mask, checked by its check digits; normalized to digits only, as the provider takes it.
 */
import { z } from 'zod';
import { isValidCpf } from '../pix/keys';

const CNPJ_FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_SECOND_WEIGHTS = [6, ...CNPJ_FIRST_WEIGHTS];

function cnpjCheckDigit(digits: readonly number[], weights: readonly number[]): number {
  const sum = weights.reduce((total, weight, index) => total + weight * (digits[index] ?? 0), 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** True for 14 digits (no mask) whose two check digits match and that are not all the same digit. */
export function isValidCnpj(digits: string): boolean {
  if (!/^\d{14}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) return false;
  const numbers = Array.from(digits, Number);
  return numbers[12] === cnpjCheckDigit(numbers, CNPJ_FIRST_WEIGHTS) && numbers[13] === cnpjCheckDigit(numbers, CNPJ_SECOND_WEIGHTS);
}

/**
 * The document's form (stated in the OpenAPI document, refused with 400): 11 or 14 digits, or the
 * masks 123.456.789-09 and 12.345.678/0001-95.
 */
export const documentFormSchema = z
  .string()
  .regex(/^(\d{11}|\d{14}|\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2})$/, 'must be a CPF (11 digits) or a CNPJ (14 digits), digits only or with its mask');

/** The digits of a document of the right form whose check digits match (a rule no JSON Schema states). */
export function documentDigits(text: string, ctx: z.RefinementCtx, path: (string | number)[]): string {
  const digits = text.replace(/\D/g, '');
  if ((digits.length === 11 && isValidCpf(digits)) || (digits.length === 14 && isValidCnpj(digits))) return digits;
  ctx.addIssue({ code: 'custom', path, message: `is not a valid ${digits.length === 11 ? 'CPF' : 'CNPJ'}: its check digits do not match` });
  return digits;
}

// 123.***.***-09 and 12.***.***/0001-95: enough for an operator to tell documents apart.
export function maskDocument(digits: string): string {
  if (digits.length === 11) return `${digits.slice(0, 3)}.***.***-${digits.slice(9)}`;
  if (digits.length === 14) return `${digits.slice(0, 2)}.***.***/${digits.slice(8, 12)}-${digits.slice(12)}`;
  return '***';
}
