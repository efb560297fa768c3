import { createHash } from 'node:crypto';
import { payoutHashParts, type PayoutRequest } from './payout-request';

/** Same request ⇔ same hash: a retry of the same body is recognized, a different body under the same id is a conflict. */
export function payoutRequestHash(request: PayoutRequest): string {
  return createHash('sha256')
    .update(JSON.stringify(payoutHashParts(request)))
    .digest('hex');
}
