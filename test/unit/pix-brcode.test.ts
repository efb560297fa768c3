import fc from 'fast-check';
import { BrCodeError, buildBrCode, parseBrCode } from '../../src/pix/brcode';
import { crc16CcittFalse } from '../../src/pix/crc16';

// The static example published in the Banco Central "Manual de Padrões para Iniciação do Pix".
const BCB_MANUAL_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const EVP_KEY = '123e4567-e12b-12d1-a456-426655440000';

/** A table-driven CRC16-CCITT-FALSE written independently of src/pix/crc16 (ASCII input only). */
const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
  return crc & 0xffff;
});
function referenceCrc(ascii: string): string {
  let crc = 0xffff;
  for (let i = 0; i < ascii.length; i += 1) {
    crc = ((crc << 8) ^ (CRC_TABLE[((crc >> 8) ^ ascii.charCodeAt(i)) & 0xff] ?? 0)) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** A minimal independent TLV reader: top-level fields of an ASCII payload. */
function referenceFields(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let at = 0; at < payload.length;) {
    const length = parseInt(payload.slice(at + 2, at + 4), 10);
    fields.set(payload.slice(at, at + 2), payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Closes a hand-written body with field 63, the CRC computed by the reference implementation. */
function withCrc(body: string): string {
  return `${body}6304${referenceCrc(`${body}6304`)}`;
}

/** A valid hand-written body whose fields can be swapped one at a time. */
function body(overrides: Record<string, string | null> = {}): string {
  const defaults: [string, string][] = [
    ['00', '01'],
    ['26', tlv('00', 'br.gov.bcb.pix') + tlv('01', EVP_KEY)],
    ['52', '0000'],
    ['53', '986'],
    ['54', '10.50'],
    ['58', 'BR'],
    ['59', 'Fulano de Tal'],
    ['60', 'BRASILIA'],
    ['62', tlv('05', 'PEDIDO123')],
  ];
  return defaults
    .map(([id, value]) => {
      const override = overrides[id];
      if (override === null) return '';
      return tlv(id, override ?? value);
    })
    .join('');
}

function parseError(payload: string): string {
  try {
    parseBrCode(payload);
  } catch (error) {
    expect(error).toBeInstanceOf(BrCodeError);
    expect((error as Error).name).toBe('BrCodeError');
    return (error as Error).message;
  }
  throw new Error('expected parseBrCode to throw');
}

describe('crc16CcittFalse', () => {
  it('matches the CCITT-FALSE check value and the reference implementation', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
    expect(referenceCrc('123456789')).toBe('29B1');
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 200 }), (text) => {
        expect(crc16CcittFalse(text)).toBe(referenceCrc(text));
      }),
    );
  });
});

