/**
 * The buyer's phone of a card payment as merchants write it: E.164 and the common Brazilian masks are
 * accepted by the sandbox over HTTP and held inside as digits with the country code; anything else is
 * a 422 INVALID_PHONE naming payer.phone (its form is a business rule, not the field's shape).
 */
import { normalizePhone } from '../../../src/validation/phone';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox';

let sb: TestSandbox;
let token: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  token = await sb.login();
});
afterAll(() => sb?.stop());

const nextYear = String(new Date().getUTCFullYear() + 1);
const paymentWithPhone = (phone: string) => ({
  amount: 10,
  installmentCount: 1,
  dueDate: '2030-01-15',
  payer: { name: 'Ana Souza', email: 'ana@example.com', document: '52998224725', phone },
  creditCard: {
    holderName: 'ANA SOUZA',
    number: '4111111111111111',
    expiryMonth: '12',
    expiryYear: nextYear,
    ccv: '123',
  },
});

const ACCEPTED: readonly [string, string][] = [
  ['+5511999999999', '5511999999999'],
  ['+55 (11) 99999-9999', '5511999999999'],
  ['(11) 99999-9999', '5511999999999'],
  ['11 99999-9999', '5511999999999'],
  ['11999999999', '5511999999999'],
  ['(21) 3456-7890', '552134567890'],
  ['5511999999999', '5511999999999'],
  ['+14155552671', '14155552671'],
];
const REFUSED = ['12345', '+55 (01) 99999-9999', '(11) 9999-99999-9', 'call me', '+0 11 99999 9999', '99999-9999'];

test('E.164 and the common Brazilian masks are accepted', async () => {
  for (const [phone] of ACCEPTED) {
    const answer = await sb.call('POST', '/api/v1/card/payments', {
      body: paymentWithPhone(phone),
      auth: { bearer: token },
    });
    expect({ phone, status: answer.status }).toEqual({ phone, status: 200 });
  }
});

test('inside, every accepted form is digits with the country code', () => {
  for (const [phone, normalized] of ACCEPTED) expect(normalizePhone(phone)).toBe(normalized);
});

test('anything else is a 422 naming payer.phone and the accepted forms', async () => {
  for (const phone of REFUSED) {
    const answer = await sb.call<{ code: string; issues: { path: string; message: string }[] }>(
      'POST',
      '/api/v1/card/payments',
      { body: paymentWithPhone(phone), auth: { bearer: token } },
    );
    expect({ phone, status: answer.status, code: answer.body.code }).toEqual({
      phone,
      status: 422,
      code: 'INVALID_PHONE',
    });
    expect(answer.body.issues).toEqual([{ path: 'payer.phone', message: expect.stringContaining('E.164') }]);
  }
  // No phone at all is a request of the wrong shape: 400, as the document says.
  const empty = await sb.call<{ code: string }>('POST', '/api/v1/card/payments', {
    body: paymentWithPhone(''),
    auth: { bearer: token },
  });
  expect([empty.status, empty.body.code]).toEqual([400, 'VALIDATION_FAILED']);
});
