/**
 * A batch as `application/json`, read in slices. The body is `{"batchId"?: ..., "items": [...]}` and its
 * items array (up to 100,000 objects, tens of megabytes) is where the time goes: one JSON.parse of the
 * whole body holds the event loop for hundreds of milliseconds. Here a scanner that tracks only strings
 * and nesting finds where each element of `items` begins and ends, and each element goes to JSON.parse on
 * its own, so JSON.parse still judges every byte and the result is the one it would give. Anything but
 * an object at the top goes to JSON.parse whole, for the schema to refuse.
 */
import { runInSlices, type Slices } from '../util/slices';
import type { ReadBatchOptions } from './batch-csv';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Items per slice: a few milliseconds of parsing between two turns of the event loop. */
const JSON_SLICE = 1_000;

/**
 * The parsed body, its `items` cut after `maxItems` elements (the rest of the text is then not read:
 * the batch is over the limit already). Throws a SyntaxError where JSON.parse would.
 */
export function parseBatchJson(text: string, options: ReadBatchOptions): Promise<unknown> {
  return runInSlices(batchJsonSlices(text, options));
}

function* batchJsonSlices(text: string, { maxItems }: ReadBatchOptions): Slices<unknown> {
  let at = skipWhitespace(text, 0);
  if (text.charCodeAt(at) !== OPEN_BRACE) return JSON.parse(text) as unknown;
  const body: Record<string, unknown> = {};
  at = skipWhitespace(text, at + 1);
  if (text.charCodeAt(at) === CLOSE_BRACE) return expectEnd(text, at + 1, body);
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) throw unexpected(text, at);
    const keyEnd = endOfString(text, at);
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(at) !== COLON) throw unexpected(text, at);
    at = skipWhitespace(text, at + 1);
    let value: unknown;
    if (key === 'items' && text.charCodeAt(at) === OPEN_BRACKET) {
      const items: unknown[] = [];
      value = items;
      at = skipWhitespace(text, at + 1);
      if (text.charCodeAt(at) === CLOSE_BRACKET) {
        at += 1;
      } else {
        for (;;) {
          if (items.length === maxItems) {
            setMember(body, key, items);
            return body;
          }
          if (items.length > 0 && items.length % JSON_SLICE === 0) yield;
          const end = endOfValue(text, at);
          items.push(JSON.parse(text.slice(at, end)));
          at = skipWhitespace(text, end);
          const next = text.charCodeAt(at);
          if (next === CLOSE_BRACKET) {
            at += 1;
            break;
          }
          if (next !== COMMA) throw unexpected(text, at);
          at = skipWhitespace(text, at + 1);
        }
      }
    } else {
      const end = endOfValue(text, at);
      value = JSON.parse(text.slice(at, end));
      at = end;
    }
    setMember(body, key, value);
    at = skipWhitespace(text, at);
    const next = text.charCodeAt(at);
    if (next === CLOSE_BRACE) return expectEnd(text, at + 1, body);
    if (next !== COMMA) throw unexpected(text, at);
    at = skipWhitespace(text, at + 1);
  }
}

/** As JSON.parse does: a key `__proto__` is an own property, not the object's prototype; a repeated key keeps its last value. */
function setMember(body: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
}

function expectEnd(text: string, at: number, body: Record<string, unknown>): Record<string, unknown> {
  const end = skipWhitespace(text, at);
  if (end !== text.length) throw unexpected(text, end);
  return body;
}

function unexpected(text: string, at: number): SyntaxError {
  return new SyntaxError(at >= text.length ? 'Unexpected end of JSON input' : `Unexpected character at position ${at}`);
}

function skipWhitespace(text: string, from: number): number {
  let at = from;
  for (;;) {
    const code = text.charCodeAt(at);
    // JSON's whitespace: space, tab, line feed, carriage return.
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return at;
    at += 1;
  }
}

/** `at` is an opening quote; the position after its closing quote. */
function endOfString(text: string, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) throw unexpected(text, text.length);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The position after the value that starts at `at`: a string, an object or array (by nesting), or a bare word or number. */
function endOfValue(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return endOfString(text, at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    let position = at;
    while (position < text.length) {
      const code = text.charCodeAt(position);
      if (code === QUOTE) {
        position = endOfString(text, position);
        continue;
      }
      if (code === OPEN_BRACE || code === OPEN_BRACKET) depth += 1;
      else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) return position + 1;
      position += 1;
    }
    throw unexpected(text, text.length);
  }
  let position = at;
  while (position < text.length && !ENDS_A_BARE_VALUE.has(text.charCodeAt(position))) position += 1;
  if (position === at) throw unexpected(text, at);
  return position;
}

const ENDS_A_BARE_VALUE: ReadonlySet<number> = new Set([
  COMMA,
  COLON,
  QUOTE,
  OPEN_BRACE,
  CLOSE_BRACE,
  OPEN_BRACKET,
  CLOSE_BRACKET,
  0x20,
  0x09,
  0x0a,
  0x0d,
]);
