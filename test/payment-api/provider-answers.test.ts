/**
 * What the engine makes of provider answers whose shapes the spec does not show: error bodies (read for
 * their words, whatever the spelling), endpoint 5's answer (the payment's id wherever it is) and request
 * (sent under the provider's field names), and which failures are a clear refusal, which surely did nothing.
 */
import { loadConfig } from '../../src/config/env';
import {
  AmbiguousOutcomeError,
  AuthenticationError,
  BadResponseError,
  ConflictError,
  ConnectionError,
  errorForStatus,
  InvalidRequestError,
  isClearRefusal,
  NotFoundError,
  providerDidNothing,
  RateLimitedError,
  RouteNotConfiguredError,
} from '../../src/payment-api/errors';
import { MAX_PROVIDER_MESSAGE_LENGTH, readProviderErrorAnswer } from '../../src/payment-api/schemas/errors';
import {
  DEFAULT_PIX_COPY_PASTE_FIELDS,
  formatPixCopyPasteFields,
  pixCopyPasteFieldNamesSchema,
  pixCopyPasteWireBody,
  readPixCopyPasteAnswer,
} from '../../src/payment-api/schemas/pix-copy-paste';

const POST = { method: 'POST', path: '/api/transactions/internal' };

describe("error bodies: the provider's words, whatever it spells them in", () => {
  test('a message alone, without a code, is read', () => {
    expect(
      readProviderErrorAnswer('{"message":"the e-mail must belong to a valid user of the same environment"}'),
    ).toEqual({
      message: 'the e-mail must belong to a valid user of the same environment',
    });
  });

  test('an `error` (text, or an object with a message), a plain-text body and an HTML page are read for their words', () => {
    expect(readProviderErrorAnswer('{"error":"saldo insuficiente","code":4221}')).toEqual({
      message: 'saldo insuficiente',
      code: '4221',
    });
    expect(readProviderErrorAnswer('{"error":{"message":"chave PIX inválida"}}')).toEqual({
      message: 'chave PIX inválida',
    });
    expect(readProviderErrorAnswer('Recipient not found\n')).toEqual({ message: 'Recipient not found' });
    expect(readProviderErrorAnswer('<html><body><h1>404 Not Found</h1>\n<p>nginx</p></body></html>')).toEqual({
      message: '404 Not Found nginx',
    });
    expect(readProviderErrorAnswer('"conta bloqueada"')).toEqual({ message: 'conta bloqueada' });
  });

  test('a message is cut to its bound and rid of control and direction characters; a field that does not read loses nothing else', () => {
    const long = readProviderErrorAnswer(JSON.stringify({ message: `${'x'.repeat(1_000)}` }));
    expect(long.message).toHaveLength(MAX_PROVIDER_MESSAGE_LENGTH);
    expect(
      readProviderErrorAnswer(JSON.stringify({ message: 'line\r\nforged\u202e', code: { odd: true }, issues: 'none' })),
    ).toEqual({ message: 'line forged' });
    expect(readProviderErrorAnswer('')).toEqual({});
    expect(readProviderErrorAnswer('{"status":500}')).toEqual({});
  });

  test("the sandbox's own body still reads whole, its issues with it", () => {
    const body = {
      message: 'Invalid body',
      code: 'VALIDATION_FAILED',
      issues: [{ path: 'amount', message: 'must be positive' }],
    };
    expect(readProviderErrorAnswer(JSON.stringify(body))).toEqual(body);
  });
});

describe('what a failure says about the request', () => {
  const error = (status: number) => errorForStatus(status, { message: 'said' }, POST);

  test("400, 404 and 422 are clear refusals, with the provider's words; 409 is not (the provider holds something under that id)", () => {
    for (const status of [400, 404, 422]) {
      expect({ status, refusal: isClearRefusal(error(status)), message: error(status).message }).toEqual({
        status,
        refusal: true,
        message: 'said',
      });
    }
    expect(error(404)).toBeInstanceOf(NotFoundError);
    expect(isClearRefusal(error(409))).toBe(false);
    expect(error(409)).toBeInstanceOf(ConflictError);
    expect(errorForStatus(422, {}, POST).message).toBe('HTTP 422');
  });

  test('the provider surely did nothing: no connection, no route, 401, 403, 408, 429, 503, another 4xx; a timeout, 500, 502, 504, a 3xx, an unreadable 2xx or a 409 may have moved money', () => {
    const nothing = [
      new ConnectionError('refused', POST),
      new RouteNotConfiguredError('none', POST),
      ...[401, 403, 408, 429, 451, 503].map(error),
    ];
    expect(nothing.map(providerDidNothing)).toEqual(nothing.map(() => true));
    expect(error(401)).toBeInstanceOf(AuthenticationError);
    expect(error(429)).toBeInstanceOf(RateLimitedError);
    const maybe = [
      new AmbiguousOutcomeError('timeout', POST),
      new BadResponseError('unreadable', POST),
      ...[302, 409, 500, 502, 504].map(error),
    ];
    expect(maybe.map(providerDidNothing)).toEqual(maybe.map(() => false));
    expect(isClearRefusal(new InvalidRequestError('refused before it left', { method: 'POST', path: '/x' }))).toBe(
      true,
    );
  });
});

