/** The product modules keep their state and durable jobs across a restart on the same SQLite file. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pollUntil } from '../../../src/util/poll';
import { startCallbackReceiver, uniqueId, type CallbackReceiver } from '../../helpers/sandbox';
import { merchantHeaders, startTestSandbox, type TestSandbox } from '../../helpers/sandbox';

const overrides = { SANDBOX_SETTLE_MS: '2000', SANDBOX_INFRACTION_RESOLVE_MS: '2000' };

let dir: string;
let receiver: CallbackReceiver;
let sb: TestSandbox | undefined;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-products-restart-'));
  receiver = await startCallbackReceiver();
});
afterAll(async () => {
  await sb?.stop();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Body {
  data: { id: number; status: string };
  status: string;
  transaction: { transactionId: string };
  infraction: { id: string; status: string };
}

test('a pending card payment, a crypto withdrawal in flight, fee settings and a defended infraction all resume after a restart', async () => {
  const dbPath = path.join(dir, 'sandbox.sqlite');
  sb = await startTestSandbox({ dbPath, overrides });
  let token = await sb.login();
  const cardBody = {
    amount: 10,
    installmentCount: 1,
    dueDate: '2030-01-01',
    clientCallbackUrl: receiver.url,
    payer: { name: 'Ana', email: 'ana@example.com', document: '52998224725', phone: '11987654321' },
    creditCard: { holderName: 'ANA', number: '4111111111111111', expiryMonth: '12', expiryYear: '2099', ccv: '123' },
  };
  const card = await sb.call<Body>('POST', '/api/v1/card/payments', { auth: { bearer: token }, body: cardBody });
  const cryptoId = uniqueId('restart-usdt');
  expect((await sb.admin('PUT', '/sandbox/crypto/fees', { usdt_rate: 6 })).status).toBe(200);
  const crypto = await sb.call('POST', '/api/crypto/withdraw', {
    auth: { bearer: token },
    body: {
      amount: 60,
      wallet: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      network: 'TRC20',
      external_id: cryptoId,
      clientCallbackUrl: receiver.url,
    },
  });
  expect(crypto.body).toMatchObject({ status: 'PROCESSING', usdt_amount: '10.000000' });
  const chargeId = `RST${Date.now().toString(36)}`;
  await sb.call('POST', '/api/transactions/create', {
    auth: merchantHeaders,
    body: {
      amount: 30,
      payerName: 'Ana',
      payerDocument: '52998224725',
      transactionId: chargeId,
      projectWebhook: receiver.url,
    },
  });
  expect((await sb.admin('POST', `/sandbox/cash-ins/${chargeId}/pay`, {})).status).toBe(200);
  const cashInId = (
    await sb.call<Body>('POST', '/api/transactions/check', { auth: merchantHeaders, body: { transactionId: chargeId } })
  ).body.transaction.transactionId;
  const infraction = (await sb.admin<Body>('POST', '/sandbox/infractions', { transactionId: cashInId, reason: 'scam' }))
    .body.infraction;
  expect(
    (
      await sb.call('POST', `/api/meds/infractions/${infraction.id}/defense`, {
        auth: merchantHeaders,
        body: { analise: 'NEGADA', justificativa: 'Delivered.' },
      })
    ).status,
  ).toBe(200);
  await sb.stop();

  sb = await startTestSandbox({ dbPath, overrides });
  token = await sb.login();
  expect((await sb.call('GET', '/api/crypto/fees', { auth: { bearer: token } })).body).toMatchObject({ usdt_rate: 6 });
  sb.advanceClock(2_001);
  const settled = await pollUntil(
    async () => {
      const [payment, withdrawal, claim] = await Promise.all([
        sb!.call<Body>('GET', `/api/v1/card/payments/${card.body.data.id}`, { auth: { bearer: token } }),
        sb!.call<Body>('GET', `/api/crypto/status/${cryptoId}`, { auth: { bearer: token } }),
        sb!.admin<Body>('GET', `/sandbox/infractions/${infraction.id}`),
      ]);
      const states = [payment.body.data.status, withdrawal.body.status, claim.body.infraction.status];
      return states.join() === 'COMPLETED,COMPLETED,REJECTED' ? states : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 20, description: 'the jobs scheduled before the restart to run' },
  );
  expect(settled).toEqual(['COMPLETED', 'COMPLETED', 'REJECTED']);
  // A new card payment continues the integer id sequence.
  const next = await sb.call<Body>('POST', '/api/v1/card/payments', { auth: { bearer: token }, body: cardBody });
  expect(next.body.data.id).toBe(card.body.data.id + 1);
  expect(sb.ledgerBalances()).toBe(true);
});
