/**
 * Keeps an operation's row of the read model (src/read-model/operation-records.ts) as its lifecycle moves: the
 * row as it stands at start and after each move, by a local activity (./latest-row.ts).
 *
 * Histories recorded before the read model listed these operations replay without the writes: the
 * `operation-read-model` patch, asked once when the operation starts.
 */
import { condition, patched, proxyLocalActivities } from '@temporalio/workflow';
import type { OperationActivities } from '../../activities/operation-activities';
import type { OperationRecord } from '../../src/read-model/operation-records';
import { LatestRow } from './latest-row';

const { recordOperation } = proxyLocalActivities<OperationActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export const OPERATION_READ_MODEL_PATCH = 'operation-read-model';

export class OperationRows {
  private readonly rows: LatestRow<OperationRecord> | undefined;

  /** `row`: the operation's row now (read when written, so details set right after a move are in it). */
  constructor(lifecycle: { onMove(listener: () => void): void }, row: () => OperationRecord) {
    if (!patched(OPERATION_READ_MODEL_PATCH)) return;
    this.rows = new LatestRow(row, recordOperation);
    lifecycle.onMove(() => this.changed());
    this.changed();
  }

  /** Resolves once the latest row is written: a workflow awaits it before it returns or continues as new. */
  drained(): Promise<void> {
    // Unpatched, as before the patch: a condition already true (it resolves at the same point of the activation).
    return this.rows ? this.rows.drained() : condition(() => true);
  }

  /** Something the row shows changed without a move (an infraction's deadline): written again. */
  changed(): void {
    this.rows?.changed();
  }
}
