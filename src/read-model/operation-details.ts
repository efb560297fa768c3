/**
 * What a charge's, card payment's or infraction's GET answers once Temporal has forgotten its workflow
 * (retention): its view as last written, without what identifies a person or a card. Kept out: a charge's
 * payer name, description, split e-mail and copy-and-paste code; a card's brand and last digits; an
 * infraction's defense and the provider's free-text analysis. One schema per kind, read back through it.
 */
import { z } from 'zod';
import { CARD_PAYMENT_STATES } from '../contracts/card-payment';
import { CHARGE_STATES } from '../contracts/charge';
import { INFRACTION_STATES } from '../contracts/infraction';

const transitionsOf = <const T extends readonly [string, ...string[]]>(states: T) => {
  const state = z.enum(states);
  return z.array(z.object({ from: state.nullable(), to: state, at: z.string(), cause: z.string() }));
};

/** What a stored view keeps of its workflow's progress: the callbacks it took, the checks it made, its every move. */
export const storedProgressShape = <const T extends readonly [string, ...string[]]>(states: T) => ({
  callbacksReceived: z.number().int(),
  checksMade: z.number().int(),
  transitions: transitionsOf(states),
});

export const chargeDetailSchema = z.object({
  feeCents: z.number().int().optional(),
  expiresAt: z.string().optional(),
  paidAt: z.string().optional(),
  providerTransactionId: z.string().optional(),
  failureReason: z.string().optional(),
  refunds: z.array(z.object({ infractionId: z.string(), amountCents: z.number().int(), at: z.string() })),
  ...storedProgressShape(CHARGE_STATES),
});
export type ChargeDetail = z.infer<typeof chargeDetailSchema>;

export const cardPaymentDetailSchema = z.object({
  installmentCount: z.number().int(),
  expiresAt: z.string(),
  providerPaymentId: z.number().int().optional(),
  providerStatus: z.string().optional(),
  netValueCents: z.number().int().optional(),
  eci: z.string().optional(),
  failureReason: z.string().optional(),
  reviewReason: z.string().optional(),
  ...storedProgressShape(CARD_PAYMENT_STATES),
});
export type CardPaymentDetail = z.infer<typeof cardPaymentDetailSchema>;

export const infractionDetailSchema = z.object({
  record: z
    .object({
      infractionId: z.string(),
      transactionId: z.string(),
      providerStatus: z.string(),
      reason: z.string(),
      amountCents: z.number().int(),
      createdAt: z.string(),
      defenseDeadline: z.string(),
      defendedAt: z.string().optional(),
      resolvedAt: z.string().optional(),
    })
    .optional(),
  chargeExternalId: z.string().nullable().optional(),
  refundRecordedAt: z.string().optional(),
  transitions: transitionsOf(INFRACTION_STATES),
});
export type InfractionDetail = z.infer<typeof infractionDetailSchema>;

export type OperationDetail = ChargeDetail | CardPaymentDetail | InfractionDetail;

const DETAIL_SCHEMAS = {
  charge: chargeDetailSchema,
  card_payment: cardPaymentDetailSchema,
  infraction: infractionDetailSchema,
} as const;
const STATES = { charge: CHARGE_STATES, card_payment: CARD_PAYMENT_STATES, infraction: INFRACTION_STATES } as const;

export type DetailKind = keyof typeof DETAIL_SCHEMAS;

/** A row of a kind read back: its state when it is one of the kind's, its detail when the row's reads as the kind's. */
export interface StoredDetail<K extends DetailKind> {
  state?: (typeof STATES)[K][number];
  amountCents: number;
  detail?: z.infer<(typeof DETAIL_SCHEMAS)[K]>;
}

export function readStoredDetail<K extends DetailKind>(
  kind: K,
  row: { status: string; amountCents?: number; detail?: unknown },
): StoredDetail<K> {
  const states: readonly string[] = STATES[kind];
  const detail = DETAIL_SCHEMAS[kind].safeParse(row.detail);
  return {
    ...(states.includes(row.status) ? { state: row.status as StoredDetail<K>['state'] } : {}),
    amountCents: row.amountCents ?? 0,
    ...(detail.success ? { detail: detail.data as StoredDetail<K>['detail'] } : {}),
  };
}

/**
 * What of an operation's view its row keeps: its kind's detail, or nothing when the view does not read as one (the
 * row is written without it; its list columns still are).
 */
export function operationDetail(kind: keyof typeof DETAIL_SCHEMAS, view: unknown): OperationDetail | undefined {
  const parsed = DETAIL_SCHEMAS[kind].safeParse(view);
  return parsed.success ? parsed.data : undefined;
}
