/**
 * The payout rails against a provider that does only what the document shows, configured as
 * docs/provider-integration.md tells an integrator: no crypto withdrawal route (the document shows none),
 * endpoint 5 under field names and an answer of the provider's own (a proxy translates for the sandbox
 * behind it), error answers with a message and no code. Every POST is counted at the wire; the sandbox
 * de-duplicates nothing.
 */
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import { buildBrCode } from '../../src/pix/brcode';
import { formatPixCopyPasteFields } from '../../src/payment-api/schemas';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, providerDebits, waitForPayout } from '../helpers/payouts';
import { jsonAnswer, type ProviderProxy } from '../helpers/provider-proxy';
import { currentPayoutHistory, recordHistory } from '../helpers/record-history';

const WITHDRAW = '/api/withdrawals/withdraw';
const COPY_PASTE = '/api/payments/pix-copy-paste/pay';
const INTERNAL = '/api/transactions/internal';
const TRON_WALLET = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
/** The provider's names for endpoint 5's request (PIX_COPY_PASTE_REQUEST_FIELDS); it takes no description. */
const PROVIDER_FIELDS = { emv: 'pixCopiaECola', amount: 'valor', externalId: 'idExterno', callbackUrl: 'urlCallback' };

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness(
    {
      SANDBOX_DEDUPLICATE: 'false',
      PAYMENT_API_CRYPTO_WITHDRAW_PATH: '',
      PIX_COPY_PASTE_REQUEST_FIELDS: formatPixCopyPasteFields(PROVIDER_FIELDS),
    },
    { providerProxy: true },
  );
  providerSpeaksItsOwnShapes();
});
afterAll(() => stack?.close());

const provider = (): ProviderProxy => {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider;
};
const pay = (body: Record<string, unknown>) => stack.api('POST', '/v1/payouts', body);
const finalState = (id: string) =>
  waitForPayout(stack, id, ['COMPLETED', 'FAILED', 'NEEDS_REVIEW', 'CANCELLED'], 30_000);
/** The POSTs of one payout the engine sent to `path` (its id is in each body), as the proxy saw them. */
const postsOf = (path: string, id: string) =>
  provider().requests.filter(
    (request) => request.method === 'POST' && request.path === path && request.body.includes(id),
  );
const causeOf = (payout: PayoutResponse, state: string) =>
  payout.transitions.find((transition) => transition.to === state)?.cause;
const emv = (txid: string) =>
  buildBrCode({
    pixKey: 'loja@example.com',
    merchantName: 'Loja Exemplo',
    merchantCity: 'SAO PAULO',
    txid,
    amountCentavos: 1_990,
  });

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields => (typeof value === 'object' && value !== null ? (value as Fields) : {});

/**
 * Endpoint 5 as the provider of this file speaks it: its field names in, the payment one level down (`pagamento`) out,
 * from either of the sandbox's answers (the default profile's `{transactionId, payment}`, the seed's `{transactionId, status}`).
 */
function providerSpeaksItsOwnShapes(
  answer: (sandbox: Fields) => unknown = (sandbox) => {
    const payment = fieldsOf(sandbox.payment);
    return {
      mensagem: sandbox.message,
      pagamento: {
        transaction_id: sandbox.transactionId,
        status: payment.status ?? sandbox.status,
        fee: payment.fee,
        total: payment.total,
      },
    };
  },
): void {
  provider().translate(COPY_PASTE, {
    request: (body) => {
      const sent = fieldsOf(body);
      return {
        qrcode: sent[PROVIDER_FIELDS.emv],
        amount: sent[PROVIDER_FIELDS.amount],
        external_id: sent[PROVIDER_FIELDS.externalId],
        clientCallbackUrl: sent[PROVIDER_FIELDS.callbackUrl],
      };
    },
    answer: (body) => answer(fieldsOf(body)),
  });
}

describe('crypto without its route (PAYMENT_API_CRYPTO_WITHDRAW_PATH unset)', () => {
  test('a crypto payout is refused with 422 RAIL_NOT_AVAILABLE and nothing starts; the fee quote still answers', async () => {
    const id = newExternalId('crypto-off');
    const answer = await pay({ externalId: id, method: 'crypto', amount: 100, wallet: TRON_WALLET });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      code: 'RAIL_NOT_AVAILABLE',
      message: expect.stringContaining('PAYMENT_API_CRYPTO_WITHDRAW_PATH'),
      issues: [{ path: 'method' }],
    });
    expect((await stack.api('GET', `/v1/payouts/${id}`)).status).toBe(404);
    expect(
      provider().requests.filter((request) => request.method === 'POST' && request.path.startsWith('/api/crypto')),
    ).toEqual([]);

    const quote = await stack.api('GET', '/v1/payouts/quote?method=crypto&amount=100');
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ amount: 100, fee: 3 });
  });

  test('a batch with a crypto item is refused with 422 RAIL_NOT_AVAILABLE naming the item, and nothing is stored or started', async () => {
    const batchId = newExternalId('batch-crypto-off');
    const [pix, crypto] = [newExternalId('batch-pix'), newExternalId('batch-crypto')];
    const answer = await stack.api('POST', '/v1/payout-batches', {
      batchId,
      items: [
        { externalId: pix, amount: 10, pixKey: '52998224725', keyType: 'CPF' },
        { externalId: crypto, method: 'crypto', amount: 60, wallet: TRON_WALLET },
      ],
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      code: 'RAIL_NOT_AVAILABLE',
      rows: [
        { index: 1, externalId: crypto, field: 'method', message: expect.stringContaining('crypto payouts are off') },
      ],
    });
    expect((await stack.api('GET', `/v1/payout-batches/${batchId}`)).status).toBe(404);
    expect((await stack.api('GET', `/v1/payouts/${pix}`)).status).toBe(404);
  });
});

