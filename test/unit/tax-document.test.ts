import { isValidCnpj, validateTaxDocument } from '../../src/validation/document';

test('CPF and CNPJ, masked or not, are read as their digits when the check digits match', () => {
  expect(validateTaxDocument('529.982.247-25')).toEqual({ ok: true, digits: '52998224725' });
  expect(validateTaxDocument('52998224725')).toEqual({ ok: true, digits: '52998224725' });
  expect(validateTaxDocument('11.222.333/0001-81')).toEqual({ ok: true, digits: '11222333000181' });
  expect(validateTaxDocument('11222333000181')).toEqual({ ok: true, digits: '11222333000181' });
});

test('wrong check digits, repeated digits and other forms are refused with the reason', () => {
  expect(validateTaxDocument('529.982.247-26')).toEqual({ ok: false, message: 'CPF check digits do not match' });
  expect(validateTaxDocument('11222333000182')).toEqual({ ok: false, message: 'CNPJ check digits do not match' });
  expect(validateTaxDocument('11111111111111')).toEqual({ ok: false, message: 'CNPJ check digits do not match' });
  expect(validateTaxDocument('5299822472')).toMatchObject({ ok: false, message: expect.stringContaining('must be a CPF') as unknown });
  expect(isValidCnpj('00000000000000')).toBe(false);
});
