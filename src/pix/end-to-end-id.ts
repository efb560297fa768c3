/**
 * The PIX end-to-end id (the Banco Central's `E` + ISPB + time + serial, 32 characters) of a payout, read
 * tolerantly from whatever the provider answers about it. The spec shows it nowhere (docs/assumptions.md §10):
 * it is read under the spellings providers of this interface use, and only when it looks like an id
 * (letters and digits, at most 64), so a provider that sends none, or something else under the name, leaves
 * it absent and changes nothing else.
 */
import { z } from 'zod';

export const END_TO_END_ID_NAMES = ['endToEndId', 'end_to_end_id', 'e2eId', 'e2e_id'] as const;
export const endToEndIdSchema = z.string().regex(/^[A-Za-z0-9]{1,64}$/);

export function readEndToEndId(answer: object): string | undefined {
  const fields = answer as Readonly<Record<string, unknown>>;
  for (const name of END_TO_END_ID_NAMES) {
    const value = fields[name];
    if (endToEndIdSchema.safeParse(value).success) return value as string;
  }
  return undefined;
}
