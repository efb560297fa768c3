/**
 * What a chaos run drives (`CHAOS_FLOWS`, all by default): the batch of payouts, PIX charges (paid,
 * expired, paid late), card payments (frictionless and with a 3DS challenge), MED infractions (sync,
 * defense, resolution) and the merchant's webhook deliveries to a receiver that flaps.
 */
import { z } from 'zod';

export const FLOWS = ['payouts', 'charges', 'cardPayments', 'infractions', 'webhooks'] as const;
export type Flow = (typeof FLOWS)[number];

/** `all`, or a comma-separated list of flows. */
export const flowsSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value === '' || value === 'all') return [...FLOWS];
    const names = value.split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !(FLOWS as readonly string[]).includes(name));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown flow ${unknown.join(', ')}: each must be one of ${FLOWS.join(', ')}, or all`,
      });
      return z.NEVER;
    }
    return FLOWS.filter((flow) => names.includes(flow));
  });
