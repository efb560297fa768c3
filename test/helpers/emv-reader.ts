/**
 * A BR Code reader written for the tests only, independent of src/pix: top-level TLV fields, the
 * additional-data template's txid, and the CRC16-CCITT (0x1021, initial 0xFFFF) computed bit by bit.
 */
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

/** CRC16-CCITT-FALSE over the UTF-8 bytes, as 4 upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export function readEmv(code: string): EmvReading {
  const fields = tlv(code);
  const crcValid = code.slice(-8, -4) === '6304' && crc16(code.slice(0, -4)) === code.slice(-4).toUpperCase();
  const additional = fields.get('62');
  const txid = additional ? tlv(additional).get('05') : undefined;
  const amount = fields.get('54');
  return { crcValid, fields, ...(amount ? { amount } : {}), ...(txid ? { txid } : {}) };
}
