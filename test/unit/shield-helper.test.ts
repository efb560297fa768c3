/**
 * ShieldHelper.convertDecimalToCents of the very script the sandbox serves (shield.js), run outside a
 * browser: exact by the currency's minor units, never a float multiplication.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { CARD_CURRENCY_MINOR_UNITS } from '../../src/payment-api/schemas/card';
import { SHIELD_MODULE_NAME } from '../../src/payment-api/schemas/security-module';

interface ShieldHelper {
  getModuleName(): string;
  convertDecimalToCents(amount: unknown, currency: unknown): number;
}

const source = readFileSync(path.join(__dirname, '../../sandbox/products/card-payments/shield/shield.js'), 'utf8');
const scope: { window: Record<string, unknown> } = { window: {} };
vm.runInNewContext(source, scope);
const helper = scope.window.ShieldHelper as ShieldHelper;
const toCents = (amount: unknown, currency: unknown): number => helper.convertDecimalToCents(amount, currency);
/** The script runs in its own realm, whose RangeError is not this one's: compare by name and message. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
  return 'no error';
}

test('BRL: 10.10 is 1010 centavos, and the classic float traps are exact', () => {
  expect(toCents(10.1, 'BRL')).toBe(1010);
  expect(toCents(10.1, 'BRL')).toBe(1010);
  expect(toCents('10.10', 'BRL')).toBe(1010);
  // 8.165 * 100 and 1.005 * 100 are not integers in floating point; 0.29 * 100 is 28.999999999999996.
  expect(toCents(0.29, 'BRL')).toBe(29);
  expect(toCents(19.99, 'BRL')).toBe(1999);
  expect(toCents(1_000_000, 'BRL')).toBe(100_000_000);
  expect(toCents(0.01, 'BRL')).toBe(1);
});

test('USD: two decimals, a third one refused rather than rounded', () => {
  expect(toCents(1234.56, 'USD')).toBe(123456);
  expect(toCents(7, 'USD')).toBe(700);
  expect(toCents('0.50', 'USD')).toBe(50);
  expect(refusal(() => toCents(1.005, 'USD'))).toBe('RangeError: amount has more decimal places than USD allows (2)');
  expect(refusal(() => toCents(8.165, 'USD'))).toBe('RangeError: amount has more decimal places than USD allows (2)');
});

test('JPY has no minor unit: 1500 yen is 1500, and a fraction of a yen is refused', () => {
  expect(toCents(1500, 'JPY')).toBe(1500);
  expect(toCents('1500', 'JPY')).toBe(1500);
  expect(toCents(1500.0, 'JPY')).toBe(1500);
  expect(refusal(() => toCents(1500.5, 'JPY'))).toBe('RangeError: amount has more decimal places than JPY allows (0)');
});

test('negative, non-finite, exponent and non-numeric amounts, and unknown currencies, are refused', () => {
  for (const amount of [-1, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 1e-7, '1e3', 'ten', '', null, undefined]) {
    expect(refusal(() => toCents(amount, 'BRL'))).toBe(
      'RangeError: amount must be a non-negative decimal number written without an exponent',
    );
  }
  expect(refusal(() => toCents(10, 'GBP'))).toBe('RangeError: Unsupported currency: GBP');
  expect(refusal(() => toCents(10, 'brl'))).toBe('RangeError: Unsupported currency: brl');
});

test("the script's currencies are exactly the ones endpoint 2 accepts, with the same minor units", () => {
  for (const [currency, units] of Object.entries(CARD_CURRENCY_MINOR_UNITS))
    expect(toCents(1, currency)).toBe(10 ** units);
  expect(helper.getModuleName()).toBe(SHIELD_MODULE_NAME);
  expect(typeof scope.window[SHIELD_MODULE_NAME]).toBe('object');
});
