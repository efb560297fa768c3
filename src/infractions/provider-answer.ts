/**
 * What the provider answered, as the engine's view shows it: its JSON text with every secret-looking field
 * and value masked (src/logging/redaction.ts), cut to MAX_ANSWER_LENGTH. Shown, never read: a shape the
 * spec does not show (endpoint 8's answer) may carry anything.
 */
import { scrub, maskSecretText } from '../logging/redaction';

export const MAX_ANSWER_LENGTH = 500;

export function providerAnswerText(body: unknown): string {
  // Masked before it is cut: a cut must not leave half of a document unmasked.
  const text = maskSecretText(JSON.stringify(scrub(body)) ?? '');
  return text.length > MAX_ANSWER_LENGTH ? `${text.slice(0, MAX_ANSWER_LENGTH - 1)}…` : text;
}
