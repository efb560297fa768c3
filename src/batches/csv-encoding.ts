/**
 * The bytes of a CSV upload as UTF-8, whatever the spreadsheet saved them in. Excel pt-BR saves "CSV"
 * as Windows-1252 and "CSV UTF-8" as UTF-8 with a byte order mark; neither says so in the upload, so:
 * a declared charset wins; without one, a UTF-8 BOM or bytes that are valid UTF-8 are UTF-8, and any
 * other bytes are Windows-1252 (an accent in Windows-1252 is almost never valid UTF-8, so the two do not
 * mix up). Nothing is ever decoded into U+FFFD: bytes that fit neither are refused, naming the line and
 * what to do. Long inputs are decoded in slices, so the server keeps answering meanwhile.
 */
import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { yieldToEventLoop } from '../util/slices';

export type CsvEncoding = 'UTF-8' | 'windows-1252';

export type DecodedCsv = { ok: true; utf8: Buffer; encoding: CsvEncoding } | { ok: false; message: string };

/** Declared charsets read, by their lower-case label. ISO-8859-1 is read as Windows-1252, as browsers do (WHATWG Encoding). */
const DECLARED: Readonly<Record<string, CsvEncoding>> = {
  'utf-8': 'UTF-8',
  utf8: 'UTF-8',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'iso-8859-1': 'windows-1252',
  latin1: 'windows-1252',
};

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Excel's "Unicode Text" and other UTF-16 files start with one of these. */
const UTF16_BOMS = [Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])];
/** The five bytes Windows-1252 leaves undefined. */
const NOT_WINDOWS_1252 = [0x81, 0x8d, 0x8f, 0x90, 0x9d];
/** Bytes per slice of decoding: a few milliseconds of work between two turns of the event loop. */
const DECODE_SLICE = 1 << 20;

const SAVE_AS = 'save it as "CSV UTF-8" or "CSV (separado por vírgulas)"';

export async function decodeCsvBody(bytes: Buffer, declaredCharset: string | undefined): Promise<DecodedCsv> {
  if (UTF16_BOMS.some((bom) => startsWith(bytes, bom)))
    return refuse(`the file is UTF-16 ("Unicode text"); ${SAVE_AS}`);
  const nul = bytes.indexOf(0);
  if (nul !== -1)
    return refuse(`line ${lineAt(bytes, nul)} holds a NUL byte: the file is not a text CSV (UTF-16?); ${SAVE_AS}`);
  const hasBom = startsWith(bytes, UTF8_BOM);
  const declared = declaredCharset?.toLowerCase();
  // The declared label is not repeated in the answer: it is the client's text.
  if (declared !== undefined && !Object.hasOwn(DECLARED, declared)) {
    return refuse(
      'the declared charset is not read; declare charset=utf-8 or charset=windows-1252, or none and the engine reads UTF-8 or Windows-1252 from the bytes',
    );
  }
  const encoding = declared === undefined ? undefined : DECLARED[declared];
  if (encoding === 'windows-1252') {
    if (hasBom)
      return refuse(
        'the file starts with a UTF-8 byte order mark but declares charset=windows-1252; declare charset=utf-8, or none',
      );
    return fromWindows1252(bytes);
  }
  const text = hasBom ? bytes.subarray(UTF8_BOM.length) : bytes;
  if (isUtf8(text)) return { ok: true, utf8: text, encoding: 'UTF-8' };
  if (encoding === 'UTF-8' || hasBom) {
    return refuse(
      `the file ${hasBom ? 'starts with a UTF-8 byte order mark' : 'declares charset=utf-8'} but line ${firstNonUtf8Line(text)} is not UTF-8; ${SAVE_AS}, or declare charset=windows-1252`,
    );
  }
  return fromWindows1252(bytes);
}

async function fromWindows1252(bytes: Buffer): Promise<DecodedCsv> {
  const undefinedByte = NOT_WINDOWS_1252.map((byte) => bytes.indexOf(byte)).filter((at) => at !== -1);
  if (undefinedByte.length > 0) {
    const at = Math.min(...undefinedByte);
    return refuse(
      `byte 0x${(bytes[at] ?? 0).toString(16).toUpperCase()} on line ${lineAt(bytes, at)} is neither UTF-8 nor Windows-1252; ${SAVE_AS}`,
    );
  }
  const parts: Buffer[] = [];
  for (let from = 0; from < bytes.length; from += DECODE_SLICE) {
    if (from > 0) await yieldToEventLoop();
    // A single-byte encoding: any slice boundary is a character boundary.
    parts.push(
      Buffer.from(iconv.decode(bytes.subarray(from, from + DECODE_SLICE), 'windows-1252', { stripBOM: false }), 'utf8'),
    );
  }
  return { ok: true, utf8: Buffer.concat(parts), encoding: 'windows-1252' };
}

function refuse(message: string): DecodedCsv {
  return { ok: false, message };
}

function startsWith(bytes: Buffer, prefix: Buffer): boolean {
  return bytes.length >= prefix.length && bytes.subarray(0, prefix.length).equals(prefix);
}

/** The 1-based line of byte `at` (lines end at LF, CRLF or CR). */
function lineAt(bytes: Buffer, at: number): number {
  let line = 1;
  for (let index = 0; index < at; index += 1) {
    const byte = bytes[index];
    if (byte === 0x0a || (byte === 0x0d && bytes[index + 1] !== 0x0a)) line += 1;
  }
  return line;
}

/** The 1-based line of the first bytes that are not UTF-8 (UTF-8 never holds a CR or LF byte inside a character). */
function firstNonUtf8Line(bytes: Buffer): number {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index <= bytes.length; index += 1) {
    const byte = bytes[index];
    if (index < bytes.length && byte !== 0x0a && byte !== 0x0d) continue;
    if (!isUtf8(bytes.subarray(lineStart, index))) return line;
    if (byte === 0x0d && bytes[index + 1] === 0x0a) index += 1;
    line += 1;
    lineStart = index + 1;
  }
  return line;
}
