/**
 * What the checkout page posts: the card (to the provider only, through the API process: never logged,
 * stored or put in Temporal), the token of the shield's module.encrypt and the 3DS result; or, when 3DS
 * could not authenticate the buyer, why. Messages name fields, never their values.
 */
import { z } from 'zod';
import { threeDSSchema } from '../payment-api/schemas/card';
import type { FieldIssue } from '../validation/issues';
import { plainTextSchema } from '../validation/plain-text';
import { expiryInFuture, luhnValid } from '../card/card';

const tokenField = z.string().min(1).max(200);

export const checkoutCardSchema = z.strictObject({
  holderName: plainTextSchema.min(1).max(100),
  number: z.string().regex(/^\d{12,19}$/, { message: 'must be 12 to 19 digits' }),
  expiryMonth: z.string().regex(/^(0[1-9]|1[0-2])$/, { message: 'must be two digits, 01 to 12' }),
  expiryYear: z.string().regex(/^\d{4}$/, { message: 'must be four digits' }),
  cvv: z.string().regex(/^\d{3,4}$/, { message: 'must be 3 or 4 digits' }),
});
export type CheckoutCard = z.output<typeof checkoutCardSchema>;

/** What no JSON Schema states about a card (refused with 422): its check digit, its expiry, a blank name. */
export function cardProblems(card: CheckoutCard, now: Date): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (card.holderName.trim() === '') issues.push({ path: 'card.holderName', message: 'must not be blank' });
  if (!luhnValid(card.number))
    issues.push({ path: 'card.number', message: 'is not a valid card number (check digit)' });
  if (!expiryInFuture(card.expiryMonth, card.expiryYear, now))
    issues.push({ path: 'card.expiryYear', message: 'the card has expired' });
  return issues;
}

/** sessionId and threeDS come together, or not at all: a provider whose settings do not enable 3DS takes the card without them. */
export const checkoutPaymentSchema = z
  .strictObject({
    token: tokenField,
    card: checkoutCardSchema,
    cardToken: z.string().min(1).max(2_048),
    sessionId: z.string().min(1).max(200).optional(),
    // The security module's answer, passed on by the page: fields the spec does not list are dropped, not refused.
    threeDS: z.object(threeDSSchema.shape).optional(),
  })
  .refine((payment) => (payment.sessionId === undefined) === (payment.threeDS === undefined), {
    message: 'sessionId and threeDS go together',
    path: ['threeDS'],
  })
  // The refinement in the OpenAPI document, so that a request it refuses (400) is one the document calls invalid.
  .meta({ dependentRequired: { sessionId: ['threeDS'], threeDS: ['sessionId'] } });
export type CheckoutPayment = z.output<typeof checkoutPaymentSchema>;

/** The shield's error codes for a 3DS that did not authenticate the buyer (THREE_DS_DENIED, THREE_DS_ABANDONED, ...). */
export const checkoutFailureSchema = z.strictObject({
  token: tokenField,
  code: z.string().regex(/^THREE_DS_[A-Z_]{1,40}$/, { message: 'must be a THREE_DS_* code of the security module' }),
});

export function threeDSFailureReason(code: string): string {
  if (code === 'THREE_DS_DENIED') return 'the buyer denied the 3DS challenge';
  if (code === 'THREE_DS_ABANDONED') return 'the 3DS challenge was abandoned';
  return `3DS authentication failed (${code})`;
}
