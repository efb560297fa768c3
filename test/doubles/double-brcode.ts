/**
 * PIX copy-and-paste codes (EMV BR Code) as the double makes and reads them: ID-length-value fields, a
 * CRC16-CCITT (0x1021, start 0xFFFF) over everything up to and including "6304".
 */
const field = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;

export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** A static code for one payment: the double's receiving key, the amount, the charge's txid. */
export function buildCode(fields: { pixKey: string; amount: string; txid: string }): string {
  const body = [
    field('00', '01'),
    field('01', '12'),
    field('26', field('00', 'br.gov.bcb.pix') + field('01', fields.pixKey)),
    field('52', '0000'),
    field('53', '986'),
    field('54', fields.amount),
    field('58', 'BR'),
    field('59', 'DOUBLE PAGAMENTOS'),
    field('60', 'RIO DE JANEIRO'),
    field('62', field('05', fields.txid)),
  ].join('');
  const unsigned = `${body}6304`;
  return unsigned + crc16(unsigned);
}

/** The top-level fields of a code whose CRC holds; undefined for anything else. */
export function readCode(code: string): Map<string, string> | undefined {
  if (code.length < 8 || crc16(code.slice(0, -4)) !== code.slice(-4).toUpperCase()) return undefined;
  const fields = new Map<string, string>();
  for (let at = 0; at < code.length - 4;) {
    const id = code.slice(at, at + 2);
    const length = Number(code.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length)) return undefined;
    fields.set(id, code.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}
