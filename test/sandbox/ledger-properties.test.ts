/**
 * Random sequences of withdrawals (including the .13 and .14 rules and reused external_ids), internal
 * transfers both ways, settlements and forced outcomes, all over HTTP. After every step the ledger must
 * balance, no user may be negative, and the money must all still be there.
 */
import fc from 'fast-check';
import {
  MERCHANT,
  RECIPIENT,
  SEEDED_TOTAL_CENTS,
  startCallbackReceiver,
  startTestSandbox,
  type CallbackReceiver,
  type TestSandbox,
} from '../helpers/sandbox';

const SETTLE_MS = 1_000;
let clock = Date.now();
let sandbox: TestSandbox;
let receiver: CallbackReceiver;
let token: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ now: () => clock, overrides: { SANDBOX_SETTLE_MS: String(SETTLE_MS) } });
  receiver = await startCallbackReceiver();
  token = await sandbox.login();
});
afterAll(async () => {
  await sandbox?.stop();
  await receiver?.close();
});

type Step =
  | { kind: 'withdraw'; amountCents: number; reuse: number | null }
  | { kind: 'transfer'; fromMerchant: boolean; amountCents: number }
  | { kind: 'settle' }
  | { kind: 'force'; pick: number; status: 'COMPLETED' | 'FAILED' };

// Amounts large enough that the merchant runs dry now and then, with the magic endings well represented.
const amountCents = fc.oneof(
  fc.integer({ min: 1, max: 2_000_000 }),
  fc.integer({ min: 1, max: 30_000_000 }),
  fc.integer({ min: 0, max: 300_000 }).map((reais) => reais * 100 + 13),
  fc.integer({ min: 0, max: 300_000 }).map((reais) => reais * 100 + 14),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      amountCents,
      reuse: fc.option(fc.nat(10), { freq: 4 }),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('transfer' as const), fromMerchant: fc.boolean(), amountCents }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'settle' as const }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('force' as const),
      pick: fc.nat(20),
      status: fc.constantFrom('COMPLETED' as const, 'FAILED' as const),
    }),
    weight: 1,
  },
);

function assertInvariants(): void {
  const db = sandbox.sandbox.ctx.db;
  const unbalanced = db
    .prepare('SELECT entry_id FROM ledger_lines GROUP BY entry_id HAVING SUM(amount_cents) <> 0')
    .all();
  expect(unbalanced).toEqual([]);
  const balances = new Map(sandbox.sandbox.ledger.balances().map((row) => [row.account, row.balanceCents]));
  for (const [account, cents] of balances) if (account.startsWith('user:')) expect(cents).toBeGreaterThanOrEqual(0);
  const held = ['user:merchant', 'user:recipient', 'fees', 'pix-out:pending', 'pix-out:settled'].reduce(
    (sum, account) => sum + (balances.get(account) ?? 0),
    0,
  );
  expect(held).toBe(SEEDED_TOTAL_CENTS);
  expect(balances.get('equity:seed')).toBe(-SEEDED_TOTAL_CENTS);
}

let run = 0;
test('every step keeps the ledger balanced, no user negative, and the seeded total conserved', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
      run += 1;
      const created: { externalId: string; transactionId: string; amountCents: number }[] = [];
      for (const [index, current] of steps.entries()) {
        if (current.kind === 'withdraw') {
          const previous = current.reuse === null ? undefined : created[current.reuse % Math.max(1, created.length)];
          const externalId = previous?.externalId ?? `prop-${run}-${index}`;
          const answer = await sandbox.call<{ transactionId: string }>('POST', '/api/withdrawals/withdraw', {
            body: {
              amount: current.amountCents / 100,
              external_id: externalId,
              pix_key: 'ana@example.com',
              key_type: 'EMAIL',
              clientCallbackUrl: receiver.url,
            },
            auth: { bearer: token },
          });
          const sameBody = previous !== undefined && previous.amountCents === current.amountCents;
          if (previous && !sameBody) expect(answer.status).toBe(409);
          else expect([200, 422]).toContain(answer.status);
          if (answer.status === 200 && !previous)
            created.push({ externalId, transactionId: answer.body.transactionId, amountCents: current.amountCents });
        } else if (current.kind === 'transfer') {
          const [from, to] = current.fromMerchant
            ? [MERCHANT, 'recipient@sandbox.test']
            : [RECIPIENT, 'merchant@sandbox.test'];
          const answer = await sandbox.call('POST', '/api/transactions/internal', {
            body: { email: to, amount: current.amountCents / 100 },
            auth: { ci: from.clientId, cs: from.clientSecret },
          });
          expect([200, 422]).toContain(answer.status);
        } else if (current.kind === 'settle') {
          clock += SETTLE_MS;
          sandbox.sandbox.tick();
        } else {
          const target = created[current.pick % Math.max(1, created.length)];
          if (target) {
            const answer = await sandbox.admin('POST', `/sandbox/operations/${target.transactionId}/outcome`, {
              status: current.status,
            });
            expect([200, 409]).toContain(answer.status);
          }
        }
        assertInvariants();
      }
    }),
    { numRuns: 100 },
  );
});
