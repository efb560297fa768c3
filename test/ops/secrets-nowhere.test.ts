/**
 * Every lifecycle through the whole stack with secrets and personal data of its own, then every one of
 * those values searched for where an operator or an attacker with partial access could read it: every
 * log line of the API, the worker and the sandbox; every history of the run as Temporal stores it
 * (`temporal workflow show -o json`, without the codec, payload bytes decoded too); every file under
 * DATA_DIR; every span the API and the worker export with tracing on (OTLP, as Jaeger would keep it). None
 * may be found. The run: payouts on every rail (PIX key by e-mail and by CPF, copy and paste, internal
 * transfer, crypto), one of them first answered 503 by the provider with a message quoting the key and its
 * owner's e-mail, a CSV batch, a PIX charge paid and then claimed by a MED infraction that is defended, a
 * card payment paid in a real browser at its checkout link, merchant webhooks delivered, the codec called
 * with its token, a forged callback, and requests carrying documents and keys in their query strings,
 * credentials in headers no list names and in `baggage`. The same run shows the request id of an API call
 * on the worker's lines of the activities it caused.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { API_KEY_SCOPES } from '../../src/config/api-keys';
import type { ChargeResponse } from '../../src/api/charges/schemas';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '../../src/payment-api/webhook-signature';
import { buildBrCode } from '../../src/pix/brcode';
import { TEST_CARDS } from '../../sandbox/products/card-payments/test-cards';
import { temporalCliPath } from '../../tools/temporal/binaries';
import { pollUntil } from '../../src/util/poll';
import { MERCHANT_EVENT_TYPES } from '../../src/merchant-events/merchant-event';
import {
  createCardPayment,
  EXPIRY_YEAR,
  launchBrowser,
  openCheckout,
  pageOutcome,
  pay,
  TEST_CVV,
  digitsAlone,
  waitForCardPayment,
  type Browser,
} from '../card-payments/card-checkout';
import { jsonAnswer } from '../helpers/provider-proxy';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver';
import { startTracing, type Tracing } from '../../src/telemetry/tracing';
import { waitForInfraction } from '../helpers/infractions';
import { newExternalId, waitForPayout } from '../helpers/payouts';
import { temporalTestAddress } from '../helpers/temporal';
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/stack/webhook-receiver';

const run = promisify(execFile);
const token = (label: string): string => `${label}-${randomBytes(16).toString('hex')}`;
const tag = randomUUID().slice(0, 6);

/** Configured secrets: each opens something (docs/security.md). */
const CONFIGURED = {
  apiKey: token('api-key'),
  providerClientId: token('client-id'),
  providerClientSecret: token('client-secret'),
  webhookSecret: token('webhook-secret'),
  sandboxAdminToken: token('admin-token'),
  codecToken: token('codec-token'),
  checkoutTokenSecret: token('checkout-secret'),
};
/** Credentials a client sent in headers the engine has no name for, and in W3C baggage. */
const STRAY_CREDENTIALS = {
  xAuthToken: token('x-auth-token'),
  proxyPassword: token('proxy-password'),
  baggageToken: token('baggage'),
};
/** Personal data of the run: keys, documents, e-mails, names, a wallet, card data. */
const PERSONAL = {
  pixEmail: `maria.silva+${tag}@example.com`,
  pixCpf: '52998224725',
  pixCpfMasked: '529.982.247-25',
  batchPixEmail: `joao.batch+${tag}@example.org`,
  batchCpf: '11144477735',
  copyPasteKey: `loja+${tag}@example.net`,
  walletAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  payerName: `Perpetua Quitéria ${tag}`,
  payerEmail: `perpetua+${tag}@example.com`,
  payerCpf: '39053344705',
  buyerName: `Benedita Cardoso ${tag}`,
  buyerEmail: `benedita+${tag}@example.com`,
  buyerCpf: '15350946056',
  buyerPhone: '+5511987654321',
  cardNumber: TEST_CARDS.frictionless,
  cardNumberTyped: TEST_CARDS.frictionless.replace(/(\d{4})(?=\d)/g, '$1 '),
  cvv: TEST_CVV,
};

const lines: string[] = [];
let stack: EngineHarness;
let receiver: WebhookReceiver;
let collector: OtlpReceiver;
let tracing: Tracing | undefined;
let browser: Browser;
/** Secrets that appear during the run: the merchant endpoint's signing secret, checkout link tokens. */
const issued: Record<string, string> = {};

