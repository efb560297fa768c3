/**
 * The PIX BR Code "copia e cola" payload (EMV QRCPS Merchant-Presented Mode, as profiled by the
 * Banco Central do Brasil). Every field is ID(2) + LEN(2) + value; field 63 closes the payload with a
 * CRC16 over everything before its value, so one altered character makes the code unusable.
 * Pure and free of Node built-ins so workflow code may import it.
 */
import { formatCentavos, type Centavos } from '../money/centavos';
import { crc16CcittFalse } from './crc16';

export class BrCodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrCodeError';
  }
}

export const PIX_GUI = 'br.gov.bcb.pix';

/** Top-level field IDs used by PIX. */
const ID = {
  payloadFormat: '00',
  pointOfInitiation: '01',
  merchantAccount: '26',
  categoryCode: '52',
  currency: '53',
  amount: '54',
  country: '58',
  merchantName: '59',
  merchantCity: '60',
  additionalData: '62',
  crc: '63',
} as const;

/** Subfield IDs inside the merchant account template (26). */
const ACCOUNT_ID = { gui: '00', key: '01', description: '02', url: '25' } as const;
/** Subfield ID of the transaction id inside the additional data template (62). */
const TXID_ID = '05';

const FIELD_NAMES: Record<string, string> = {
  '00': 'payload format indicator',
  '01': 'point of initiation method',
  '26': 'merchant account information',
  '52': 'merchant category code',
  '53': 'transaction currency',
  '54': 'amount',
  '58': 'country code',
  '59': 'merchant name',
  '60': 'merchant city',
  '62': 'additional data',
  '63': 'CRC',
};

const MAX_VALUE_LENGTH = 99;
const MAX_KEY_LENGTH = 77;
const MAX_MERCHANT_NAME_LENGTH = 25;
const MAX_MERCHANT_CITY_LENGTH = 15;
const MAX_TXID_LENGTH = 25;
const BRL_CURRENCY = '986';
/** Ten digits of reais plus centavos: the largest amount field 54 can carry. */
const MAX_AMOUNT_CENTAVOS = 999_999_999_999;
const AMOUNT_PATTERN = /^(\d{1,10})(?:\.(\d{1,2}))?$/;
const TXID_PATTERN = /^(?:\*\*\*|[A-Za-z0-9]{1,25})$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** 11: reusable code; 12: single-use code (the bank refuses a second payment). */
export type PointOfInitiation = '11' | '12';

export interface BrCodeInput {
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  amountCentavos?: Centavos;
  /** Up to 25 of [A-Za-z0-9], or "***" when the payer's bank should not echo one. */
  txid: string;
  description?: string;
}

export interface ParsedBrCode {
  pixKey?: string;
  /** Location of the charge for dynamic codes (subfield 25, scheme-less per the BCB manual). */
  url?: string;
  merchantName: string;
  merchantCity: string;
  amountCentavos?: Centavos;
  txid?: string;
  description?: string;
  pointOfInitiation?: PointOfInitiation;
  /** Every top-level field by ID, values as they appear in the payload. */
  fields: Record<string, string>;
}

function describe(id: string): string {
  const name = FIELD_NAMES[id];
  return name ? `field ${id} (${name})` : `field ${id}`;
}

/** Lengths count characters (code points), not UTF-16 units, so non-ASCII text from other issuers still parses. */
function characterLength(value: string): number {
  return Array.from(value).length;
}

function encodeField(id: string, value: string): string {
  const length = characterLength(value);
  if (length > MAX_VALUE_LENGTH) {
    throw new BrCodeError(`${describe(id)} is ${length} characters long; the maximum is ${MAX_VALUE_LENGTH}`);
  }
  return `${id}${String(length).padStart(2, '0')}${value}`;
}

/**
 * Payer banks show name and city on screen and several refuse non-ASCII, so accents are stripped
 * ("São Paulo" → "Sao Paulo"; NFKD also turns "nº" into "no"); anything still outside printable ASCII
 * is refused rather than guessed.
 */
function toAscii(value: string, what: string): string {
  const stripped = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim();
  if (!PRINTABLE_ASCII.test(stripped)) {
    throw new BrCodeError(`${what} contains characters that cannot be written in a BR Code`);
  }
  return stripped;
}

/**
 * Name and city are display text with hard limits; a long legal name must not make a charge fail,
 * so they are shortened instead of refused.
 */
function displayText(value: string, maxLength: number, id: string): string {
  const ascii = toAscii(value, describe(id)).slice(0, maxLength).trimEnd();
  if (ascii.length === 0) throw new BrCodeError(`${describe(id)} must not be empty`);
  return ascii;
}

function amountText(amountCentavos: Centavos): string {
  if (!Number.isSafeInteger(amountCentavos) || amountCentavos <= 0) {
    throw new BrCodeError(
      `${describe(ID.amount)} must be a positive integer number of centavos, got ${amountCentavos}`,
    );
  }
  if (amountCentavos > MAX_AMOUNT_CENTAVOS) {
    throw new BrCodeError(`${describe(ID.amount)} is too large: at most 9999999999.99`);
  }
  return formatCentavos(amountCentavos);
}

