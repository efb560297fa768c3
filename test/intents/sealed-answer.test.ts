/**
 * A money intent's sealed answer across key rotations and key ids as operators set them: an answer sealed under a
 * key that is still configured (active or previous) opens; one whose key was dropped is refused with the key named,
 * so the operator knows to configure it again; a sealed value with no key id is refused as altered.
 */
import { randomBytes } from 'node:crypto';
import { ItemSealer } from '../../src/db/item-sealer';
import { IntentAnswerSealer } from '../../src/intents/sealed-answer';
import type { IntentKey } from '../../src/intents/intent-store';

const key: IntentKey = { businessId: 'charge-1', kind: 'charge-creation' };
const ANSWER = '{"qrcode":"000201"}';
const oldKey = { id: 'k0', key: randomBytes(32) };
const newKey = { id: 'k1', key: randomBytes(32) };

test('after a rotation, an answer sealed under the previous key still opens; once that key is dropped it is refused, naming it', () => {
  const sealed = new IntentAnswerSealer({ active: oldKey, previous: [] }).seal(key, ANSWER);
  expect(new IntentAnswerSealer({ active: newKey, previous: [oldKey] }).open(key, sealed)).toEqual({
    kind: 'opened',
    answer: ANSWER,
  });
  const refused = new IntentAnswerSealer({ active: newKey, previous: [] }).open(key, sealed);
  expect(refused).toEqual({ kind: 'refused', problem: expect.stringContaining('k0, which is not configured') });
});

test('a key id of one character (PAYLOAD_ENCRYPTION_KEY_ID=7) seals and opens', () => {
  const sealer = new IntentAnswerSealer({ active: { id: '7', key: randomBytes(32) }, previous: [] });
  const sealed = sealer.seal(key, ANSWER);
  expect(sealed).toMatch(/^sealed:7:/);
  expect(sealer.open(key, sealed)).toEqual({ kind: 'opened', answer: ANSWER });
});

test("another intent's answer, or one without its key id, is refused as altered, not as a key to configure", () => {
  const sealer = new IntentAnswerSealer({ active: newKey, previous: [] });
  const sealed = sealer.seal(key, ANSWER);
  const body = sealed.slice('sealed:k1:'.length);
  const ofAnotherCharge = { businessId: 'charge-2', kind: 'charge-creation' } as const;
  for (const [on, stored] of [
    [ofAnotherCharge, sealed],
    [key, `sealed::${body}`],
    [key, `sealed:${body}`],
  ] as const) {
    expect(sealer.open(on, stored)).toEqual({
      kind: 'refused',
      problem: "does not open as this intent's answer (copied from another row, or altered)",
    });
  }
});

test("the stored format stays the released one (rows written before an upgrade open): the key's money-intents subkey, bound to kind and business id", () => {
  const released = (value: unknown): string =>
    `sealed:k1:${new ItemSealer(newKey, [], 'money-intents').seal('money-intent:charge-creation:charge-1', value).toString('base64url')}`;
  const sealer = new IntentAnswerSealer({ active: newKey, previous: [] });
  expect(sealer.open(key, released(ANSWER))).toEqual({ kind: 'opened', answer: ANSWER });
  // Sealed the same way but not an answer's text: refused, never passed on as one.
  expect(sealer.open(key, released({ qrcode: '000201' }))).toMatchObject({ kind: 'refused' });
});
