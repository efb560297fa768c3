/**
 * Plain text: what a person types into a one-line field, without the characters that change how
 * text is shown rather than what it says. Control characters (C0, DEL, C1: tab and newline included)
 * forge lines and drive terminals; bidirectional formatting characters reorder what a reader sees
 * ("Trojan Source"), so a description could display one thing and be stored as another.
 */
import { z } from 'zod';

// C0 (U+0000-U+001F), DEL (U+007F), C1 (U+0080-U+009F).
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f';
// Embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069), LRM/RLM, the Arabic letter mark.
const BIDI = '\\u202a-\\u202e\\u2066-\\u2069\\u200e\\u200f\\u061c';
const UNSAFE = new RegExp(`[${CONTROL}${BIDI}]`, 'u');
const UNSAFE_ALL = new RegExp(`[${CONTROL}${BIDI}]`, 'gu');
const LINE_BREAKING = /[\t\n\r\v\f]/g;

function codePoint(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A string without control or bidirectional formatting characters; the first offending one is named. */
export const plainTextSchema = z
  .string()
  .superRefine((text, ctx) => {
    const found = UNSAFE.exec(text);
    if (!found) return;
    ctx.addIssue({
      code: 'custom',
      message: `must be plain text: ${codePoint(found[0])} at position ${found.index + 1} is a control or bidirectional formatting character (tabs, line breaks and direction overrides are not allowed)`,
    });
  })
  // The same rule in the OpenAPI documents, so that what they allow is what the API takes.
  .meta({ pattern: `^[^${CONTROL}${BIDI}]*$` });

/**
 * Text from elsewhere (a server, a provider) made safe to print on a terminal: tabs and line breaks
 * become a space so words stay apart, every other control or bidirectional character is removed.
 */
export function printable(text: string): string {
  return text.replace(LINE_BREAKING, ' ').replace(UNSAFE_ALL, '');
}