/** Builds the "copia e cola" text; throws BrCodeError when an input cannot be represented. */
export function buildBrCode(input: BrCodeInput): string {
  const pixKey = input.pixKey.trim();
  if (pixKey.length === 0) throw new BrCodeError('PIX key must not be empty');
  if (pixKey.length > MAX_KEY_LENGTH || !PRINTABLE_ASCII.test(pixKey)) {
    throw new BrCodeError(`PIX key must be at most ${MAX_KEY_LENGTH} printable ASCII characters`);
  }
  if (!TXID_PATTERN.test(input.txid)) {
    throw new BrCodeError(`txid must be "***" or 1 to ${MAX_TXID_LENGTH} letters and digits, got "${input.txid}"`);
  }

  const accountSubfields = [encodeField(ACCOUNT_ID.gui, PIX_GUI), encodeField(ACCOUNT_ID.key, pixKey)];
  const description = input.description === undefined ? '' : toAscii(input.description, 'description');
  if (description.length > 0) accountSubfields.push(encodeField(ACCOUNT_ID.description, description));
  const merchantAccount = accountSubfields.join('');
  if (merchantAccount.length > MAX_VALUE_LENGTH) {
    throw new BrCodeError(
      `${describe(ID.merchantAccount)} is ${merchantAccount.length} characters long (key plus description); the maximum is ${MAX_VALUE_LENGTH}`,
    );
  }

  const { amountCentavos } = input;
  const body = [
    encodeField(ID.payloadFormat, '01'),
    // An amount makes this a charge for one payment: "12" tells the payer's bank to refuse a second one.
    amountCentavos !== undefined ? encodeField(ID.pointOfInitiation, '12') : '',
    encodeField(ID.merchantAccount, merchantAccount),
    encodeField(ID.categoryCode, '0000'),
    encodeField(ID.currency, BRL_CURRENCY),
    amountCentavos !== undefined ? encodeField(ID.amount, amountText(amountCentavos)) : '',
    encodeField(ID.country, 'BR'),
    encodeField(ID.merchantName, displayText(input.merchantName, MAX_MERCHANT_NAME_LENGTH, ID.merchantName)),
    encodeField(ID.merchantCity, displayText(input.merchantCity, MAX_MERCHANT_CITY_LENGTH, ID.merchantCity)),
    encodeField(ID.additionalData, encodeField(TXID_ID, input.txid)),
  ].join('');

  const withCrcHeader = `${body}${ID.crc}04`;
  return `${withCrcHeader}${crc16CcittFalse(withCrcHeader)}`;
}

interface TlvField {
  id: string;
  value: string;
}

/** Splits `text` into ID/LEN/value fields; `where` names the enclosing field in error messages. */
function parseTlv(text: string, where: string): TlvField[] {
  const chars = Array.from(text);
  const fields: TlvField[] = [];
  let position = 0;
  while (position < chars.length) {
    const header = chars.slice(position, position + 4).join('');
    if (!/^\d{4}$/.test(header)) {
      throw new BrCodeError(`malformed ${where} at character ${position}: expected a 2-digit ID and a 2-digit length`);
    }
    const id = header.slice(0, 2);
    const length = Number(header.slice(2));
    const start = position + 4;
    if (start + length > chars.length) {
      throw new BrCodeError(
        `${where === 'payload' ? describe(id) : `${where} subfield ${id}`} declares length ${length} but the payload ends early`,
      );
    }
    if (fields.some((field) => field.id === id)) {
      throw new BrCodeError(`${where === 'payload' ? describe(id) : `${where} subfield ${id}`} appears twice`);
    }
    fields.push({ id, value: chars.slice(start, start + length).join('') });
    position = start + length;
  }
  return fields;
}

function toRecord(fields: TlvField[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const field of fields) record[field.id] = field.value;
  return record;
}

function checkCrc(payload: string, fields: TlvField[]): void {
  const last = fields[fields.length - 1];
  if (!last || last.id !== ID.crc) throw new BrCodeError(`${describe(ID.crc)} missing: it must be the last field`);
  if (characterLength(last.value) !== 4) throw new BrCodeError(`${describe(ID.crc)} must have length 04`);
  if (!/^[0-9A-Fa-f]{4}$/.test(last.value)) {
    throw new BrCodeError(`${describe(ID.crc)} must be 4 hexadecimal characters, got "${last.value}"`);
  }
  // The CRC covers everything up to and including "6304", i.e. all but the payload's last 4 characters.
  const covered = payload.slice(0, payload.length - 4);
  const expected = crc16CcittFalse(covered);
  const got = last.value.toUpperCase();
  if (expected !== got) throw new BrCodeError(`CRC mismatch: expected ${expected}, got ${got}`);
}

function required(fields: Record<string, string>, id: string): string {
  const value = fields[id];
  if (value === undefined || value.length === 0) throw new BrCodeError(`${describe(id)} missing`);
  return value;
}

