/** A tool's own settings (CHAOS_*, CLUSTER_*), read from its environment as its entry point starts. */
import { z } from 'zod';

/** The settings `schema` reads from the environment; on a wrong one, what is wrong on stderr and exit 2 (a usage error). */
export function toolSettingsOrExit<S extends z.ZodType>(schema: S): z.output<S> {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    process.stderr.write(`Invalid configuration:\n${z.prettifyError(parsed.error)}\n`);
    process.exit(2);
  }
  return parsed.data;
}
