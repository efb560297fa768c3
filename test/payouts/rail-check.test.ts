/**
 * How a payout rail reads the provider's transaction check (endpoint 9), against the sandbox over HTTP: a settled
 * withdrawal is COMPLETED with the fee it took, a refunded one FAILED, one still settling PENDING; an id the
 * provider does not know is "not found", while a provider that cannot be reached is no answer at all. And when the
 * check runs before a send: only on an attempt after the first, and what it finds is taken as the payout, fee and
 * total included, instead of a second POST.
 */
import { randomUUID } from 'node:crypto';
import { createSandbox } from '../../sandbox';
import { createLogger } from '../../src/logging/logger';
import { reaisToCentavos } from '../../src/money/centavos';
import type { PaymentApiClient } from '../../src/payment-api/client';
import {
  optionalCentavos,
  reconcileThenPost,
  transactionCheck,
  type CheckOutcome,
  type PayoutPaymentApi,
  type SubmitOutcome,
} from '../../src/payouts/rails/rail-provider';
import { pollUntil } from '../../src/util/poll';
import { testConfig } from '../helpers/temporal';
import { sandboxApiClient } from '../helpers/payment-api';

const config = testConfig({
  SANDBOX_SETTLE_MS: '50',
  SANDBOX_CALLBACK_MAX_ATTEMPTS: '1',
  SANDBOX_DEDUPLICATE: 'false',
});
const sandbox = createSandbox({ config, dbPath: ':memory:', logger: createLogger({}, 'error') });
let api: PaymentApiClient;

const client = (baseUrl: string) => sandboxApiClient(config, baseUrl);

beforeAll(async () => {
  const { url } = await sandbox.start(0, '127.0.0.1');
  api = client(url);
});
afterAll(() => sandbox.stop());

/** A withdrawal made at the provider; the sandbox settles it by its centavos (.13 refunded, .14 never). */
async function withdrawn(amount: number): Promise<{ externalId: string; feeCents: number }> {
  const externalId = `rail-check-${randomUUID().slice(0, 8)}`;
  const answer = await api.withdraw({
    amount,
    external_id: externalId,
    pix_key: '52998224725',
    key_type: 'CPF',
    clientCallbackUrl: 'http://127.0.0.1:9',
  });
  return { externalId, feeCents: reaisToCentavos(answer.withdrawal.fee) };
}

const settled = (externalId: string, state: 'COMPLETED' | 'FAILED'): Promise<CheckOutcome> =>
  pollUntil(
    async () => {
      const outcome = await transactionCheck(api, externalId);
      return outcome.kind === 'found' && outcome.state === state ? outcome : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 50, description: `withdrawal ${externalId} to be ${state}` },
  );

test('the check reads a settled withdrawal as COMPLETED, a refunded one as FAILED, each with its fee', async () => {
  const paid = await withdrawn(25);
  const refunded = await withdrawn(25.13);
  expect(await settled(paid.externalId, 'COMPLETED')).toEqual({
    kind: 'found',
    transactionId: expect.any(String) as unknown,
    state: 'COMPLETED',
    providerState: 'COMPLETO',
    feeCents: paid.feeCents,
    // The PIX end-to-end id, when the provider's answer carries one: the recipient's bank shows it.
    endToEndId: expect.stringMatching(/^E\d{8}/) as unknown,
  });
  expect(await settled(refunded.externalId, 'FAILED')).toMatchObject({ state: 'FAILED', providerState: 'FALHA' });
  expect(paid.feeCents).toBeGreaterThan(0);
});

test('a withdrawal still settling, in a status the engine does not take as final, is PENDING: look again', async () => {
  const settling = await withdrawn(25.14);
  const outcome = await transactionCheck(api, settling.externalId);
  expect(outcome).toMatchObject({ kind: 'found', state: 'PENDING' });
  expect(outcome).not.toMatchObject({ providerState: 'COMPLETO' });
});

test('an id the provider does not know is not found; a provider that cannot be reached is no answer', async () => {
  expect(await transactionCheck(api, `never-${randomUUID()}`)).toEqual({ kind: 'not-found' });
  await expect(transactionCheck(client('http://127.0.0.1:9'), 'anything')).rejects.toThrow();
});

test('a fee the provider writes with a third decimal is not read as money', () => {
  expect(optionalCentavos(2.5)).toBe(250);
  expect(optionalCentavos(undefined)).toBeUndefined();
  expect(optionalCentavos(1.005)).toBeUndefined();
});

describe('the look-up before a send', () => {
  /** The API the rail is given, counting its checks. */
  const counting = () => {
    const counted = { checks: 0, api: api as PayoutPaymentApi };
    counted.api = Object.assign(Object.create(api) as PayoutPaymentApi, {
      checkTransaction: (id: string) => {
        counted.checks += 1;
        return api.checkTransaction(id);
      },
    });
    return counted;
  };
  const posted: SubmitOutcome = { kind: 'rejected', reason: 'posted' };

  test('attempt 1 posts without asking: nothing of ours can be at the provider yet', async () => {
    const { externalId } = await withdrawn(30);
    const counted = counting();
    const outcome = await reconcileThenPost(
      { api: counted.api, attempt: 1, callbackUrl: 'http://127.0.0.1:9' },
      { externalId, amountCents: 3000 },
      () => Promise.resolve(posted),
    );
    expect(outcome).toBe(posted);
    expect(counted.checks).toBe(0);
  });

  test('a later attempt that finds the payout takes it, with its fee and total, and does not post', async () => {
    const { externalId, feeCents } = await withdrawn(30);
    await settled(externalId, 'COMPLETED');
    const counted = counting();
    const outcome = await reconcileThenPost(
      { api: counted.api, attempt: 2, callbackUrl: 'http://127.0.0.1:9' },
      { externalId, amountCents: 3000 },
      () => Promise.resolve(posted),
    );
    expect(outcome).toEqual({
      kind: 'accepted',
      transactionId: expect.any(String) as unknown,
      providerStatus: 'COMPLETO',
      feeCents,
      totalCents: 3000 + feeCents,
      reconciled: true,
    });
    expect(counted.checks).toBe(1);
  });

  test('a later attempt that finds nothing posts', async () => {
    const counted = counting();
    const outcome = await reconcileThenPost(
      { api: counted.api, attempt: 2, callbackUrl: 'http://127.0.0.1:9' },
      { externalId: `never-${randomUUID()}`, amountCents: 3000 },
      () => Promise.resolve(posted),
    );
    expect(outcome).toBe(posted);
    expect(counted.checks).toBe(1);
  });
});
