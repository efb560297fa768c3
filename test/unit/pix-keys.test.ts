import fc from 'fast-check';
import {
  PIX_KEY_TYPES,
  isValidCpf,
  maskPixKey,
  pixKeyTypeSchema,
  validatePixKey,
  type PixKeyType,
} from '../../src/pix/keys';

/**
 * Check digits by the textbook formulation (remainder < 2 → 0, else 11 − remainder), independent of
 * the "× 10 mod 11" form used in src/pix/keys.
 */
function referenceCheckDigit(digits: number[]): number {
  const sum = digits.reduce((total, digit, index) => total + digit * (digits.length + 1 - index), 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}
function referenceCpf(base: number[]): string {
  const first = referenceCheckDigit(base);
  const second = referenceCheckDigit([...base, first]);
  return [...base, first, second].join('');
}

/** Each of `keys`, as a key of `type`, is refused with the one `message`. */
function expectEachRefused(type: PixKeyType, keys: string[], message: string): void {
  for (const key of keys) expect(validatePixKey(type, key)).toEqual({ ok: false, message });
}

const cpfBase = fc
  .array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 })
  .filter((digits) => new Set(digits).size > 1);

describe('CPF keys', () => {
  it('accepts a valid CPF with or without the mask and normalizes it to digits', () => {
    expect(validatePixKey('CPF', '529.982.247-25')).toEqual({ ok: true, normalized: '52998224725' });
    expect(validatePixKey('CPF', ' 52998224725 ')).toEqual({ ok: true, normalized: '52998224725' });
  });

  it('refuses a wrong check digit with a message the merchant understands', () => {
    expect(validatePixKey('CPF', '529.982.247-24')).toEqual({ ok: false, message: 'CPF check digits do not match' });
    expect(isValidCpf('52998224724')).toBe(false);
  });

  it('refuses CPFs made of one repeated digit, although they pass the check digit arithmetic', () => {
    expect(referenceCpf([1, 1, 1, 1, 1, 1, 1, 1, 1])).toBe('11111111111');
    expect(validatePixKey('CPF', '111.111.111-11')).toEqual({ ok: false, message: 'CPF cannot have all digits equal' });
    expect(isValidCpf('00000000000')).toBe(false);
  });

  it('refuses anything that is not 11 digits or the exact mask', () => {
    expectEachRefused(
      'CPF',
      ['5299822472', '529982247251', '529.982.24725', '529 982 247 25', 'abc.def.ghi-jk', ''],
      'CPF must have 11 digits, with or without the mask 123.456.789-09',
    );
    expect(isValidCpf('529.982.247-25')).toBe(false);
  });

  it('agrees with an independent implementation: every generated CPF is valid, any other last digit is not', () => {
    fc.assert(
      fc.property(cpfBase, fc.integer({ min: 1, max: 9 }), (base, shift) => {
        const cpf = referenceCpf(base);
        expect(isValidCpf(cpf)).toBe(true);
        const wrongLast = cpf.slice(0, 10) + String((Number(cpf[10]) + shift) % 10);
        expect(isValidCpf(wrongLast)).toBe(false);
        const wrongFirst = cpf.slice(0, 9) + String((Number(cpf[9]) + shift) % 10) + cpf.slice(10);
        expect(isValidCpf(wrongFirst)).toBe(false);
      }),
    );
  });
});

describe('EMAIL keys', () => {
  it('accepts an address and normalizes it to trimmed lowercase', () => {
    expect(validatePixKey('EMAIL', '  Fulano.Tal+pix@Example.COM.br ')).toEqual({
      ok: true,
      normalized: 'fulano.tal+pix@example.com.br',
    });
  });

  it('refuses addresses the provider could not deliver to', () => {
    expectEachRefused(
      'EMAIL',
      [
        'fulano',
        'fulano@',
        '@example.com',
        'fulano@@example.com',
        'ful ano@example.com',
        'fulano@example',
        'fulano..tal@example.com',
        'fulano@-example.com',
      ],
      'EMAIL must be a valid address, e.g. name@example.com',
    );
  });

  it('accepts 77 characters and refuses 78', () => {
    const domain = '@example.com';
    expect(validatePixKey('EMAIL', 'a'.repeat(77 - domain.length) + domain).ok).toBe(true);
    expect(validatePixKey('EMAIL', 'a'.repeat(78 - domain.length) + domain)).toEqual({
      ok: false,
      message: 'EMAIL must have at most 77 characters',
    });
  });
});

