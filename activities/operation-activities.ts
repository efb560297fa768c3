/** The read model's row of a charge, card payment or infraction: written by its workflow at start and at each move (a local activity). */
import type { OperationRecord } from '../src/read-model/operation-records';
import type { ReadModel } from '../src/read-model/read-model';

export interface OperationActivityDependencies {
  readModel: Pick<ReadModel, 'recordOperation'>;
}

export function createOperationActivities({ readModel }: OperationActivityDependencies) {
  /** Idempotent: the row of a later move (higher seq) is kept. */
  async function recordOperation(record: OperationRecord): Promise<void> {
    await readModel.recordOperation(record);
  }
  return { recordOperation };
}

export type OperationActivities = ReturnType<typeof createOperationActivities>;