describe("copy-and-paste under the provider's shapes (PIX_COPY_PASTE_REQUEST_FIELDS)", () => {
  test("the request goes out under the provider's field names, its answer names the payment one level down: COMPLETED as answered, one POST", async () => {
    const id = newExternalId('emv-names');
    expect(
      (
        await pay({
          externalId: id,
          method: 'pix_copy_paste',
          emv: emv('NAMES'),
          description: 'not sent: the provider takes none',
        })
      ).status,
    ).toBe(202);
    const payout = await finalState(id);
    expect(payout).toMatchObject({ status: 'COMPLETED', amount: 19.9, fee: 1.1, total: 21 });
    expect(causeOf(payout, 'SUBMITTED')).toBe('provider answered PROCESSING');
    const [sent, ...again] = postsOf(COPY_PASTE, id);
    expect(again).toEqual([]);
    expect(Object.keys(JSON.parse(sent?.body ?? '{}') as Fields).sort()).toEqual(Object.values(PROVIDER_FIELDS).sort());
    expect(await providerDebits(stack, id)).toBe(1);
  });

  test('an answer that names no payment: the check by our id finds it, and the payout goes on from there; one POST', async () => {
    providerSpeaksItsOwnShapes(() => ({ mensagem: 'Pagamento aceito' }));
    try {
      const id = newExternalId('emv-unnamed-found');
      await pay({ externalId: id, method: 'pix_copy_paste', emv: emv('UNNAMED') });
      const payout = await finalState(id);
      expect(payout.status).toBe('COMPLETED');
      expect(causeOf(payout, 'SUBMITTED')).toBe('found at the provider by reconciliation');
      expect(postsOf(COPY_PASTE, id)).toHaveLength(1);
      expect(await providerDebits(stack, id)).toBe(1);
    } finally {
      providerSpeaksItsOwnShapes();
    }
  });

  test('an answer that names no payment, which the check cannot find either: NEEDS_REVIEW naming what was missing, never a second POST', async () => {
    const id = newExternalId('emv-unnamed-lost');
    provider().answerNext(
      COPY_PASTE,
      jsonAnswer(200, { mensagem: 'Pagamento aceito', dados: { situacao: 'EM_PROCESSAMENTO' } }),
    );
    await pay({ externalId: id, method: 'pix_copy_paste', emv: emv('LOST') });
    const payout = await finalState(id);
    expect(payout.status).toBe('NEEDS_REVIEW');
    expect(payout.reviewReason).toMatch(
      /no transactionId \(nor transaction_id\) at the top level of its answer or one level down \(it held mensagem, dados, dados\.situacao\)/,
    );
    expect(payout.reviewReason).toMatch(new RegExp(`finds nothing under external_id ${id}`));
    // Endpoint 9 was asked by our id before the payout went to review.
    expect(
      provider().requests.filter((request) => request.path === '/api/transactions/check' && request.body.includes(id))
        .length,
    ).toBeGreaterThanOrEqual(1);
    expect(postsOf(COPY_PASTE, id)).toHaveLength(1);
    await recordHistory(
      stack.temporal.client,
      payoutWorkflowId(id),
      currentPayoutHistory('copy-paste-answer-unread-review'),
    );
  });
});

describe("error answers with a message alone: a clear refusal is FAILED with the provider's words", () => {
  test('an internal transfer to an e-mail the provider does not know, refused 404 {message}: FAILED with that message, one POST', async () => {
    const id = newExternalId('int-404');
    const message = 'the e-mail must belong to a valid user of the same environment';
    provider().answerNext(INTERNAL, jsonAnswer(404, { message }));
    await pay({ externalId: id, method: 'internal', email: 'stranger@example.com', amount: 5, description: id });
    const payout = await finalState(id);
    expect(payout).toMatchObject({ status: 'FAILED', failureReason: message });
    expect(postsOf(INTERNAL, id)).toHaveLength(1);
    await recordHistory(stack.temporal.client, payoutWorkflowId(id), currentPayoutHistory('internal-refused'));
  });

  test.each([
    [
      '422 with a plain-text body',
      422,
      'text/plain',
      'Chave PIX não encontrada no DICT',
      'Chave PIX não encontrada no DICT',
    ],
    [
      '404 with {error}',
      404,
      'application/json',
      '{"error":"conta de destino inexistente"}',
      'conta de destino inexistente',
    ],
  ])(
    "a withdrawal refused %s: FAILED with the provider's words, never sent again",
    async (_what, status, contentType, body, words) => {
      const id = newExternalId(`wd-${status}`);
      provider().answerNext(WITHDRAW, { status, contentType, body });
      await pay({ externalId: id, amount: 7, pixKey: 'ana@example.com', keyType: 'EMAIL' });
      const payout = await finalState(id);
      expect(payout).toMatchObject({ status: 'FAILED', failureReason: words });
      expect(postsOf(WITHDRAW, id)).toHaveLength(1);
      expect(await providerDebits(stack, id)).toBe(0);
    },
  );

  test("a 403 is no refusal of the payout (the engine's credentials, or a gateway): the provider did nothing, and it is sent again", async () => {
    const id = newExternalId('wd-403');
    provider().answerNext(WITHDRAW, jsonAnswer(403, { message: 'forbidden' }));
    await pay({ externalId: id, amount: 8, pixKey: 'ana@example.com', keyType: 'EMAIL' });
    const payout = await finalState(id);
    expect(payout.status).toBe('COMPLETED');
    expect(postsOf(WITHDRAW, id)).toHaveLength(2);
    expect(await providerDebits(stack, id)).toBe(1);
  });
});
