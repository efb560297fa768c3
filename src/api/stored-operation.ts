/**
 * A single operation's GET once Temporal has forgotten its workflow (deleted, as retention does): the
 * engine's read model answers, `source: 'store'`, as payouts do (src/api/payouts/service.ts).
 */
import { readStoredDetail, type DetailKind, type StoredDetail } from '../read-model/operation-details';
import type { ReadModel } from '../read-model/read-model';
import { ApiError } from './errors';

export type OperationStore = Pick<ReadModel, 'findOperation'>;

/**
 * `read`, or when it answers 404, the operation's row read back as its kind's (state, amount, detail) and turned into an
 * answer by `answer`; 404 still when there is none, or `answer` cannot make one of it.
 */
export async function readOrStored<T, K extends DetailKind>(
  read: () => Promise<T>,
  store: OperationStore,
  kind: K,
  id: string,
  answer: (stored: StoredDetail<K>) => T | undefined,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    const row = await store.findOperation(kind, id);
    const answered = row ? answer(readStoredDetail(kind, row)) : undefined;
    if (answered === undefined) throw error;
    return answered;
  }
}
