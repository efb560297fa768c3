import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  await globalThis.__TEMPORAL_DEV_SERVER__?.stop();
  const dir = process.env.TEMPORAL_TEST_DATA_DIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
