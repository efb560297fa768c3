/**
 * The submit activity against the sandbox behind a gateway that answers a status the contract does not
 * explain (451): that is no refusal of the withdrawal, so the attempt fails and is retried, and the retry
 * reconciles before it posts. The sandbox does not de-duplicate: one debit proves the engine posted once.
 */
import { randomBytes } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createPayoutActivities, type SubmitOutcome } from '../../activities/payout-activities';
import { createLogger } from '../../src/logging/logger';
import { UnexpectedStatusError } from '../../src/payment-api/errors';
import { payoutInput } from '../../src/lifecycles/payout-client';
import { payoutTiming } from '../../src/payouts/payout-input';
import { createSandbox } from '../../sandbox';
import { sqliteIntentStore } from '../../src/intents/sql-intent-store';
import { sandboxApiClient } from '../helpers/payment-api';
import { startProviderProxy, type ProviderProxy } from '../helpers/provider-proxy';
import { testConfig } from '../helpers/temporal';

const config = testConfig({ SANDBOX_CALLBACK_MAX_ATTEMPTS: '1', SANDBOX_DEDUPLICATE: 'false' });
const sandbox = createSandbox({ config, dbPath: ':memory:', logger: createLogger({}, 'error') });
let gateway: ProviderProxy;

beforeAll(async () => {
  const { url } = await sandbox.start(0, '127.0.0.1');
  gateway = await startProviderProxy(url);
});
afterAll(async () => {
  await gateway.close();
  await sandbox.stop();
});

test("a gateway's 451 on the withdrawal is retried after reconciliation, never taken as a refusal", async () => {
  const api = sandboxApiClient(config, gateway.url);
  const { submitWithdrawal } = createPayoutActivities({
    api,
    callbackBaseUrl: 'http://127.0.0.1:9',
    outcomes: { record: () => Promise.resolve() },
    announce: () => Promise.resolve({}),
    intents: sqliteIntentStore(':memory:', { active: { id: 'k1', key: randomBytes(32) }, previous: [] }),
    readModel: { recordPayout: () => Promise.resolve() },
  });
  const input = payoutInput(
    { method: 'pix_key', externalId: `gw-${Date.now()}`, amountCents: 2500, pixKey: '52998224725', keyType: 'CPF' },
    payoutTiming(config),
  );

  gateway.answerNext('/api/withdrawals/withdraw', {
    status: 451,
    contentType: 'text/html',
    body: '<h1>Unavailable For Legal Reasons</h1>',
  });
  const first = await new MockActivityEnvironment({ attempt: 1 })
    .run(submitWithdrawal, input)
    .catch((error: unknown) => error);
  expect(first).toBeInstanceOf(UnexpectedStatusError);

  const second: SubmitOutcome = await new MockActivityEnvironment({ attempt: 2 }).run(submitWithdrawal, input);
  expect(second).toMatchObject({ kind: 'accepted', reconciled: false });
  const third: SubmitOutcome = await new MockActivityEnvironment({ attempt: 3 }).run(submitWithdrawal, input);
  expect(third).toMatchObject({
    kind: 'accepted',
    reconciled: true,
    transactionId: second.kind === 'accepted' ? second.transactionId : '',
  });
  const debits = sandbox.ledger
    .entries({ externalId: input.externalId })
    .filter((entry) => entry.lines.some((line) => line.account.startsWith('user:') && line.amountCents < 0));
  expect(debits).toHaveLength(1);
  // The 451 and the one POST that reached the provider; the third attempt only asked.
  expect(gateway.count('POST', '/api/withdrawals/withdraw')).toBe(2);
});
