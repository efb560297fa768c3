import { createHash } from 'node:crypto';
import type { CardOrder } from './card-payment-request';

/** Same order ⇔ same hash: a retry of the same body is recognized, a different body under the same id is a conflict. */
export function cardOrderHash(order: CardOrder): string {
  return createHash('sha256').update(JSON.stringify(order)).digest('hex');
}
