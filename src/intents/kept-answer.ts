/** What a run kept in its intent's sealed answer (a charge's code, a defense as sent), read back by its shape. */
import type { z } from 'zod';
import type { Intent } from './intent-store';

/** The kept answer as `schema` reads it; undefined when none was kept or it reads otherwise (an older shape). */
export function keptAnswer<S extends z.ZodType>(intent: Intent, schema: S): z.output<S> | undefined {
  if (intent.answer === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(intent.answer);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
