/** Connects tests to the dev server started by the global setup, with the engine's data converter. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config/env';

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export function temporalTestAddress(): string {
  const address = process.env.TEMPORAL_TEST_ADDRESS;
  if (!address)
    throw new Error('TEMPORAL_TEST_ADDRESS is not set: run the tests through jest (global setup starts the server)');
  return address;
}

/** A config pointed at the test server, with its own data folder and task queue. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    TEMPORAL_ADDRESS: temporalTestAddress(),
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'payout-engine-data-')),
    PAYLOAD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    PAYLOAD_ENCRYPTION_KEY_ID: 'test-key',
    LOG_LEVEL: 'warn',
    ...overrides,
  });
}