describe('buildBrCode', () => {
  it('reproduces the Banco Central manual example byte for byte', () => {
    expect(buildBrCode({ pixKey: EVP_KEY, merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', txid: '***' })).toBe(
      BCB_MANUAL_EXAMPLE,
    );
  });

  it('builds a single-use charge of R$ 1,00 that an independent reader and CRC accept', () => {
    const code = buildBrCode({
      pixKey: EVP_KEY,
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      amountCentavos: 100,
      txid: '***',
    });
    const fields = referenceFields(code);
    expect([...fields.keys()]).toEqual(['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    expect(fields.get('01')).toBe('12');
    expect(fields.get('54')).toBe('1.00');
    expect(fields.get('26')).toBe(`0014br.gov.bcb.pix0136${EVP_KEY}`);
    expect(fields.get('63')).toBe(referenceCrc(code.slice(0, -4)));

    const parsed = parseBrCode(code);
    expect(parsed).toMatchObject({
      pixKey: EVP_KEY,
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      amountCentavos: 100,
      txid: '***',
      pointOfInitiation: '12',
    });
  });

  it('strips accents from name and city and shortens them to 25 and 15 characters', () => {
    const code = buildBrCode({
      pixKey: 'fulano@example.com',
      merchantName: 'Padaria e Confeitaria São João da Esquina',
      merchantCity: 'São José dos Campos',
      txid: 'ABC123',
    });
    const parsed = parseBrCode(code);
    expect(parsed.merchantName).toBe('Padaria e Confeitaria Sao');
    expect(parsed.merchantCity).toBe('Sao Jose dos Ca');
    expect(code).toMatch(/^[\x20-\x7e]+$/);
  });

  it('carries a description and a txid through to the parsed code', () => {
    const parsed = parseBrCode(
      buildBrCode({
        pixKey: '+5511987654321',
        merchantName: 'Loja',
        merchantCity: 'RECIFE',
        amountCentavos: 123456,
        txid: 'Pedido2024x9',
        description: 'Pedido nº 42',
      }),
    );
    expect(parsed).toMatchObject({ description: 'Pedido no 42', txid: 'Pedido2024x9', amountCentavos: 123456 });
  });

  it('refuses inputs the payer bank could not read', () => {
    const base = { pixKey: EVP_KEY, merchantName: 'Loja', merchantCity: 'RECIFE', txid: '***' };
    expect(() => buildBrCode({ ...base, txid: 'pedido-123' })).toThrow(/txid/);
    expect(() => buildBrCode({ ...base, txid: 'A'.repeat(26) })).toThrow(/txid/);
    expect(() => buildBrCode({ ...base, amountCentavos: 1.5 })).toThrow(/field 54 \(amount\)/);
    expect(() => buildBrCode({ ...base, amountCentavos: 0 })).toThrow(/field 54 \(amount\)/);
    expect(() => buildBrCode({ ...base, description: 'x'.repeat(60) })).toThrow(/field 26 .* maximum is 99/);
    expect(() => buildBrCode({ ...base, merchantName: '   ' })).toThrow(/field 59 \(merchant name\) must not be empty/);
    expect(() => buildBrCode({ ...base, pixKey: '' })).toThrow(BrCodeError);
  });

  it('round-trips any amount and txid exactly, without float rounding', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999_999_999 }),
        fc.oneof(fc.constant('***'), fc.stringMatching(/^[A-Za-z0-9]{1,25}$/)),
        (amountCentavos, txid) => {
          const code = buildBrCode({
            pixKey: EVP_KEY,
            merchantName: 'Loja',
            merchantCity: 'RECIFE',
            amountCentavos,
            txid,
          });
          const parsed = parseBrCode(code);
          expect(parsed.amountCentavos).toBe(amountCentavos);
          expect(parsed.txid).toBe(txid);
          expect(code.slice(-4)).toBe(referenceCrc(code.slice(0, -4)));
        },
      ),
    );
  });
});

