import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { Client } from '@temporalio/client';

/** With RECORD_HISTORIES=1, saves a finished workflow's history for the replay test. */
export async function recordHistory(client: Client, workflowId: string, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  writeFileSync(path.join(__dirname, '..', 'replay', 'histories', `${name}.json`), historyToJSON(history) + '\n');
}
