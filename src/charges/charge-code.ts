/**
 * The provider's copy-and-paste code is checked before a payer ever sees it: a code that does not parse
 * (TLV structure, CRC16) or asks for another amount would take the payer's money somewhere else, or
 * take the wrong amount.
 */
import { BrCodeError, parseBrCode } from '../pix/brcode';
import { formatCentavos } from '../money/centavos';

export type CodeCheck = { ok: true; txid?: string } | { ok: false; problem: string };

export function checkChargeCode(code: string, amountCents: number): CodeCheck {
  try {
    const parsed = parseBrCode(code);
    if (parsed.amountCentavos !== amountCents) {
      const carried = parsed.amountCentavos === undefined ? 'no amount' : `R$ ${formatCentavos(parsed.amountCentavos)}`;
      return { ok: false, problem: `the code carries ${carried}, the charge is R$ ${formatCentavos(amountCents)}` };
    }
    return { ok: true, ...(parsed.txid ? { txid: parsed.txid } : {}) };
  } catch (error) {
    if (error instanceof BrCodeError) return { ok: false, problem: error.message };
    throw error;
  }
}
