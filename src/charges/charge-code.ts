/**
 * The provider's copy-and-paste code is checked before a payer ever sees it: a code that does not parse
 * (TLV structure, CRC16, a PIX account with GUI br.gov.bcb.pix) or asks for another amount would take the
 * payer's money somewhere else, or take the wrong amount.
 *
 * Two kinds are accepted. A static code carries the amount (field 54), which must be the charge's. A
 * dynamic code carries a location URL (26-25) where the payer's bank fetches the charge, and usually no
 * amount (txid `***`): nothing in it can be compared with ours, so the amount shown is our request's,
 * and the merchant's name is compared when CHARGE_MERCHANT_NAME says what it must be. A code with
 * neither an amount nor a location would let the payer choose the amount: refused.
 */
import { BrCodeError, parseBrCode } from '../pix/brcode';
import { formatCentavos } from '../money/centavos';

export type CodeCheck = { ok: true; kind: 'static' | 'dynamic'; txid?: string } | { ok: false; problem: string };

export interface CodeExpectations {
  amountCents: number;
  /** The merchant name (field 59) the provider's codes must carry; unset: not compared. */
  merchantName?: string | undefined;
}

function sameName(a: string, b: string): boolean {
  const plain = (value: string) =>
    value
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .trim()
      .toUpperCase();
  return plain(a) === plain(b);
}

export function checkChargeCode(code: string, expected: CodeExpectations): CodeCheck {
  try {
    const parsed = parseBrCode(code);
    if (expected.merchantName !== undefined && !sameName(parsed.merchantName, expected.merchantName)) {
      return {
        ok: false,
        problem: `the code names the merchant "${parsed.merchantName}", not "${expected.merchantName}"`,
      };
    }
    const txid = parsed.txid ? { txid: parsed.txid } : {};
    if (parsed.amountCentavos === undefined) {
      if (parsed.url === undefined)
        return {
          ok: false,
          problem: `the code carries no amount and no location, the charge is R$ ${formatCentavos(expected.amountCents)}`,
        };
      return { ok: true, kind: 'dynamic', ...txid };
    }
    if (parsed.amountCentavos !== expected.amountCents) {
      return {
        ok: false,
        problem: `the code carries R$ ${formatCentavos(parsed.amountCentavos)}, the charge is R$ ${formatCentavos(expected.amountCents)}`,
      };
    }
    return { ok: true, kind: parsed.url === undefined ? 'static' : 'dynamic', ...txid };
  } catch (error) {
    if (error instanceof BrCodeError) return { ok: false, problem: error.message };
    throw error;
  }
}
