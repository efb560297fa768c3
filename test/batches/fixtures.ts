/** Valid payout requests and raw items for the batch tests. */
import { randomBytes } from 'node:crypto';
import type { PixKeyPayout } from '../../src/payouts/rails/pix-key/request';

export const VALID_CPF = '52998224725';
export const TEST_KEY = { id: 'batch-test-key', key: randomBytes(32) };

export function payoutRequests(count: number, prefix = 'item'): PixKeyPayout[] {
  return Array.from({ length: count }, (_, index) => ({
    method: 'pix_key' as const,
    externalId: `${prefix}-${index + 1}`,
    amountCents: 1_000 + index,
    pixKey: `payee.${prefix}.${index + 1}@example.com`,
    keyType: 'EMAIL' as const,
    ...(index % 2 === 0 ? { description: `invoice ${index + 1}` } : {}),
  }));
}

export function rawItems(count: number, prefix = 'order'): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => ({
    externalId: `${prefix}-${index + 1}`,
    amount: 10 + (index % 90) + 0.25,
    pixKey: VALID_CPF,
    keyType: 'CPF',
  }));
}