beforeAll(async () => {
  // Tracing on, as an operator turns it on (the standard variables), towards a receiver that keeps every span.
  collector = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.endpoint;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
  tracing = startTracing('payout-api');
  stack = await startEngineHarness(
    {
      ENGINE_API_KEYS: `merchant:${CONFIGURED.apiKey}:${API_KEY_SCOPES.join('+')}`,
      PAYMENT_API_CLIENT_ID: CONFIGURED.providerClientId,
      PAYMENT_API_CLIENT_SECRET: CONFIGURED.providerClientSecret,
      WEBHOOK_SECRET: CONFIGURED.webhookSecret,
      SANDBOX_ADMIN_TOKEN: CONFIGURED.sandboxAdminToken,
      CODEC_TOKEN: CONFIGURED.codecToken,
      CHECKOUT_TOKEN_SECRET: CONFIGURED.checkoutTokenSecret,
      SANDBOX_INFRACTION_RESOLVE_MS: '0',
      MERCHANT_WEBHOOK_RETRY_INITIAL_MS: '200',
      // The merchant's receiver is on this machine.
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    },
    // Through the recording proxy: one provider answer is the test's own (payouts()).
    { logs: (line) => lines.push(line), tracing, providerProxy: true },
  );
  receiver = await startWebhookReceiver();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.close();
  await tracing?.shutdown();
  await collector?.close();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${CONFIGURED.apiKey}`, ...headers },
    body: JSON.stringify(body),
  });

const requestId = `secrets-${tag}`;
/** W3C baggage a caller sends along: it must go nowhere, neither into Temporal's headers nor to the provider. */
const baggage = { baggage: `session=${STRAY_CREDENTIALS.baggageToken},cpf=${PERSONAL.pixCpf}` };

async function payouts(): Promise<string[]> {
  const code = buildBrCode({
    pixKey: PERSONAL.copyPasteKey,
    merchantName: 'Loja Exemplo',
    merchantCity: 'SAO PAULO',
    txid: 'PEDIDO42',
    amountCentavos: 1990,
  });
  const requests = [
    {
      externalId: newExternalId('secret-email'),
      amount: 20,
      pixKey: PERSONAL.pixEmail,
      keyType: 'EMAIL',
      description: `to ${PERSONAL.pixEmail}`,
    },
    { externalId: newExternalId('secret-cpf'), amount: 21, pixKey: PERSONAL.pixCpfMasked, keyType: 'CPF' },
    { externalId: newExternalId('secret-emv'), method: 'pix_copy_paste', emv: code },
    { externalId: newExternalId('secret-internal'), method: 'internal', email: 'recipient@sandbox.test', amount: 5 },
    { externalId: newExternalId('secret-crypto'), method: 'crypto', amount: 60, wallet: PERSONAL.walletAddress },
  ];
  // The first withdrawal is answered 503 with a message quoting the key and its owner (a provider's words): retried, then completed.
  const message = `Chave PIX ${PERSONAL.pixCpfMasked} de ${PERSONAL.pixEmail} indisponível no momento`;
  stack.provider?.answerNext('/api/withdrawals/withdraw', jsonAnswer(503, { code: 'SERVICE_UNAVAILABLE', message }));
  for (const request of requests)
    expect((await post('/v1/payouts', request, { 'x-request-id': requestId, ...baggage })).status).toBe(202);
  // Refused for its body: the validation error must not carry the key anywhere either.
  expect(
    (
      await post('/v1/payouts', {
        externalId: newExternalId('secret-bad'),
        amount: 1,
        pixKey: PERSONAL.pixEmail,
        keyType: 'CPF',
      })
    ).status,
  ).toBe(422);
  return requests.map((request) => request.externalId);
}

async function batch(): Promise<string> {
  const batchId = newExternalId('secret-batch');
  const csv = [
    'externalId,amount,pixKey,keyType',
    `${batchId}-1,10.00,${PERSONAL.batchPixEmail},EMAIL`,
    `${batchId}-2,11.00,${PERSONAL.batchCpf},CPF`,
  ].join('\n');
  const answer = await fetch(`${stack.apiUrl}/v1/payout-batches?batchId=${batchId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CONFIGURED.apiKey}`, 'content-type': 'text/csv' },
    body: csv,
  });
  expect(answer.status).toBe(202);
  return batchId;
}

async function chargeClaimedAndDefended(): Promise<void> {
  const externalId = newExternalId('secret-charge');
  expect(
    (
      await post('/v1/charges', {
        externalId,
        amount: 150,
        payer: { name: PERSONAL.payerName, document: PERSONAL.payerCpf, email: PERSONAL.payerEmail },
      })
    ).status,
  ).toBe(201);
  expect(
    (await stack.admin('POST', `/sandbox/cash-ins/${externalId}/pay`, { payerName: PERSONAL.payerName })).status,
  ).toBe(200);
  const paid = await pollUntil(
    async () => {
      const answer = await stack.api<ChargeResponse>('GET', `/v1/charges/${externalId}`);
      return answer.body.status === 'PAID' && answer.body.providerTransactionId ? answer.body : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, description: 'the charge to be PAID' },
  );
  const opened = await stack.admin<{ infraction: { id: string } }>('POST', '/sandbox/infractions', {
    transactionId: paid.providerTransactionId,
    reason: 'fraud',
  });
  expect(opened.status).toBe(200);
  const infractionId = opened.body.infraction.id;
  expect((await stack.api('POST', '/v1/infractions/sync')).status).toBe(202);
  await infractionReaches(infractionId, ['OPEN']);
  const defended = await post(`/v1/infractions/${infractionId}/defense`, {
    analise: 'NEGADA',
    justificativa: `Delivered to ${PERSONAL.payerName}, CPF ${PERSONAL.payerCpf}`,
    proofs: [`https://merchant.example.com/proofs/${tag}.pdf`],
  });
  expect(defended.status).toBe(200);
  expect(
    (await stack.admin('POST', `/sandbox/infractions/${infractionId}/resolve`, { status: 'REJECTED' })).status,
  ).toBe(200);
  expect((await stack.api('POST', '/v1/infractions/sync')).status).toBe(202);
  await infractionReaches(infractionId, ['REJECTED']);
}

