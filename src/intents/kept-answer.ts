/** What a run kept in its intent's sealed answer (a charge's code, a defense as sent), read back by its shape. */
import type { z } from 'zod';
import type { Intent } from './intent-store';

/**
 * The kept answer as `schema` reads it; undefined when none was kept or it reads otherwise (an older shape). Nothing
 * kept and text that is not JSON both reach the schema as undefined, which a kept answer's shape (an object) refuses.
 */
export function keptAnswer<S extends z.ZodType>(intent: Intent, schema: S): z.output<S> | undefined {
  let json: unknown;
  try {
    // String(undefined) is "undefined", not JSON: nothing kept throws here as text that is not JSON does.
    json = JSON.parse(String(intent.answer));
  } catch {
    // json stays undefined
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
