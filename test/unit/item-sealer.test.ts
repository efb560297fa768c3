/**
 * The sealed columns of the batch store (payout destinations) and of the endpoint store (webhook signing
 * secrets): each store seals with its own subkey of the payload key, so a subkey leaked from one store
 * opens nothing of the other; rows sealed with the key itself before the subkeys still open.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { ItemSealer } from '../../src/db/item-sealer';
import { purposeKey } from '../../src/temporal/key-purposes';

const active = { id: 'k1', key: randomBytes(32) };
const batches = new ItemSealer(active, [], 'batch-items');
const endpoints = new ItemSealer(active, [], 'webhook-secrets');

/** A row as format 2 laid it out, sealed with the key itself: version byte, IV, ciphertext, tag; the row's id as associated data. */
function sealedWithTheKeyItself(key: Buffer, rowId: string, value: unknown): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(rowId));
  return Buffer.concat([Buffer.of(2), iv, cipher.update(JSON.stringify(value)), cipher.final(), cipher.getAuthTag()]);
}

test("each store's rows open with that store's sealer only, though one key serves both", () => {
  const destination = batches.seal('order-1', { pixKey: 'ana@example.com' });
  expect(batches.open('order-1', destination, 'k1')).toEqual({ pixKey: 'ana@example.com' });
  expect(() => endpoints.open('order-1', destination, 'k1')).toThrow(/authenticate/);
  const secret = endpoints.seal('we_1', 'whsec_abc');
  expect(endpoints.open('we_1', secret, 'k1')).toBe('whsec_abc');
  expect(() => batches.open('we_1', secret, 'k1')).toThrow(/authenticate/);
});

test('the subkeys are distinct from each other and from the key', () => {
  const keys = [
    active.key,
    purposeKey(active.key, 'temporal-payloads'),
    purposeKey(active.key, 'batch-items'),
    purposeKey(active.key, 'webhook-secrets'),
  ].map((key) => key.toString('hex'));
  expect(new Set(keys).size).toBe(4);
  expect(purposeKey(active.key, 'batch-items')).toEqual(purposeKey(Buffer.from(active.key), 'batch-items'));
});

test('rows sealed with the key itself, before the subkeys, still open, also with a key now previous', () => {
  expect(
    batches.open('order-2', sealedWithTheKeyItself(active.key, 'order-2', { pixKey: 'bruno@example.com' }), 'k1'),
  ).toEqual({ pixKey: 'bruno@example.com' });
  expect(endpoints.open('we_2', sealedWithTheKeyItself(active.key, 'we_2', 'whsec_old'), 'k1')).toBe('whsec_old');
  const rotated = new ItemSealer({ id: 'k2', key: randomBytes(32) }, [active], 'batch-items');
  expect(rotated.open('order-3', sealedWithTheKeyItself(active.key, 'order-3', { wallet: 'T1' }), 'k1')).toEqual({
    wallet: 'T1',
  });
  expect(rotated.open('order-4', batches.seal('order-4', { wallet: 'T2' }), 'k1')).toEqual({ wallet: 'T2' });
  // Rows of before key ids were stored: every configured key is tried, each in its own format.
  expect(
    rotated.open('order-5', sealedWithTheKeyItself(active.key, 'order-5', { email: 'c@example.com' }), null),
  ).toEqual({ email: 'c@example.com' });
});
