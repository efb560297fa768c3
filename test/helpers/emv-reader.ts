/**
 * A BR Code reader written for the tests only, independent of src/pix: top-level TLV fields, the
 * additional-data template's txid, and the CRC16-CCITT (0x1021, initial 0xFFFF) computed bit by bit (the provider
 * double's, which is written from the spec alone too).
 */
import { crc16 } from '../doubles/double-brcode';

export interface EmvReading {
  crcValid: boolean;
  fields: Map<string, string>;
  amount?: string;
  txid?: string;
}

/** Top-level TLV fields (ID 2 digits, length 2 digits, value); throws on a field that runs past the end. */
export function tlv(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const length = Number(text.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length)) throw new Error(`bad TLV at ${at}`);
    if (at + 4 + length > text.length) throw new Error(`field ${id} at ${at} runs past the end`);
    fields.set(id, text.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

export function readEmv(code: string): EmvReading {
  const fields = tlv(code);
  const crcValid = code.slice(-8, -4) === '6304' && crc16(code.slice(0, -4)) === code.slice(-4).toUpperCase();
  const additional = fields.get('62');
  const txid = additional ? tlv(additional).get('05') : undefined;
  const amount = fields.get('54');
  return { crcValid, fields, ...(amount ? { amount } : {}), ...(txid ? { txid } : {}) };
}