describe('PHONE keys', () => {
  it('accepts mobile and landline numbers written the usual ways and normalizes them to +55DDDNUMBER', () => {
    expect(validatePixKey('PHONE', '+55 (11) 98765-4321')).toEqual({ ok: true, normalized: '+5511987654321' });
    expect(validatePixKey('PHONE', '+5521987654321')).toEqual({ ok: true, normalized: '+5521987654321' });
    expect(validatePixKey('PHONE', '+55 61 3333-4444')).toEqual({ ok: true, normalized: '+556133334444' });
  });

  it('refuses numbers without the +55 country code', () => {
    expectEachRefused(
      'PHONE',
      ['11987654321', '5511987654321', '+1 415 555 0100', '+55 11 98765-43210', '+55 11 9876-543', '+55.11.98765.4321'],
      'PHONE must be in +55 form, e.g. +5511987654321',
    );
  });

  it('refuses an area code containing 0', () => {
    for (const key of ['+5501987654321', '+5510987654321']) {
      const result = validatePixKey('PHONE', key);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.message).toMatch(/^PHONE area code \(DDD\) \d\d is not valid/);
    }
  });

  it('refuses a 9-digit number not starting with 9 and an 8-digit number that is not a landline', () => {
    for (const key of ['+5511887654321', '+551198765432']) {
      const result = validatePixKey('PHONE', key);
      expect(!result.ok && result.message).toMatch(
        /9 digits starting with 9 \(mobile\) or 8 digits starting with 2-5 \(landline\)/,
      );
    }
  });
});

describe('key types', () => {
  it('are exactly the three the provider accepts', () => {
    expect(PIX_KEY_TYPES).toEqual(['CPF', 'EMAIL', 'PHONE']);
    expect(pixKeyTypeSchema.parse('EMAIL')).toBe('EMAIL');
    expect(pixKeyTypeSchema.safeParse('cpf').success).toBe(false);
    expect(pixKeyTypeSchema.safeParse('EVP').success).toBe(false);
  });

  it('refuses an unknown key type and lists the accepted ones', () => {
    expect(validatePixKey('CNPJ', '11222333000181')).toEqual({
      ok: false,
      message: 'key_type must be one of CPF, EMAIL, PHONE',
    });
  });

  it('does not accept a valid key under the wrong type', () => {
    expect(validatePixKey('PHONE', '52998224725').ok).toBe(false);
    expect(validatePixKey('EMAIL', '+5511987654321').ok).toBe(false);
    expect(validatePixKey('CPF', 'fulano@example.com').ok).toBe(false);
  });
});

describe('maskPixKey', () => {
  it('shows enough to recognise a key and hides the rest', () => {
    expect(maskPixKey('CPF', '529.982.247-25')).toBe('***.982.247-**');
    expect(maskPixKey('CPF', '12345678909')).toBe('***.456.789-**');
    expect(maskPixKey('EMAIL', 'Fulano@Example.com')).toBe('f***@example.com');
    expect(maskPixKey('PHONE', '+55 (11) 98765-4321')).toBe('+55 11 *****-4321');
    expect(maskPixKey('PHONE', '+556133334444')).toBe('+55 61 ****-4444');
  });

  it('reveals nothing of a key that does not validate', () => {
    expect(maskPixKey('CPF', '529.982.247-24')).toBe('***');
    expect(maskPixKey('EMAIL', 'not an email')).toBe('***');
    expect(maskPixKey('CNPJ', '11222333000181')).toBe('***');
  });
});
