/**
 * The receiver's helper (verifyMerchantWebhook, src/merchant-events/merchant-webhook-signature.ts) as a merchant
 * calls it: on its own clock, with the tolerance it chose, beside the Standard Webhooks library it may use instead.
 */
import { Webhook } from 'standardwebhooks';
import { merchantWebhookHeaders, verifyMerchantWebhook } from '../../src/merchant-events/merchant-webhook-signature';
import { newStandardWebhookSecret } from '../../src/merchant-events/standard-webhook-signature';

const secret = newStandardWebhookSecret();
const rawBody = JSON.stringify({ id: 'evt_0123456789abcdef01234567', type: 'charge.paid' });
const signedAt = (seconds: number) =>
  merchantWebhookHeaders('standard-webhooks', 'evt_0123456789abcdef01234567', [secret], rawBody, seconds);
const nowSeconds = () => Math.floor(Date.now() / 1000);

test('on the clock of the machine, a delivery signed now is accepted, and one signed 10 minutes ago is stale, as the library says', () => {
  const fresh = signedAt(nowSeconds());
  expect(verifyMerchantWebhook({ rawBody, headers: fresh, secret })).toEqual({ ok: true });
  expect(new Webhook(secret).verify(rawBody, fresh)).toEqual(JSON.parse(rawBody));
  const old = signedAt(nowSeconds() - 600);
  expect(verifyMerchantWebhook({ rawBody, headers: old, secret })).toEqual({ ok: false, reason: 'stale' });
  expect(() => new Webhook(secret).verify(rawBody, old)).toThrow(/too old/i);
});

test("the receiver's own tolerance is the one applied, tighter or looser than the default 300 s", () => {
  const now = nowSeconds();
  const thirtySecondsOld = signedAt(now - 30);
  expect(verifyMerchantWebhook({ rawBody, headers: thirtySecondsOld, secret, nowSeconds: now })).toEqual({ ok: true });
  expect(
    verifyMerchantWebhook({ rawBody, headers: thirtySecondsOld, secret, nowSeconds: now, toleranceSeconds: 10 }),
  ).toEqual({ ok: false, reason: 'stale' });
  const tenMinutesOld = signedAt(now - 600);
  expect(
    verifyMerchantWebhook({ rawBody, headers: tenMinutesOld, secret, nowSeconds: now, toleranceSeconds: 900 }),
  ).toEqual({ ok: true });
});