function requireEqual(fields: Record<string, string>, id: string, expected: string): void {
  const value = required(fields, id);
  if (value !== expected) throw new BrCodeError(`${describe(id)} must be "${expected}", got "${value}"`);
}

/** The amount as integer centavos, from its digits: "1.5" → 150, never through a float multiplication. */
function parseAmount(text: string): Centavos {
  const match = AMOUNT_PATTERN.exec(text);
  if (!match) throw new BrCodeError(`${describe(ID.amount)} must look like 123.45, got "${text}"`);
  const reais = Number(match[1]);
  const centavos = Number((match[2] ?? '').padEnd(2, '0'));
  const amount = reais * 100 + centavos;
  if (amount === 0) throw new BrCodeError(`${describe(ID.amount)} must be greater than zero`);
  return amount;
}

interface PixAccount {
  pixKey?: string;
  url?: string;
  description?: string;
}

/** The PIX account may sit in any merchant account template 26-51; it is the one whose GUI is br.gov.bcb.pix. */
function findPixAccount(fields: TlvField[]): PixAccount {
  for (const field of fields) {
    const id = Number(field.id);
    if (id < 26 || id > 51) continue;
    const subfields = toRecord(parseTlv(field.value, describe(field.id)));
    if (subfields[ACCOUNT_ID.gui]?.toLowerCase() !== PIX_GUI) continue;
    const pixKey = subfields[ACCOUNT_ID.key];
    const url = subfields[ACCOUNT_ID.url];
    if (!pixKey && !url) {
      throw new BrCodeError(`${describe(field.id)} has neither a PIX key (subfield 01) nor a URL (subfield 25)`);
    }
    const description = subfields[ACCOUNT_ID.description];
    return {
      ...(pixKey ? { pixKey } : {}),
      ...(url ? { url } : {}),
      ...(description ? { description } : {}),
    };
  }
  throw new BrCodeError(`${describe(ID.merchantAccount)} missing: no template with GUI ${PIX_GUI}`);
}

function parseTxid(additionalData: string | undefined): string | undefined {
  if (additionalData === undefined) return undefined;
  const txid = toRecord(parseTlv(additionalData, describe(ID.additionalData)))[TXID_ID];
  if (txid === undefined) return undefined;
  if (!TXID_PATTERN.test(txid)) {
    throw new BrCodeError(
      `${describe(ID.additionalData)} txid must be "***" or 1 to ${MAX_TXID_LENGTH} letters and digits, got "${txid}"`,
    );
  }
  return txid;
}

function parsePointOfInitiation(value: string | undefined): PointOfInitiation | undefined {
  if (value === undefined) return undefined;
  if (value !== '11' && value !== '12') {
    throw new BrCodeError(`${describe(ID.pointOfInitiation)} must be "11" or "12", got "${value}"`);
  }
  return value;
}

function checkMaxLength(id: string, value: string, max: number): void {
  if (characterLength(value) > max) throw new BrCodeError(`${describe(id)} is longer than ${max} characters`);
}

/**
 * Validates a "copia e cola" payload strictly (structure, CRC, every mandatory field) and extracts
 * what a payout needs. Surrounding whitespace from copy and paste is ignored; anything else wrong
 * throws BrCodeError naming the field.
 */
export function parseBrCode(payload: string): ParsedBrCode {
  const text = payload.trim();
  if (text.length === 0) throw new BrCodeError('BR Code is empty');
  const list = parseTlv(text, 'payload');
  checkCrc(text, list);
  if (list[0]?.id !== ID.payloadFormat) throw new BrCodeError(`${describe(ID.payloadFormat)} must be the first field`);

  const fields = toRecord(list);
  requireEqual(fields, ID.payloadFormat, '01');
  const account = findPixAccount(list);
  const categoryCode = required(fields, ID.categoryCode);
  if (!/^\d{4}$/.test(categoryCode))
    throw new BrCodeError(`${describe(ID.categoryCode)} must be 4 digits, got "${categoryCode}"`);
  requireEqual(fields, ID.currency, BRL_CURRENCY);
  requireEqual(fields, ID.country, 'BR');
  const merchantName = required(fields, ID.merchantName);
  checkMaxLength(ID.merchantName, merchantName, MAX_MERCHANT_NAME_LENGTH);
  const merchantCity = required(fields, ID.merchantCity);
  checkMaxLength(ID.merchantCity, merchantCity, MAX_MERCHANT_CITY_LENGTH);

  const amountField = fields[ID.amount];
  const amountCentavos = amountField === undefined ? undefined : parseAmount(amountField);
  const txid = parseTxid(fields[ID.additionalData]);
  const pointOfInitiation = parsePointOfInitiation(fields[ID.pointOfInitiation]);

  return {
    ...account,
    merchantName,
    merchantCity,
    ...(amountCentavos !== undefined ? { amountCentavos } : {}),
    ...(txid !== undefined ? { txid } : {}),
    ...(pointOfInitiation !== undefined ? { pointOfInitiation } : {}),
    fields,
  };
}
