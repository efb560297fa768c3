/**
 * Keeps an operation's row of the read model (src/read-model/operation-records.ts) as its lifecycle moves: the
 * row as it stands at start and after each move, by a local activity. Moves that come faster than the writes
 * are folded into the next write (only the latest row matters: a write never replaces a later move's row).
 *
 * Histories recorded before the read model listed these operations replay without the writes: the
 * `operation-read-model` patch, asked once when the operation starts.
 */
import { condition, patched, proxyLocalActivities } from '@temporalio/workflow';
import type { OperationActivities } from '../../activities/operation-activities';
import type { OperationRecord } from '../../src/read-model/operation-records';

const { recordOperation } = proxyLocalActivities<OperationActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export const OPERATION_READ_MODEL_PATCH = 'operation-read-model';

export class OperationRows {
  private readonly enabled: boolean;
  private dirty = false;
  private sending = false;

  /** `row`: the operation's row now (read when written, so details set right after a move are in it). */
  constructor(
    lifecycle: { onMove(listener: () => void): void },
    private readonly row: () => OperationRecord,
  ) {
    this.enabled = patched(OPERATION_READ_MODEL_PATCH);
    if (!this.enabled) return;
    lifecycle.onMove(() => this.changed());
    this.changed();
  }

  /** Resolves once the latest row is written: a workflow awaits it before it returns or continues as new. */
  drained(): Promise<void> {
    return condition(() => !this.dirty && !this.sending);
  }

  /** Something the row shows changed without a move (an infraction's deadline): written again. */
  changed(): void {
    if (!this.enabled) return;
    this.dirty = true;
    if (!this.sending) void this.send();
  }

  private async send(): Promise<void> {
    this.sending = true;
    try {
      while (this.dirty) {
        this.dirty = false;
        await recordOperation(this.row());
      }
    } finally {
      this.sending = false;
    }
  }
}
