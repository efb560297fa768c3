/**
 * Brazilian taxpayer documents: CPF (people, 11 digits) and CNPJ (companies, 14 characters), masked or
 * not, each with its two check digits; normalized to the document without its mask, as the provider
 * takes them. CNPJs issued from July 2026 are alphanumeric (IN RFB 2.229/2024): 12 digits or capital
 * letters, then 2 check digits; @fnando/cnpj checks both generations. Pure: workflow code may import it.
 */
import { z } from 'zod';
import { isValid as cnpjCheckDigitsMatch } from '@fnando/cnpj/commonjs';
import { isValidCpf } from '../pix/keys';

const CNPJ_UNMASKED = /^[0-9A-Z]{12}\d{2}$/;

/** True for a CNPJ without mask (14 digits, or 12 digits and capital letters then 2 digits) whose two check digits match and that is not one digit repeated. */
export function isValidCnpj(unmasked: string): boolean {
  return CNPJ_UNMASKED.test(unmasked) && cnpjCheckDigitsMatch(unmasked, true);
}

/** How a CPF or CNPJ may be written: without mask, or with its usual one; an alphanumeric CNPJ's letters in capitals. */
export const TAX_DOCUMENT_PATTERN =
  /^(\d{11}|[0-9A-Z]{12}\d{2}|\d{3}\.\d{3}\.\d{3}-\d{2}|[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2})$/;
export const TAX_DOCUMENT_FORMS =
  'a CPF (11 digits, or 123.456.789-09) or a CNPJ (14 characters, or 12.345.678/0001-95; from July 2026 also alphanumeric, capital letters: 12.ABC.345/01DE-35)';

/** The document without its mask, written in one of TAX_DOCUMENT_PATTERN's forms, or why it is not a valid one. */
export function validateTaxDocument(text: string): { ok: true; unmasked: string } | { ok: false; message: string } {
  if (!TAX_DOCUMENT_PATTERN.test(text)) return { ok: false, message: `must be ${TAX_DOCUMENT_FORMS}` };
  const unmasked = text.replace(/[./-]/g, '');
  const cpf = unmasked.length === 11;
  if (cpf ? isValidCpf(unmasked) : isValidCnpj(unmasked)) return { ok: true, unmasked };
  return { ok: false, message: `${cpf ? 'CPF' : 'CNPJ'} check digits do not match` };
}

/** The document's form, stated in the OpenAPI documents (refused with 400). */
export const documentFormSchema = z.string().regex(TAX_DOCUMENT_PATTERN, `must be ${TAX_DOCUMENT_FORMS}`);

/** A document of the right form without its mask; check digits that do not match are an issue at `path` (422: no JSON Schema states them). */
export function unmaskedDocument(text: string, ctx: z.RefinementCtx, path: (string | number)[]): string {
  const checked = validateTaxDocument(text);
  if (checked.ok) return checked.unmasked;
  ctx.addIssue({ code: 'custom', path, message: checked.message });
  return text.replace(/[./-]/g, '');
}

// 123.***.***-09 and 12.***.***/0001-95: enough for an operator to tell documents apart.
export function maskDocument(unmasked: string): string {
  if (unmasked.length === 11) return `${unmasked.slice(0, 3)}.***.***-${unmasked.slice(9)}`;
  if (unmasked.length === 14) return `${unmasked.slice(0, 2)}.***.***/${unmasked.slice(8, 12)}-${unmasked.slice(12)}`;
  return '***';
}