const infractionReaches = (id: string, statuses: string[]) => waitForInfraction(stack, id, statuses);

async function cardPaidAtCheckout(): Promise<void> {
  const created = await createCardPayment(stack, 'secret-card', {
    payer: {
      name: PERSONAL.buyerName,
      email: PERSONAL.buyerEmail,
      document: PERSONAL.buyerCpf,
      phone: PERSONAL.buyerPhone,
    },
  });
  issued.checkoutToken = new URL(created.checkoutUrl).searchParams.get('token') ?? '';
  const page = await openCheckout(browser, created.checkoutUrl);
  await page.getByLabel('Name on card').fill(PERSONAL.buyerName.toUpperCase());
  await page.getByLabel('Card number').fill(PERSONAL.cardNumberTyped);
  await page.getByLabel('Expiry month (MM)').fill('12');
  await page.getByLabel('Expiry year (YYYY)').fill(EXPIRY_YEAR);
  await page.getByLabel('Security code').fill(PERSONAL.cvv);
  await pay(page);
  expect((await pageOutcome(page)).status).toBe('PAID');
  await waitForCardPayment(stack, created.externalId, ['PAID']);
  await page.close();
}

/** Requests a careless client makes (personal data in query strings, credentials in headers no list names), and a forged callback. */
async function carelessRequests(): Promise<void> {
  const forged = await fetch(`${stack.apiUrl}/callbacks/withdrawals`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000)),
      [WEBHOOK_SIGNATURE_HEADER]: `v1=${'ab'.repeat(32)}`,
      ...baggage,
    },
    body: JSON.stringify({ external_id: 'any', status: 'COMPLETED', pix_key: PERSONAL.pixEmail }),
  });
  expect(forged.status).toBe(401);
  const query = new URLSearchParams({ pixKey: PERSONAL.pixEmail, cpf: PERSONAL.pixCpf, token: CONFIGURED.apiKey });
  await fetch(`${stack.apiUrl}/v1/charges?${query.toString()}`, {
    headers: {
      authorization: `Bearer ${CONFIGURED.apiKey}`,
      'x-auth-token': STRAY_CREDENTIALS.xAuthToken,
      'proxy-authorization': `Basic ${STRAY_CREDENTIALS.proxyPassword}`,
    },
  });
  await fetch(`${stack.apiUrl}/v1/payouts/quote?method=crypto&amount=60&wallet=${PERSONAL.walletAddress}`, {
    headers: { authorization: `Bearer ${CONFIGURED.apiKey}` },
  });
  // The Temporal UI's way in: the token in the codec URL.
  const decoded = await fetch(`${stack.apiUrl}/codec/t/${CONFIGURED.codecToken}/decode`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...baggage },
    body: '{"payloads":[]}',
  });
  expect(decoded.status).toBe(200);
}

/** Every workflow this run started (its own task queue), as Temporal stores it: the CLI, no codec. */
async function storedHistories(): Promise<string[]> {
  const cli = temporalCliPath();
  const address = ['--address', temporalTestAddress(), '--namespace', stack.config.TEMPORAL_NAMESPACE];
  const listed = await run(
    cli,
    [
      'workflow',
      'list',
      ...address,
      '--query',
      `TaskQueue = '${stack.config.TEMPORAL_TASK_QUEUE}'`,
      '--output',
      'json',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const executions = (JSON.parse(listed.stdout) as { execution: { workflowId: string; runId: string } }[]).map(
    (item) => item.execution,
  );
  const histories: string[] = [];
  for (const { workflowId, runId } of executions) {
    const shown = await run(
      cli,
      ['workflow', 'show', ...address, '--workflow-id', workflowId, '--run-id', runId, '--output', 'json'],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    histories.push(withPayloadBytes(shown.stdout));
  }
  return histories;
}

/** The JSON text, followed by the bytes of every base64 `data` field in it (a payload stored in clear is base64 there). */
function withPayloadBytes(json: string): string {
  const decoded: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'data' && typeof child === 'string') decoded.push(Buffer.from(child, 'base64').toString('utf8'));
        else visit(child);
      }
    }
  };
  visit(JSON.parse(json));
  return `${json}\n${decoded.join('\n')}`;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** The names of the values found in `text`; digits only count as a run of their own (not inside a longer number). */
