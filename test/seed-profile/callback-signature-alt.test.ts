/**
 * SANDBOX_CALLBACK_SIGNATURE=alt: the seed sandbox signs callbacks by a scheme the engine does not know
 * (`sha256=<base64 HMAC of the body>`), as a real provider may. The engine on `off`, the setting that
 * takes them (as `SANDBOX_PROFILE=seed npm start` configures it), lets such a callback wake the payout as a
 * hint, and the check confirms the outcome. Polling is pushed past the test's deadline, so the payout
 * completing means the callback was taken.
 */
import './seed-env';
import { startEngineHarness } from '../helpers/engine-harness';
import { newExternalId, providerDebits, storeCode, waitForPayout, waitForProviderCallback } from '../helpers/payouts';
import { forThisFile } from '../helpers/for-this-file';

const stack = forThisFile(() =>
  startEngineHarness({
    SANDBOX_CALLBACK_SIGNATURE: 'alt',
    PROVIDER_CALLBACK_SIGNATURES: 'off',
    PAYOUT_CALLBACK_WAIT_MS: '600000',
    PAYOUT_POLL_INITIAL_MS: '600000',
    PAYOUT_POLL_MAX_MS: '600000',
  }),
);

test('a payout completes on a callback signed by another scheme, taken as a hint', async () => {
  const id = newExternalId('alt');
  const emv = storeCode(1990);
  expect((await stack.api('POST', '/v1/payouts', { externalId: id, method: 'pix_copy_paste', emv })).status).toBe(202);

  const done = await waitForPayout(stack, id, ['COMPLETED'], 30_000);
  expect(done).toMatchObject({ method: 'pix_copy_paste', amount: 19.9, total: 21 });
  expect(done.callbacksReceived).toBeGreaterThanOrEqual(1);
  expect(await providerDebits(stack, id)).toBe(1);

  // The provider's side: its callback was answered 200, not refused for its signature.
  await waitForProviderCallback(
    stack,
    id,
    (callback) => callback.status === 'delivered' && callback.lastStatusCode === 200,
    `the callback of ${id} answered 200`,
  );
});
