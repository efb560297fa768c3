/** What batch tests keep building: many PIX-key items the sandbox settles, and what they add up to. */
import { randomUUID } from 'node:crypto';

export interface BatchItem {
  externalId: string;
  amount: number;
  pixKey: string;
  keyType: 'EMAIL';
}

/** `count` items with different amounts, none ending in .13 or .14 (the sandbox's failure rules). */
export function batchItems(label: string, count: number): BatchItem[] {
  const prefix = `${label}-${randomUUID().slice(0, 6)}`;
  return Array.from({ length: count }, (_, index) => {
    let cents = 1_000 + index * 7;
    if (cents % 100 === 13 || cents % 100 === 14) cents += 5;
    return {
      externalId: `${prefix}-${index}`,
      amount: cents / 100,
      pixKey: `seller${index}@example.com`,
      keyType: 'EMAIL' as const,
    };
  });
}

export const totalCents = (list: { amount: number }[]): number =>
  list.reduce((sum, item) => sum + Math.round(item.amount * 100), 0);