describe('parseBrCode', () => {
  it('reads the Banco Central manual example', () => {
    const parsed = parseBrCode(BCB_MANUAL_EXAMPLE);
    expect(parsed).toEqual({
      pixKey: EVP_KEY,
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      txid: '***',
      fields: Object.fromEntries(referenceFields(BCB_MANUAL_EXAMPLE)),
    });
    expect(parsed.amountCentavos).toBeUndefined();
  });

  it('refuses a code with any single character altered', () => {
    const altered = BCB_MANUAL_EXAMPLE.replace('Fulano', 'Fulanx');
    expect(parseError(altered)).toBe(`CRC mismatch: expected ${referenceCrc(altered.slice(0, -4))}, got 1D3D`);
    expect(parseError(BCB_MANUAL_EXAMPLE.replace(/1D3D$/, 'ABCD'))).toBe('CRC mismatch: expected 1D3D, got ABCD');
    const amount = buildBrCode({
      pixKey: EVP_KEY,
      merchantName: 'Loja',
      merchantCity: 'RECIFE',
      amountCentavos: 100,
      txid: '***',
    });
    expect(parseError(amount.replace('1.00', '9.00'))).toMatch(/^CRC mismatch/);
  });

  it('ignores whitespace around a pasted code and accepts a lowercase CRC', () => {
    expect(parseBrCode(`  ${BCB_MANUAL_EXAMPLE}\n`).pixKey).toBe(EVP_KEY);
    expect(parseBrCode(BCB_MANUAL_EXAMPLE.replace(/1D3D$/, '1d3d')).pixKey).toBe(EVP_KEY);
  });

  it('converts amounts to exact centavos', () => {
    const cases: [string, number][] = [
      ['10.50', 1050],
      ['1.5', 150],
      ['0.10', 10],
      ['7', 700],
      ['8.16', 816],
      ['9999999999.99', 999_999_999_999],
    ];
    for (const [text, centavos] of cases) {
      expect(parseBrCode(withCrc(body({ '54': text }))).amountCentavos).toBe(centavos);
    }
  });

  it('refuses malformed amounts naming field 54', () => {
    for (const text of ['1.005', '1,00', '1e2', '-1.00', '.50', '12345678901.00', '0.00']) {
      expect(parseError(withCrc(body({ '54': text })))).toMatch(/^field 54 \(amount\)/);
    }
  });

  it('names the missing or wrong field', () => {
    expect(parseError(withCrc(body({ '59': null })))).toBe('field 59 (merchant name) missing');
    expect(parseError(withCrc(body({ '60': null })))).toBe('field 60 (merchant city) missing');
    expect(parseError(withCrc(body({ '52': null })))).toBe('field 52 (merchant category code) missing');
    expect(parseError(withCrc(body({ '53': '840' })))).toBe('field 53 (transaction currency) must be "986", got "840"');
    expect(parseError(withCrc(body({ '58': 'US' })))).toBe('field 58 (country code) must be "BR", got "US"');
    expect(parseError(withCrc(body({ '00': '02' })))).toBe(
      'field 00 (payload format indicator) must be "01", got "02"',
    );
    expect(parseError(withCrc(body({ '26': null })))).toMatch(/^field 26 \(merchant account information\) missing/);
    expect(parseError(withCrc(body({ '26': tlv('00', 'com.example.wallet') + tlv('01', EVP_KEY) })))).toMatch(
      /^field 26 .* missing: no template with GUI br.gov.bcb.pix/,
    );
    expect(parseError(withCrc(body({ '26': tlv('00', 'br.gov.bcb.pix') })))).toMatch(/neither a PIX key/);
    expect(parseError(withCrc(body({ '59': 'A'.repeat(26) })))).toMatch(
      /^field 59 \(merchant name\) is longer than 25/,
    );
    expect(parseError(withCrc(body({ '62': tlv('05', 'pedido-1') })))).toMatch(/^field 62 \(additional data\) txid/);
  });

  it('accepts an uppercase GUI and a dynamic code that points to a URL instead of a key', () => {
    const url = 'pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25';
    const dynamic = withCrc(
      tlv('00', '01') +
        tlv('01', '12') +
        body({ '00': null, '26': tlv('00', 'BR.GOV.BCB.PIX') + tlv('25', url), '54': null, '62': tlv('05', '***') }),
    );
    const parsed = parseBrCode(dynamic);
    expect(parsed.url).toBe(url);
    expect(parsed.pixKey).toBeUndefined();
    expect(parsed.pointOfInitiation).toBe('12');
  });

  it('refuses broken structure', () => {
    expect(parseError('')).toBe('BR Code is empty');
    // Field 59 declares 40 characters but the payload ends first.
    expect(parseError(`${body({ '59': null })}5940Fulano`)).toMatch(/^field 59 \(merchant name\) declares length 40/);
    expect(parseError(body())).toMatch(/^field 63 \(CRC\) missing/);
    expect(parseError(`${body()}6305ABCDE`)).toBe('field 63 (CRC) must have length 04');
    expect(parseError(`${body()}6304XYZW`)).toMatch(/^field 63 \(CRC\) must be 4 hexadecimal/);
    expect(parseError(withCrc(`${body()}5802BR`))).toBe('field 58 (country code) appears twice');
    expect(parseError(withCrc(`${body()}ab`))).toMatch(/^malformed payload/);
    expect(parseError(withCrc(tlv('01', '12') + body()))).toBe(
      'field 00 (payload format indicator) must be the first field',
    );
    expect(parseError(withCrc(tlv('00', '01') + tlv('01', '13') + body({ '00': null })))).toMatch(
      /^field 01 \(point of initiation method\)/,
    );
  });
});
