/**
 * Card number checks done before a card reaches the provider: Luhn, brand by BIN, expiry, last four.
 * The brand comes from card-validator (its BIN table, credit-card-type, follows the networks: Elo's and
 * Hipercard's ranges move); the Luhn check stays here because the library checks Luhn only together with
 * the lengths of a brand it knows, and this check must hold for any card number of 12 to 19 digits.
 * These functions see full card numbers (PAN), so they never log and never put the number in an error.
 */
import cardValidator from 'card-validator';

/** The brands card-validator tells apart, by our names. */
const BRAND_OF_TYPE = {
  visa: 'VISA',
  mastercard: 'MASTERCARD',
  'american-express': 'AMEX',
  elo: 'ELO',
  hipercard: 'HIPERCARD',
  hiper: 'HIPER',
  'diners-club': 'DINERS',
  discover: 'DISCOVER',
  jcb: 'JCB',
  unionpay: 'UNIONPAY',
  maestro: 'MAESTRO',
  mir: 'MIR',
  troy: 'TROY',
  naranja: 'NARANJA',
  verve: 'VERVE',
} as const;

export const CARD_BRANDS = [...Object.values(BRAND_OF_TYPE), 'UNKNOWN'] as const;
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

function isKnownType(type: string): type is keyof typeof BRAND_OF_TYPE {
  return Object.hasOwn(BRAND_OF_TYPE, type);
}

/** The card brand from its BIN; 'UNKNOWN' for unrecognised or non-digit input (dashes included: a card number is digits and spaces). */
export function cardBrand(number: string): CardBrand {
  const digits = panDigits(number);
  if (digits === undefined) return 'UNKNOWN';
  const type = cardValidator.number(digits).card?.type;
  return type !== undefined && isKnownType(type) ? BRAND_OF_TYPE[type] : 'UNKNOWN';
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
