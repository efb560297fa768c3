import { centavosToReais, formatCentavos, percentOf, reaisToCentavos } from '../../src/money/centavos';
import { positiveReaisToCentavosSchema } from '../../src/money/reais-schemas';

test('reais convert to centavos exactly, from the digits, never by a float multiplication', () => {
  expect(reaisToCentavos(26.26)).toBe(2626);
  expect(reaisToCentavos(0.29)).toBe(29); // 0.29 * 100 === 28.999999999999996
  expect(reaisToCentavos(1.1)).toBe(110);
  expect(reaisToCentavos(1_000_000)).toBe(100_000_000);
});

test('a third decimal, a float artefact, an exponent, NaN and negatives are refused', () => {
  expect(() => reaisToCentavos(8.165)).toThrow(/at most 2 decimal places/);
  expect(() => reaisToCentavos(1.005)).toThrow(/at most 2 decimal places/);
  expect(() => reaisToCentavos(0.1 + 0.2)).toThrow(/at most 2 decimal places/);
  expect(() => reaisToCentavos(1e21)).toThrow();
  expect(() => reaisToCentavos(Number.NaN)).toThrow(/finite/);
  expect(() => reaisToCentavos(-5)).toThrow(/negative/);
});

test('centavos go back to reais and to text from the integer', () => {
  expect(centavosToReais(2626)).toBe(26.26);
  expect(centavosToReais(29)).toBe(0.29);
  expect(formatCentavos(100_005)).toBe('1000.05');
  expect(formatCentavos(-7)).toBe('-0.07');
  expect(() => centavosToReais(1.5)).toThrow(/integer/);
});

test('percentages round half up to the centavo', () => {
  expect(percentOf(2500, 300)).toBe(75); // 3% of 25.00
  expect(percentOf(50, 100)).toBe(1); // 1% of 0.50 = 0.5 centavo → 1
  expect(percentOf(49, 100)).toBe(0);
  expect(percentOf(10_000, 399)).toBe(399);
});

test('the request schema turns a positive amount into centavos and says what is wrong otherwise', () => {
  const schema = positiveReaisToCentavosSchema(1_000);
  expect(schema.parse(10.5)).toBe(1050);
  expect(schema.safeParse(0).error?.issues[0]?.message).toBe('amount must be greater than zero');
  expect(schema.safeParse(10.555).error?.issues[0]?.message).toBe('amount must have at most 2 decimal places');
  expect(schema.safeParse(1_000.01).error?.issues[0]?.message).toBe('amount must be at most 1000.00');
});
