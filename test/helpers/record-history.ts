import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { PAYOUT_WORKFLOW_VERSION } from '../../src/payouts/payout-input';

export const HISTORIES_DIR = path.join(__dirname, '..', 'replay', 'histories');

/**
 * With RECORD_HISTORIES=1, saves a finished workflow's history (protobuf binary, as the server stores it;
 * payloads stay encrypted with the test key) for the replay test.
 */
export async function recordHistory(client: Client, workflowId: string, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  writeFileSync(path.join(HISTORIES_DIR, `${name}.binpb`), temporal.api.history.v1.History.encode(history).finish());
}

/**
 * The file name of a payout history recorded now: `payout-v<version>-<what>`, the version payouts start with
 * (src/payouts/payout-input.ts). Re-recording writes only the current version's files; the older versions'
 * stay, and go on replaying, as long as payouts of that version may still be open.
 */
export function currentPayoutHistory(what: string): string {
  return `payout-v${PAYOUT_WORKFLOW_VERSION}-${what}`;
}
