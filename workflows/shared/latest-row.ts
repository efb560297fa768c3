/**
 * Keeps one row of the read model as a workflow moves: each change asks for a write of the row as it stands
 * then, by a local activity. Changes that come faster than the writes are folded into the next write (only the
 * latest row matters: the store never replaces a later move's row with an earlier one).
 */
import { condition } from '@temporalio/workflow';

export class LatestRow<R> {
  private dirty = false;
  private sending = false;

  /** `row`: the row now (read when written, so details set right after a change are in it). */
  constructor(
    private readonly row: () => R,
    private readonly write: (row: R) => Promise<void>,
  ) {}

  /** Resolves once the latest row is written: a workflow awaits it before it returns or continues as new. */
  drained(): Promise<void> {
    return condition(() => !this.dirty && !this.sending);
  }

  changed(): void {
    this.dirty = true;
    if (!this.sending) void this.send();
  }

  private async send(): Promise<void> {
    this.sending = true;
    try {
      while (this.dirty) {
        this.dirty = false;
        await this.write(this.row());
      }
    } finally {
      this.sending = false;
    }
  }
}
