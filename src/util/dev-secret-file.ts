/**
 * Secrets a local stack makes for itself on first use (the development payload key, the codec token),
 * kept in a file under DATA_DIR so that every process of the stack, and every restart, sees the same
 * value. The file is created exclusively with mode 0600: when two processes race, the one that loses
 * reads the winner's file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';

export function loadOrCreateSecretFile<S extends z.ZodType>(
  file: string,
  schema: S,
  create: () => z.output<S>,
): z.output<S> {
  try {
    return schema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const created = create();
  try {
    writeFileSync(file, JSON.stringify(created) + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateSecretFile(file, schema, create);
    throw error;
  }
  return created;
}
