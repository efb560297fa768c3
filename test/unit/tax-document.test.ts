import { isValidCnpj, validateTaxDocument } from '../../src/validation/document';

test('CPF and CNPJ, masked or not, are read without their mask when the check digits match', () => {
  expect(validateTaxDocument('529.982.247-25')).toEqual({ ok: true, unmasked: '52998224725' });
  expect(validateTaxDocument('52998224725')).toEqual({ ok: true, unmasked: '52998224725' });
  expect(validateTaxDocument('11.222.333/0001-81')).toEqual({ ok: true, unmasked: '11222333000181' });
  expect(validateTaxDocument('11222333000181')).toEqual({ ok: true, unmasked: '11222333000181' });
});

test('wrong check digits, repeated digits and other forms are refused with the reason', () => {
  expect(validateTaxDocument('529.982.247-26')).toEqual({ ok: false, message: 'CPF check digits do not match' });
  expect(validateTaxDocument('11222333000182')).toEqual({ ok: false, message: 'CNPJ check digits do not match' });
  expect(validateTaxDocument('11111111111111')).toEqual({ ok: false, message: 'CNPJ check digits do not match' });
  expect(validateTaxDocument('5299822472')).toMatchObject({
    ok: false,
    message: expect.stringContaining('must be a CPF') as unknown,
  });
  expect(isValidCnpj('00000000000000')).toBe(false);
});

test('an alphanumeric CNPJ (IN RFB 2.229/2024, from July 2026) is read when its check digits match, masked or not', () => {
  // The Receita Federal's own example.
  expect(validateTaxDocument('12.ABC.345/01DE-35')).toEqual({ ok: true, unmasked: '12ABC34501DE35' });
  expect(validateTaxDocument('12ABC34501DE35')).toEqual({ ok: true, unmasked: '12ABC34501DE35' });
  expect(isValidCnpj('12ABC34501DE35')).toBe(true);
});

test('an alphanumeric CNPJ with a wrong check digit, a letter among its check digits, or letters in lower case is refused', () => {
  expect(validateTaxDocument('12.ABC.345/01DE-36')).toEqual({ ok: false, message: 'CNPJ check digits do not match' });
  expect(validateTaxDocument('12ABC34501DF35')).toEqual({ ok: false, message: 'CNPJ check digits do not match' });
  expect(validateTaxDocument('12ABC34501DE3A')).toMatchObject({
    ok: false,
    message: expect.stringContaining('capital letters') as unknown,
  });
  expect(validateTaxDocument('12abc34501de35')).toMatchObject({
    ok: false,
    message: expect.stringContaining('capital letters') as unknown,
  });
  expect(isValidCnpj('12abc34501de35')).toBe(false);
});
