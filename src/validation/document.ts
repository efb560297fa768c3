/**
 * Brazilian taxpayer documents: CPF (people, 11 digits) and CNPJ (companies, 14 digits), masked or not,
 * each with its two mod-11 check digits; normalized to digits only, as the provider takes them. Pure:
 * workflow code may import it.
 */
import { z } from 'zod';
import { isValidCpf } from '../pix/keys';

const CNPJ_FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_SECOND_WEIGHTS = [6, ...CNPJ_FIRST_WEIGHTS] as const;

function cnpjCheckDigit(digits: readonly number[], weights: readonly number[]): number {
  const sum = digits.reduce((total, digit, index) => total + digit * (weights[index] ?? 0), 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** True for 14 digits (no mask) whose two check digits match and that are not all the same digit. */
export function isValidCnpj(digits: string): boolean {
  if (!/^\d{14}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) return false;
  const numbers = Array.from(digits, Number);
  return numbers[12] === cnpjCheckDigit(numbers.slice(0, 12), CNPJ_FIRST_WEIGHTS) && numbers[13] === cnpjCheckDigit(numbers.slice(0, 13), CNPJ_SECOND_WEIGHTS);
}

/** How a CPF or CNPJ may be written: digits only, or with its usual mask. */
export const TAX_DOCUMENT_PATTERN = /^(\d{11}|\d{14}|\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2})$/;
export const TAX_DOCUMENT_FORMS = 'a CPF (11 digits, or 123.456.789-09) or a CNPJ (14 digits, or 12.345.678/0001-95)';

/** The digits of a document written in one of TAX_DOCUMENT_PATTERN's forms, or why it is not a valid one. */
export function validateTaxDocument(text: string): { ok: true; digits: string } | { ok: false; message: string } {
  if (!TAX_DOCUMENT_PATTERN.test(text)) return { ok: false, message: `must be ${TAX_DOCUMENT_FORMS}` };
  const digits = text.replace(/\D/g, '');
  const cpf = digits.length === 11;
  if (cpf ? isValidCpf(digits) : isValidCnpj(digits)) return { ok: true, digits };
  return { ok: false, message: `${cpf ? 'CPF' : 'CNPJ'} check digits do not match` };
}

/** The document's form, stated in the OpenAPI documents (refused with 400). */
export const documentFormSchema = z.string().regex(TAX_DOCUMENT_PATTERN, `must be ${TAX_DOCUMENT_FORMS}`);

/** The digits of a document of the right form; check digits that do not match are an issue at `path` (422: no JSON Schema states them). */
export function documentDigits(text: string, ctx: z.RefinementCtx, path: (string | number)[]): string {
  const checked = validateTaxDocument(text);
  if (checked.ok) return checked.digits;
  ctx.addIssue({ code: 'custom', path, message: checked.message });
  return text.replace(/\D/g, '');
}

// 123.***.***-09 and 12.***.***/0001-95: enough for an operator to tell documents apart.
export function maskDocument(digits: string): string {
  if (digits.length === 11) return `${digits.slice(0, 3)}.***.***-${digits.slice(9)}`;
  if (digits.length === 14) return `${digits.slice(0, 2)}.***.***/${digits.slice(8, 12)}-${digits.slice(12)}`;
  return '***';
}