function secretsIn(text: string, values: Record<string, string>): string[] {
  return Object.entries(values)
    .filter(([, value]) => (/^\d+$/.test(value) ? digitsAlone(value, text) : text.includes(value)))
    .map(([name]) => name);
}

test('no secret or personal data of a run of every lifecycle is in the logs, the stored histories, the exported spans or the files of the engine', async () => {
  const endpoint = await stack.api<{ secret: string }>('POST', '/v1/webhook-endpoints', {
    url: receiver.url,
    events: [...MERCHANT_EVENT_TYPES],
  });
  expect(endpoint.status).toBe(201);
  issued.merchantWebhookSecret = endpoint.body.secret;

  const payoutIds = await payouts();
  const batchId = await batch();
  await chargeClaimedAndDefended();
  await cardPaidAtCheckout();
  await carelessRequests();
  for (const externalId of payoutIds) await waitForPayout(stack, externalId, ['COMPLETED']);
  await pollUntil(
    async () => {
      const answer = await stack.api<{ done: boolean }>('GET', `/v1/payout-batches/${batchId}`);
      return answer.body.done ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250, description: 'the batch to be done' },
  );
  // Events of every kind reached the merchant, signed with the endpoint's secret.
  await pollUntil(
    () => {
      const types = new Set<string>(receiver.received.map((delivery) => delivery.event.type));
      return [
        'payout.completed',
        'payout_batch.completed',
        'charge.paid',
        'card_payment.paid',
        'infraction.rejected',
      ].every((type) => types.has(type))
        ? true
        : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250, description: 'merchant events of every lifecycle' },
  );

  const values = {
    ...CONFIGURED,
    ...STRAY_CREDENTIALS,
    ...issued,
    ...PERSONAL,
    payloadKey: stack.config.PAYLOAD_ENCRYPTION_KEY ?? '',
  };
  expect(Object.values(values).every((value) => value.length >= 3)).toBe(true);

  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect([...new Set(entries.map((entry) => entry.service))]).toEqual(
    expect.arrayContaining(['engine-api', 'worker', 'sandbox']),
  );
  // The request id of the API call is on the worker's lines for the activities of the payouts it started.
  const activities = entries.filter(
    (entry) => entry.event === 'activity.completed' && entry.workflowId === `payout:${payoutIds[0] ?? ''}`,
  );
  expect(activities.length).toBeGreaterThan(0);
  expect(activities.every((entry) => entry.requestId === requestId && entry.service === 'worker')).toBe(true);
  expect(lines.some((line) => line.includes('"http.request"') && line.includes('/codec/t/[redacted]/decode'))).toBe(
    true,
  );

  const histories = await storedHistories();
  expect(histories.length).toBeGreaterThanOrEqual(12);

  // Every span leaves the process before it is read (the SDK flushes on shutdown): the API's, the client's, the workflows' and the activities'.
  await tracing?.shutdown();
  const spans = collector.spans;
  expect(
    ['POST /v1/payouts', 'RunWorkflow:payoutWorkflow', 'RunActivity:submitWithdrawal', 'POST withdraw'].filter(
      (name) => !spans.some((span) => span.name === name),
    ),
  ).toEqual([]);
  // The provider's 503 is on a span as an exception: what the search below reads.
  expect(
    spans.some(
      (span) =>
        span.name === 'RunActivity:submitWithdrawal' &&
        span.status.code === 2 &&
        span.events.some((event) => event.name === 'exception'),
    ),
  ).toBe(true);

  // What leaked where: each secret found, by place (a span by its name).
  expect({
    logs: secretsIn(lines.join('\n'), values),
    histories: secretsIn(histories.join('\n'), values),
    spans: [
      ...new Set(
        spans.flatMap((span) => secretsIn(span.texts.join('\n'), values).map((name) => `${name} in ${span.name}`)),
      ),
    ],
  }).toEqual({ logs: [], histories: [], spans: [] });

  const files = filesUnder(stack.config.DATA_DIR);
  expect(files.some((file) => file.endsWith('.sqlite'))).toBe(true);
  for (const file of files)
    expect({ file, found: secretsIn(readFileSync(file).toString('latin1'), values) }).toEqual({ file, found: [] });
}, 240_000);
