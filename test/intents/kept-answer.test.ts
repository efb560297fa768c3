/**
 * What a re-run reads back of its intent's kept answer (a charge's code it shows its payer again, a defense as sent):
 * the answer in the shape asked for, and nothing (so the run asks the provider) when none was kept, or it is not
 * JSON, or it was kept in another shape.
 */
import { z } from 'zod';
import { keptAnswer } from '../../src/intents/kept-answer';
import type { Intent } from '../../src/intents/intent-store';

const chargeAnswer = z.object({ qrcode: z.string().min(1) }).transform(({ qrcode }) => ({ code: qrcode }));
const intent = (answer?: string): Intent => ({
  businessId: 'charge-1',
  kind: 'charge-creation',
  runId: 'run-a',
  state: 'SENT',
  claimedAt: new Date(0),
  updatedAt: new Date(0),
  ...(answer === undefined ? {} : { answer }),
});

test('a kept answer reads back in the shape asked for', () => {
  expect(keptAnswer(intent('{"qrcode":"000201"}'), chargeAnswer)).toEqual({ code: '000201' });
});

test('no answer kept, one that is not JSON, or one of another shape reads as nothing kept', () => {
  expect(keptAnswer(intent(), chargeAnswer)).toBeUndefined();
  expect(keptAnswer(intent('{"qrcode":'), chargeAnswer)).toBeUndefined();
  expect(keptAnswer(intent('{"reference":"_r2_charge-1"}'), chargeAnswer)).toBeUndefined();
});
