/**
 * The security module's endpoints over HTTP (the browser flow itself is test/sandbox/shield-browser.test.ts):
 * key and settings, CORS, 3DS sessions and their challenge, endpoint 2's checks of the 3DS data, and
 * the key and sessions surviving a restart.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_CARDS } from '../../../sandbox/products/card-payments';
import type { Answer, RefusalBody } from '../../helpers/sandbox';
import { answerChallenge, cardToken, creditCardOf, environmentKey, openSession, testCard } from '../shield-helpers';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox';

const CHALLENGE_TIMEOUT_MS = 60_000;

interface Body extends RefusalBody {
  data: { id: number; status: string };
  [field: string]: unknown;
}

let sb: TestSandbox;
let token: string;
beforeAll(async () => {
  sb = await startTestSandbox({ overrides: { SANDBOX_SHIELD_CHALLENGE_TIMEOUT_MS: String(CHALLENGE_TIMEOUT_MS) } });
  token = await sb.login();
});
afterAll(async () => {
  await sb?.stop();
});

const paymentBody = (
  amount: number,
  card: ReturnType<typeof testCard>,
  extra: Record<string, unknown> = {},
  cardExtra: Record<string, unknown> = {},
) => ({
  amount,
  installmentCount: 1,
  dueDate: '2030-01-15',
  payer: { name: 'Ana Souza', email: 'ana@example.com', document: '52998224725', phone: '11987654321' },
  creditCard: { ...creditCardOf(card), ...cardExtra },
  ...extra,
});
const pay = (body: unknown): Promise<Answer<Body>> =>
  sb.call<Body>('POST', '/api/v1/card/payments', { body, auth: { bearer: token } });
const refusal = (answer: Answer<Body>) => ({
  status: answer.status,
  code: answer.body.code,
  paths: answer.body.issues?.map((issue) => issue.path),
});
const sessionStatus = async (sessionId: string) =>
  (await sb.call<{ status: string }>('GET', `/shield/sessions/${sessionId}`)).body.status;

describe('key and settings', () => {
  test('the public key is a PEM that never changes; the settings answer for it, to any origin', async () => {
    const publicKey = await environmentKey(sb);
    expect(publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(await environmentKey(sb)).toBe(publicKey);

    const response = await fetch(`${sb.url}/shield/settings?publicKey=${encodeURIComponent(publicKey)}`, {
      headers: { origin: 'https://shop.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      environment: 'sandbox',
      moduleName: 'SandboxShield',
      threeDS: { enabled: true, version: '2.2.0', challengeTimeoutMs: CHALLENGE_TIMEOUT_MS },
      currencies: { BRL: 2, USD: 2, EUR: 2, JPY: 0 },
    });
  });

  test('an unknown key is 404 naming publicKey, a missing one 400; the script is served as JavaScript', async () => {
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const unknown = await sb.call<Body>('GET', `/shield/settings?publicKey=${encodeURIComponent(otherKey)}`);
    expect(refusal(unknown)).toEqual({ status: 404, code: 'NOT_FOUND', paths: ['publicKey'] });
    expect(refusal(await sb.call<Body>('GET', '/shield/settings'))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      paths: ['publicKey'],
    });

    const script = await fetch(`${sb.url}/shield/shield.js`);
    expect(script.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(await script.text()).toContain('ShieldHelper');
  });

  test('GET /openapi.json documents the JSON endpoints of the module, without credentials', async () => {
    const { paths } = (
      await sb.call<{ paths: Record<string, Record<string, { security?: unknown[] }>> }>('GET', '/openapi.json')
    ).body;
    const shield = Object.entries(paths)
      .filter(([route]) => route.startsWith('/shield/'))
      .flatMap(([route, operations]) =>
        Object.entries(operations).map(
          ([method, operation]) => `${method} ${route}${operation.security?.length ? ' (secured)' : ''}`,
        ),
      );
    expect(shield.sort()).toEqual([
      'get /shield/public-key',
      'get /shield/sessions/{sessionId}',
      'get /shield/settings',
      'post /shield/sessions',
    ]);
  });

  test('a preflight from any origin may POST JSON', async () => {
    const preflight = await fetch(`${sb.url}/shield/sessions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });
});

describe('opening a 3DS session', () => {
  test('an ordinary card is authenticated at once; the challenge card waits for its buyer', async () => {
    const frictionless = await openSession(sb, { card: testCard('5555555555554444'), amount: 1010, installments: 2 });
    expect(frictionless.status).toBe(200);
    expect(frictionless.body).toEqual({
      sessionId: expect.stringMatching(/^3ds_[0-9a-f]{32}$/),
      status: 'AUTHENTICATED',
      threeDS: {
        cavv: expect.any(String),
        xid: expect.any(String),
        eci: '02',
        version: '2.2.0',
        referenceId: expect.any(String),
      },
    });
    const challenge = await openSession(sb, { card: testCard(TEST_CARDS.challenge), amount: 1010 });
    expect(challenge.body).toEqual({
      sessionId: expect.any(String),
      status: 'CHALLENGE_REQUIRED',
      challengeTimeoutMs: expect.any(Number),
    });
    // The time left to answer, counted from the sandbox's clock a moment after the session opened.
    expect(challenge.body.challengeTimeoutMs).toBeLessThanOrEqual(CHALLENGE_TIMEOUT_MS);
    expect(challenge.body.challengeTimeoutMs).toBeGreaterThan(CHALLENGE_TIMEOUT_MS - 5_000);
    expect(await sessionStatus(challenge.body.sessionId)).toBe('CHALLENGE_REQUIRED');
  });

  test('a token of another key, a card failing Luhn, a fraction of a cent and an unknown currency are refused', async () => {
    const publicKey = await environmentKey(sb);
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const body = (overrides: Record<string, unknown>) => ({
      publicKey,
      amount: 1000,
      installments: 1,
      currency: 'BRL',
      cardToken: cardToken(publicKey, testCard('4111111111111111')),
      ...overrides,
    });
    const answers = await Promise.all([
      sb.call<Body>('POST', '/shield/sessions', {
        body: body({ cardToken: cardToken(otherKey, testCard('4111111111111111')) }),
      }),
      sb.call<Body>('POST', '/shield/sessions', {
        body: body({ cardToken: cardToken(publicKey, testCard('4111111111111112')) }),
      }),
      sb.call<Body>('POST', '/shield/sessions', { body: body({ amount: 10.1 }) }),
      sb.call<Body>('POST', '/shield/sessions', { body: body({ currency: 'GBP' }) }),
    ]);
    expect(answers.map(refusal)).toEqual([
      { status: 422, code: 'INVALID_CARD_TOKEN', paths: ['cardToken'] },
      { status: 422, code: 'CARD_REFUSED', paths: ['cardToken'] },
      { status: 400, code: 'VALIDATION_FAILED', paths: ['amount'] },
      { status: 400, code: 'VALIDATION_FAILED', paths: ['currency'] },
    ]);
  });
});

describe('endpoint 2 checks the 3DS data', () => {
  test('a frictionless result pays once: a tampered field, a missing half or another installment count are refused first', async () => {
    const card = testCard(TEST_CARDS.frictionless);
    const session = (await openSession(sb, { card, amount: 2500, installments: 3 })).body;
    const threeDS = session.threeDS!;
    const creditCardToken = cardToken(await environmentKey(sb), card);
    const body = (cardExtra: Record<string, unknown>, installmentCount = 3) =>
      paymentBody(25, card, { installmentCount, creditCardToken }, cardExtra);

    const refused = await Promise.all([
      pay(body({ sessionId: session.sessionId, threeDS: { ...threeDS, cavv: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' } })),
      pay(body({ sessionId: session.sessionId })),
      pay(body({ threeDS })),
      pay(body({ sessionId: session.sessionId, threeDS }, 2)),
      pay(body({ sessionId: '3ds_00000000000000000000000000000000', threeDS })),
    ]);
    expect(refused.map(refusal)).toEqual([
      { status: 422, code: 'THREE_DS_INVALID', paths: ['creditCard.threeDS.cavv'] },
      { status: 422, code: 'THREE_DS_INVALID', paths: ['creditCard.threeDS'] },
      { status: 422, code: 'THREE_DS_INVALID', paths: ['creditCard.sessionId'] },
      { status: 422, code: 'THREE_DS_INVALID', paths: ['installmentCount'] },
      { status: 422, code: 'THREE_DS_INVALID', paths: ['creditCard.sessionId'] },
    ]);

    const paid = await pay(body({ sessionId: session.sessionId, threeDS }));
    expect(paid.status).toBe(200);
    expect(paid.body.data.status).toBe('PENDING');
    expect(await sessionStatus(session.sessionId)).toBe('USED');
    const operation = (
      await sb.admin<{ operations: { details: Record<string, unknown> }[] }>(
        'GET',
        '/sandbox/operations?product=card-payment',
      )
    ).body.operations.find((candidate) => candidate.details.paymentId === paid.body.data.id);
    expect(operation?.details).toMatchObject({ sessionId: session.sessionId, threeDS, cardTokenVerified: true });
    expect(JSON.stringify(operation)).not.toContain(creditCardToken);
  });

  test('a challenge pays only once approved: unanswered and denied sessions are refused with the reason', async () => {
    const card = testCard(TEST_CARDS.challenge);
    const open = (await openSession(sb, { card, amount: 4200 })).body;
    const anyThreeDS = { cavv: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=', eci: '05', version: '2.2.0' };
    const unanswered = await pay(paymentBody(42, card, {}, { sessionId: open.sessionId, threeDS: anyThreeDS }));
    expect(refusal(unanswered)).toEqual({ status: 422, code: 'THREE_DS_INVALID', paths: ['creditCard.sessionId'] });
    expect(unanswered.body.issues[0]?.message).toMatch(/challenge was not answered/);

    const denied = (await openSession(sb, { card, amount: 4200 })).body;
    expect((await answerChallenge(sb, denied.sessionId, 'deny')).status).toBe(200);
    expect(await sessionStatus(denied.sessionId)).toBe('DENIED');
    const afterDeny = await pay(paymentBody(42, card, {}, { sessionId: denied.sessionId, threeDS: anyThreeDS }));
    expect(afterDeny.body.issues[0]?.message).toMatch(/denied its challenge/);
    // An answered challenge takes no second answer.
    expect((await answerChallenge(sb, denied.sessionId, 'approve')).status).toBe(409);

    expect((await answerChallenge(sb, open.sessionId, 'approve')).status).toBe(200);
    const approved = (
      await sb.call<{ status: string; threeDS: Record<string, string> }>('GET', `/shield/sessions/${open.sessionId}`)
    ).body;
    expect(approved).toMatchObject({ status: 'AUTHENTICATED', threeDS: { eci: '05', version: '2.2.0' } });
    const paid = await pay(paymentBody(42, card, {}, { sessionId: open.sessionId, threeDS: approved.threeDS }));
    expect(paid.status).toBe(200);
  });

  test('a challenge not answered in time is abandoned: EXPIRED, and an answer after it is refused', async () => {
    const session = (await openSession(sb, { card: testCard(TEST_CARDS.challenge), amount: 100 })).body;
    sb.advanceClock(CHALLENGE_TIMEOUT_MS);
    expect(await sessionStatus(session.sessionId)).toBe('EXPIRED');
    const late = await answerChallenge(sb, session.sessionId, 'approve');
    expect(late.status).toBe(409);
    expect(late.html).toContain('no longer open');
    expect(await sessionStatus(session.sessionId)).toBe('EXPIRED');
  });
});

describe('test cards at endpoint 2', () => {
  test('insufficient funds is refused at once; declined is accepted and fails at settlement', async () => {
    const insufficient = await pay(paymentBody(10, testCard(TEST_CARDS.insufficientFunds)));
    expect(refusal(insufficient)).toEqual({ status: 422, code: 'CARD_REFUSED', paths: ['creditCard.number'] });
    expect(insufficient.body.issues[0]?.message).toMatch(/insufficient funds/);

    const declined = await pay(paymentBody(10, testCard(TEST_CARDS.declined)));
    expect(declined.status).toBe(200);
    sb.advanceClock(60_000);
    const settled = await sb.call<Body>('GET', `/api/v1/card/payments/${declined.body.data.id}`, {
      auth: { bearer: token },
    });
    expect(settled.body.data).toMatchObject({ status: 'FAILED', providerStatus: 'DECLINED' });
  });

  test('JPY has no decimals: a session of 1500 yen pays 1500, and 1500.50 yen is refused', async () => {
    const card = testCard('4111111111111111');
    const session = (await openSession(sb, { card, amount: 1500, currency: 'JPY' })).body;
    const paid = await pay(
      paymentBody(1500, card, {}, { currency: 'JPY', sessionId: session.sessionId, threeDS: session.threeDS }),
    );
    expect(paid.status).toBe(200);
    expect(refusal(await pay(paymentBody(1500.5, card, {}, { currency: 'JPY' })))).toEqual({
      status: 422,
      code: 'INVALID_AMOUNT',
      paths: ['amount'],
    });
  });
});

describe('the 3DS of the module (SANDBOX_SHIELD_THREE_DS)', () => {
  const sessionBody = async (other: TestSandbox, card?: ReturnType<typeof testCard>) => {
    const publicKey = await environmentKey(other);
    return {
      publicKey,
      amount: 1000,
      installments: 1,
      currency: 'BRL',
      ...(card ? { cardToken: cardToken(publicKey, card) } : {}),
    };
  };
  const settingsOf = async (other: TestSandbox) =>
    (
      await other.call<{ threeDS: { enabled: boolean } }>(
        'GET',
        `/shield/settings?publicKey=${encodeURIComponent(await environmentKey(other))}`,
      )
    ).body.threeDS.enabled;

  test('card-token (the default): a session without the card token is refused, naming it', async () => {
    expect(refusal(await sb.call<Body>('POST', '/shield/sessions', { body: await sessionBody(sb) }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      paths: ['cardToken'],
    });
    expect(await settingsOf(sb)).toBe(true);
  });

  test("spec: prepareThreeDS takes the spec's arguments only; its card-less session is frictionless and fits the card that pays", async () => {
    const spec = await startTestSandbox({ overrides: { SANDBOX_SHIELD_THREE_DS: 'spec' } });
    try {
      const card = testCard(TEST_CARDS.challenge);
      expect(
        refusal(await spec.call<Body>('POST', '/shield/sessions', { body: await sessionBody(spec, card) })),
      ).toEqual({ status: 400, code: 'VALIDATION_FAILED', paths: ['cardToken'] });
      const session = await spec.call<{ sessionId: string; status: string; threeDS: Record<string, string> }>(
        'POST',
        '/shield/sessions',
        { body: await sessionBody(spec) },
      );
      expect(session.body).toMatchObject({ status: 'AUTHENTICATED', threeDS: { eci: '05' } });
      expect(await settingsOf(spec)).toBe(true);
      const paid = await spec.call<Body>('POST', '/api/v1/card/payments', {
        body: paymentBody(
          10,
          card,
          { creditCardToken: cardToken(await environmentKey(spec), card) },
          { sessionId: session.body.sessionId, threeDS: session.body.threeDS },
        ),
        auth: { bearer: await spec.login() },
      });
      expect([paid.status, paid.body.data.status]).toEqual([200, 'PENDING']);
    } finally {
      await spec.stop();
    }
  });

  test('off: the settings say 3DS is not enabled, and the card the issuer would challenge is charged without 3DS data', async () => {
    const off = await startTestSandbox({ overrides: { SANDBOX_SHIELD_THREE_DS: 'off' } });
    try {
      expect(await settingsOf(off)).toBe(false);
      const card = testCard(TEST_CARDS.challenge);
      const paid = await off.call<Body>('POST', '/api/v1/card/payments', {
        body: paymentBody(10, card, { creditCardToken: cardToken(await environmentKey(off), card) }),
        auth: { bearer: await off.login() },
      });
      expect([paid.status, paid.body.data.status]).toEqual([200, 'PENDING']);
      // The same card in the default environment: its issuer demands 3DS.
      expect(refusal(await pay(paymentBody(10, card)))).toEqual({
        status: 422,
        code: 'THREE_DS_REQUIRED',
        paths: ['creditCard.threeDS'],
      });
    } finally {
      await off.stop();
    }
  });
});

describe('allowed origins (SANDBOX_SHIELD_ORIGINS)', () => {
  test('only a listed origin gets CORS and may frame the challenge', async () => {
    const shop = 'https://shop.example';
    const limited = await startTestSandbox({ overrides: { SANDBOX_SHIELD_ORIGINS: shop } });
    try {
      const fromShop = await fetch(`${limited.url}/shield/public-key`, { headers: { origin: shop } });
      expect(fromShop.headers.get('access-control-allow-origin')).toBe(shop);
      const fromElsewhere = await fetch(`${limited.url}/shield/public-key`, {
        headers: { origin: 'https://evil.example' },
      });
      expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();

      const session = (await openSession(limited, { card: testCard(TEST_CARDS.challenge), amount: 100 })).body;
      const page = await fetch(
        `${limited.url}/shield/challenge/${session.sessionId}?parentOrigin=${encodeURIComponent(shop)}`,
      );
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe(`frame-ancestors ${shop}`);
      const elsewhere = await fetch(
        `${limited.url}/shield/challenge/${session.sessionId}?parentOrigin=${encodeURIComponent('https://evil.example')}`,
      );
      expect(elsewhere.status).toBe(400);
    } finally {
      await limited.stop();
    }
  });
});

test('a challenge belongs to the page that opened its session: framed by that origin only, and its answer posted to it alone', async () => {
  const shop = 'http://shop.example:8080';
  const session = (await openSession(sb, { card: testCard(TEST_CARDS.challenge), amount: 100, origin: shop })).body;
  const challenge = (parentOrigin: string) =>
    fetch(`${sb.url}/shield/challenge/${session.sessionId}?parentOrigin=${encodeURIComponent(parentOrigin)}`);

  const page = await challenge(shop);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toBe(`frame-ancestors ${shop}`);
  // Another page naming itself gets neither the page nor, after an answer, the message.
  const elsewhere = await challenge('https://evil.example');
  expect(elsewhere.status).toBe(400);
  expect(await elsewhere.json()).toMatchObject({
    issues: [{ path: 'parentOrigin', message: 'is not the origin of the page that opened this 3DS session' }],
  });
  const forged = await fetch(`${sb.url}/shield/challenge/${session.sessionId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=approve&parentOrigin=${encodeURIComponent('https://evil.example')}`,
  });
  expect(forged.status).toBe(400);
  expect(await sessionStatus(session.sessionId)).toBe('CHALLENGE_REQUIRED');

  const answered = await fetch(`${sb.url}/shield/challenge/${session.sessionId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=approve&parentOrigin=${encodeURIComponent(shop)}`,
  });
  expect(answered.status).toBe(200);
  expect(answered.headers.get('content-security-policy')).toBe(`frame-ancestors ${shop}`);
  expect(await answered.text()).toContain(
    `window.parent.postMessage({"type":"shield:challenge-complete","sessionId":"${session.sessionId}"}, "${shop}")`,
  );
});

test('the key pair and the sessions survive a restart', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-shield-'));
  const dbPath = path.join(dir, 'sandbox.sqlite');
  try {
    let first: TestSandbox | undefined = await startTestSandbox({ dbPath });
    const publicKey = await environmentKey(first);
    const card = testCard('4111111111111111');
    const session = (await openSession(first, { card, amount: 990 })).body;
    await first.stop();
    first = undefined;

    const second = await startTestSandbox({ dbPath });
    try {
      expect(await environmentKey(second)).toBe(publicKey);
      const bearer = await second.login();
      const paid = await second.call<Body>('POST', '/api/v1/card/payments', {
        auth: { bearer },
        body: paymentBody(
          9.9,
          card,
          { creditCardToken: cardToken(publicKey, card) },
          { sessionId: session.sessionId, threeDS: session.threeDS },
        ),
      });
      expect(paid.status).toBe(200);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