describe('endpoint 5: the answer read wherever it names the payment', () => {
  test("the sandbox's answer: the id at the top level, status, fee and total one level down", () => {
    const answer = {
      message: 'ok',
      transactionId: 'px_1',
      payment: { transaction_id: 'px_1', status: 'PROCESSING', amount: 19.9, fee: '1.10', total: 21 },
    };
    expect(readPixCopyPasteAnswer(answer)).toEqual({
      read: true,
      transactionId: 'px_1',
      status: 'PROCESSING',
      fee: 1.1,
      total: 21,
    });
  });

  test('an id one level down, under any name, spelled either way; numeric ids read as text', () => {
    expect(readPixCopyPasteAnswer({ data: { transaction_id: 981, state: 'x' } })).toEqual({
      read: true,
      transactionId: '981',
    });
    expect(
      readPixCopyPasteAnswer({ result: { ok: true }, pagamento: { transactionId: 'pg-7', status: 'PENDENTE' } }),
    ).toEqual({ read: true, transactionId: 'pg-7', status: 'PENDENTE' });
  });

  test('an answer that names no payment reads as the fields it held, bounded', () => {
    expect(readPixCopyPasteAnswer({ message: 'Payment accepted', data: { status: 'PROCESSING', id: 12 } })).toEqual({
      read: false,
      fields: ['message', 'data', 'data.status', 'data.id'],
    });
    expect(readPixCopyPasteAnswer({ deep: { deeper: { transactionId: 'too-far' } } })).toEqual({
      read: false,
      fields: ['deep', 'deep.deeper'],
    });
    expect(readPixCopyPasteAnswer(null)).toEqual({ read: false, fields: [] });
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`f${index}`, index]));
    expect((readPixCopyPasteAnswer(wide) as { fields: string[] }).fields).toHaveLength(20);
  });
});

describe("endpoint 5: the request under the provider's field names (PIX_COPY_PASTE_REQUEST_FIELDS)", () => {
  const request = {
    qrcode: '000201…',
    external_id: 'order-1',
    amount: 19.9,
    clientCallbackUrl: 'https://engine.example/callbacks/pix-copy-paste',
    description: 'March',
  };

  test("the default is the sandbox's names; the setting renames each part, and one without description sends none", () => {
    expect(loadConfig({}).PIX_COPY_PASTE_REQUEST_FIELDS).toEqual(DEFAULT_PIX_COPY_PASTE_FIELDS);
    expect(pixCopyPasteWireBody(request, DEFAULT_PIX_COPY_PASTE_FIELDS)).toEqual(request);
    const names = loadConfig({
      PIX_COPY_PASTE_REQUEST_FIELDS: 'emv=pixCopiaECola, amount=valor, externalId=idExterno, callbackUrl=urlCallback',
    }).PIX_COPY_PASTE_REQUEST_FIELDS;
    expect(pixCopyPasteWireBody(request, names)).toEqual({
      pixCopiaECola: '000201…',
      valor: 19.9,
      idExterno: 'order-1',
      urlCallback: request.clientCallbackUrl,
    });
    expect(pixCopyPasteFieldNamesSchema.parse(formatPixCopyPasteFields(names))).toEqual(names);
  });

  test('a part missing, unknown or named twice, or a name that is no JSON field name, stops the start naming the setting', () => {
    for (const value of [
      'emv=code,amount=value,externalId=ref',
      'emv=code,amount=value,externalId=ref,callbackUrl=url,payee=x',
      'emv=code,amount=code,externalId=ref,callbackUrl=url',
      'emv=co de,amount=value,externalId=ref,callbackUrl=url',
    ]) {
      expect(() => loadConfig({ PIX_COPY_PASTE_REQUEST_FIELDS: value })).toThrow(/PIX_COPY_PASTE_REQUEST_FIELDS/);
    }
  });
});

test('PAYMENT_API_CRYPTO_WITHDRAW_PATH is a path or nothing: unset by default (the crypto rail off)', () => {
  expect(loadConfig({}).PAYMENT_API_CRYPTO_WITHDRAW_PATH).toBeUndefined();
  expect(
    loadConfig({ PAYMENT_API_CRYPTO_WITHDRAW_PATH: '/api/v2/crypto/withdrawals' }).PAYMENT_API_CRYPTO_WITHDRAW_PATH,
  ).toBe('/api/v2/crypto/withdrawals');
  for (const value of ['api/crypto', 'https://provider.example/api/crypto', '/api/../admin', '/api/crypto?x=1']) {
    expect(() => loadConfig({ PAYMENT_API_CRYPTO_WITHDRAW_PATH: value })).toThrow(/PAYMENT_API_CRYPTO_WITHDRAW_PATH/);
  }
});
