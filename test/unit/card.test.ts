import { cardBrand, expiryInFuture, last4, luhnValid } from '../../src/card/card';

/** Appends the Luhn check digit, computed independently of src/card (double every second digit from the right). */
function withLuhnDigit(partial: string): string {
  const sum = [...partial]
    .reverse()
    .map(Number)
    .reduce((total, digit, index) => {
      const value = index % 2 === 0 ? digit * 2 : digit;
      return total + Math.floor(value / 10) + (value % 10);
    }, 0);
  return partial + String((10 - (sum % 10)) % 10);
}

/** A Luhn-valid 16-digit number starting with `bin`. */
function cardWithBin(bin: string): string {
  return withLuhnDigit(bin.padEnd(15, '0'));
}

describe('luhnValid', () => {
  it('accepts well-known test card numbers, with or without spaces', () => {
    for (const number of [
      '4111111111111111',
      '4111 1111 1111 1111',
      '5555555555554444',
      '378282246310005',
      '6062825624254001',
    ]) {
      expect(luhnValid(number)).toBe(true);
    }
  });

  it('refuses a mistyped digit, letters, dashes, and numbers too short or too long', () => {
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('5555555555545444')).toBe(false); // two adjacent digits swapped
    expect(luhnValid('4111-1111-1111-1111')).toBe(false);
    expect(luhnValid('4111a11111111111')).toBe(false);
    expect(luhnValid(withLuhnDigit('1234567890'))).toBe(false);
    expect(luhnValid(withLuhnDigit('1'.repeat(19)))).toBe(false);
    expect(luhnValid(withLuhnDigit('1'.repeat(18)))).toBe(true);
  });
});

describe('cardBrand', () => {
  it('recognises the international brands from their test numbers', () => {
    expect(cardBrand('4111 1111 1111 1111')).toBe('VISA');
    expect(cardBrand('5555555555554444')).toBe('MASTERCARD');
    expect(cardBrand('2223003122003222')).toBe('MASTERCARD');
    expect(cardBrand('378282246310005')).toBe('AMEX');
    expect(cardBrand('30569309025904')).toBe('DINERS');
    expect(cardBrand('6011111111111117')).toBe('DISCOVER');
    expect(cardBrand('3530111333300000')).toBe('JCB');
  });

  it('recognises Elo cards, including BINs inside the Visa and Discover ranges', () => {
    for (const bin of [
      '401178',
      '431274',
      '438935',
      '451416',
      '457393',
      '457632',
      '504175',
      '506699',
      '506778',
      '509123',
      '627780',
      '636297',
      '636368',
      '650031',
      '650040',
      '650598',
      '651679',
      '655058',
    ]) {
      expect([bin, cardBrand(cardWithBin(bin))]).toEqual([bin, 'ELO']);
    }
    expect(cardBrand('6362970000457013')).toBe('ELO');
  });

  it('does not mistake neighbours of Elo ranges for Elo', () => {
    expect(cardBrand(cardWithBin('401177'))).toBe('VISA');
    expect(cardBrand(cardWithBin('457630'))).toBe('VISA');
    expect(cardBrand(cardWithBin('650034'))).toBe('DISCOVER');
    expect(cardBrand(cardWithBin('655020'))).toBe('DISCOVER');
  });

  it("follows the library's current Elo ranges: 650921-650978 joined Elo after our own table was written", () => {
    for (const bin of ['650921', '650950', '650978']) expect([bin, cardBrand(cardWithBin(bin))]).toEqual([bin, 'ELO']);
    expect(cardBrand(cardWithBin('650979'))).toBe('DISCOVER');
  });

  it("recognises Hipercard (606282) and Hiper, Itaú's other Brazilian brand; the retired 3841 Hipercard BINs read as Diners, as the library has them", () => {
    expect(cardBrand('6062825624254001')).toBe('HIPERCARD');
    expect(cardBrand(cardWithBin('606282'))).toBe('HIPERCARD');
    expect(cardBrand(cardWithBin('637095'))).toBe('HIPER');
    expect(cardBrand(cardWithBin('384100'))).toBe('DINERS');
  });

  it('answers UNKNOWN for unrecognised or non-digit numbers', () => {
    expect(cardBrand('1234567890123452')).toBe('UNKNOWN');
    expect(cardBrand('9999999999999995')).toBe('UNKNOWN');
    expect(cardBrand('4111-1111-1111-1111')).toBe('UNKNOWN');
    expect(cardBrand('')).toBe('UNKNOWN');
  });
});

describe('expiryInFuture', () => {
  it('keeps a card valid through the last day of its expiry month', () => {
    expect(expiryInFuture('02', '2024', new Date('2024-02-01T00:00:00Z'))).toBe(true);
    // 29 Feb 2024 at 23:30 in São Paulo is already 1 March in UTC; the card is still good there.
    expect(expiryInFuture('02', '2024', new Date('2024-02-29T23:30:00-03:00'))).toBe(true);
    expect(expiryInFuture('02', '2024', new Date('2024-03-02T00:00:00Z'))).toBe(false);
    expect(expiryInFuture('01', '2024', new Date('2024-03-01T00:00:00Z'))).toBe(false);
  });

  it('rolls December over into the next year', () => {
    expect(expiryInFuture('12', '2025', new Date('2025-12-31T23:30:00-03:00'))).toBe(true);
    // The month is over everywhere (UTC-12) at 12:00 UTC on the 1st.
    expect(expiryInFuture('12', '2025', new Date('2026-01-01T11:59:59Z'))).toBe(true);
    expect(expiryInFuture('12', '2025', new Date('2026-01-01T12:00:00Z'))).toBe(false);
    expect(expiryInFuture('01', '2026', new Date('2025-12-15T00:00:00Z'))).toBe(true);
  });

  it('refuses expiry dates not written as MM and YYYY', () => {
    const now = new Date('2024-01-01T00:00:00Z');
    for (const [month, year] of [
      ['1', '2030'],
      ['13', '2030'],
      ['00', '2030'],
      ['12', '30'],
      ['12', '0030'],
      ['12', '20300'],
    ]) {
      expect(expiryInFuture(month ?? '', year ?? '', now)).toBe(false);
    }
    expect(expiryInFuture('12', '2030', new Date('not a date'))).toBe(false);
  });
});

describe('last4', () => {
  it('returns the last four digits, ignoring spaces', () => {
    expect(last4('4111 1111 1111 1234')).toBe('1234');
  });

  it('refuses a malformed number without echoing it', () => {
    expect(() => last4('4111-1111-1111-9876')).toThrow(/only digits/);
    try {
      last4('4111-1111-1111-9876');
    } catch (error) {
      expect((error as Error).message).not.toMatch(/4111|9876/);
    }
  });
});
