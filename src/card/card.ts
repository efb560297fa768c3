/**
 * Card number checks done before a card reaches the provider: Luhn, brand by BIN, expiry, last four.
 * These functions see full card numbers (PAN), so they never log and never put the number in an error.
 */

export const CARD_BRANDS = ['VISA', 'MASTERCARD', 'AMEX', 'ELO', 'HIPERCARD', 'DINERS', 'DISCOVER', 'JCB', 'UNKNOWN'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

const MIN_PAN_LENGTH = 12;
const MAX_PAN_LENGTH = 19;

/** The number without spaces, or undefined when anything other than digits is left. */
function panDigits(number: string): string | undefined {
  const digits = number.replace(/\s/g, '');
  return /^\d+$/.test(digits) ? digits : undefined;
}

/** True when the number (spaces allowed) has 12-19 digits and passes the Luhn mod-10 check. */
export function luhnValid(number: string): boolean {
  const digits = panDigits(number);
  if (digits === undefined || digits.length < MIN_PAN_LENGTH || digits.length > MAX_PAN_LENGTH) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

type BinRange = readonly [low: number, high: number];

/** Elo's 6-digit BIN ranges; several sit inside Visa (4), Discover (65) and other ranges, hence checked first. */
const ELO_BINS: readonly BinRange[] = [
  [401178, 401179],
  [431274, 431274],
  [438935, 438935],
  [451416, 451416],
  [457393, 457393],
  [457631, 457632],
  [504175, 504175],
  [506699, 506778],
  [509000, 509999],
  [627780, 627780],
  [636297, 636297],
  [636368, 636368],
  [650031, 650033],
  [650035, 650051],
  [650405, 650439],
  [650485, 650538],
  [650541, 650598],
  [650700, 650718],
  [650720, 650727],
  [650901, 650920],
  [651652, 651679],
  [655000, 655019],
  [655021, 655058],
];

/** Prefix rules for the other brands, tried in order; Hipercard's 3841 must win over Diners' 38. */
const PREFIX_RULES: readonly { brand: CardBrand; digits: number; ranges: readonly BinRange[] }[] = [
  { brand: 'HIPERCARD', digits: 6, ranges: [[606282, 606282]] },
  { brand: 'HIPERCARD', digits: 4, ranges: [[3841, 3841]] },
  { brand: 'AMEX', digits: 2, ranges: [[34, 34], [37, 37]] },
  { brand: 'DINERS', digits: 3, ranges: [[300, 305]] },
  { brand: 'DINERS', digits: 4, ranges: [[3095, 3095]] },
  { brand: 'DINERS', digits: 2, ranges: [[36, 36], [38, 39]] },
  { brand: 'JCB', digits: 4, ranges: [[3528, 3589]] },
  { brand: 'DISCOVER', digits: 4, ranges: [[6011, 6011]] },
  { brand: 'DISCOVER', digits: 6, ranges: [[622126, 622925]] },
  { brand: 'DISCOVER', digits: 3, ranges: [[644, 649]] },
  { brand: 'DISCOVER', digits: 2, ranges: [[65, 65]] },
  { brand: 'VISA', digits: 1, ranges: [[4, 4]] },
  { brand: 'MASTERCARD', digits: 2, ranges: [[51, 55]] },
  { brand: 'MASTERCARD', digits: 4, ranges: [[2221, 2720]] },
];

function prefixIn(digits: string, length: number, ranges: readonly BinRange[]): boolean {
  if (digits.length < length) return false;
  const prefix = Number(digits.slice(0, length));
  return ranges.some(([low, high]) => prefix >= low && prefix <= high);
}

/** The card brand from its BIN; 'UNKNOWN' for unrecognised or non-digit input. */
export function cardBrand(number: string): CardBrand {
  const digits = panDigits(number);
  if (digits === undefined) return 'UNKNOWN';
  if (prefixIn(digits, 6, ELO_BINS)) return 'ELO';
  const rule = PREFIX_RULES.find(({ digits: length, ranges }) => prefixIn(digits, length, ranges));
  return rule?.brand ?? 'UNKNOWN';
}

/** Anywhere-on-Earth offset (UTC-12) in milliseconds. */
const ANYWHERE_ON_EARTH_OFFSET_MS = 12 * 60 * 60 * 1000;

/**
 * True while the card is still valid: through the last day of the expiry month. The month counts as
 * over only once it is over everywhere (UTC-12), so a card is never refused hours before its issuer would.
 * Month is "01"-"12", year four digits; anything else is false.
 */
export function expiryInFuture(expiryMonth: string, expiryYear: string, now: Date): boolean {
  if (!/^(0[1-9]|1[0-2])$/.test(expiryMonth) || !/^[1-9]\d{3}$/.test(expiryYear)) return false;
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) return false;
  // Date.UTC with month index = expiry month (1-based) gives the 1st of the following month, rolling over December.
  const firstOfNextMonthUtc = Date.UTC(Number(expiryYear), Number(expiryMonth), 1);
  return nowMs < firstOfNextMonthUtc + ANYWHERE_ON_EARTH_OFFSET_MS;
}

/** The last four digits, for receipts and logs; throws (without echoing the number) on a non-digit input. */
export function last4(number: string): string {
  const digits = panDigits(number);
  if (digits === undefined || digits.length < 4) {
    throw new Error('card number must contain only digits (spaces allowed) and at least 4 of them');
  }
  return digits.slice(-4);
}
