/**
 * Replays recorded payout histories against the current workflow code. A change that would make a
 * running payout take a different path on replay (non-determinism) fails here, before it reaches a
 * worker in production. Histories are recorded by the end-to-end tests with RECORD_HISTORIES=1.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { createDataConverter } from '../../src/temporal/connection';
import { engineBundle } from '../helpers/engine-harness';
import { testConfig } from '../helpers/temporal';

const dir = path.join(__dirname, 'histories');
const files = readdirSync(dir).filter((file) => file.endsWith('.json')).sort();

test('recorded histories exist for the payout lifecycles', () => {
  expect(files).toEqual(expect.arrayContaining(['payout-completed-by-callback.json', 'payout-failed.json', 'payout-completed-by-polling.json']));
});

test('every recorded history replays on the current workflow code', async () => {
  const histories = files.map((file) => ({
    workflowId: file.replace(/\.json$/, ''),
    history: historyFromJSON(JSON.parse(readFileSync(path.join(dir, file), 'utf8'))),
  }));
  const failures: string[] = [];
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: await engineBundle(), dataConverter: createDataConverter(testConfig()) },
    histories,
  )) {
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  expect(failures).toEqual([]);
});
