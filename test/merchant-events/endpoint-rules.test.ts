/**
 * What a merchant is told when registering a webhook endpoint (src/merchant-events/endpoint-request.ts): the shape
 * (400) and the rules of the engine's configuration (422, urlRefusal in endpoint-transport.ts), each problem named
 * as the API shows it. test/merchant-events/endpoint-ssrf.test.ts runs the same rules through the API.
 */
import { endpointRequestSchema, endpointRuleProblems } from '../../src/merchant-events/endpoint-request';
import { endpointPolicy, type EndpointPolicy } from '../../src/merchant-events/endpoint-transport';
import { MERCHANT_EVENT_TYPES } from '../../src/merchant-events/merchant-event';

const deployed: EndpointPolicy = { production: false, allowLoopback: false };
const production: EndpointPolicy = { production: true, allowLoopback: false };
const localReceivers: EndpointPolicy = { production: false, allowLoopback: true };

const problemsOf = (url: string, policy: EndpointPolicy) =>
  endpointRuleProblems({ url, events: ['charge.paid'], signatureScheme: 'standard-webhooks' }, policy);
const refusal = (message: string) => [{ path: 'url', message }];

test('the policy is the configuration: production only under NODE_ENV=production, loopback only when allowed', () => {
  expect(endpointPolicy({ NODE_ENV: 'production', WEBHOOK_ALLOW_LOOPBACK: false })).toEqual(production);
  expect(endpointPolicy({ NODE_ENV: 'development', WEBHOOK_ALLOW_LOOPBACK: true })).toEqual(localReceivers);
  expect(endpointPolicy({ NODE_ENV: 'test', WEBHOOK_ALLOW_LOOPBACK: false })).toEqual(deployed);
});

/** Each URL's problems under the policy, the URL beside them so that a failure names the URL. */
const expectProblems = (policy: EndpointPolicy, cases: readonly (readonly [url: string, messages: string[]])[]) => {
  for (const [url, messages] of cases)
    expect({ url, problems: problemsOf(url, policy) }).toEqual({ url, problems: messages.flatMap(refusal) });
};

test('outside production a public host is accepted on 443 or 80, written or implied by the scheme, and on no other port', () =>
  expectProblems(deployed, [
    ['https://merchant.example.com/hooks', []],
    ['http://merchant.example.com/hooks', []],
    ['https://merchant.example.com:80/hooks', []],
    ['http://merchant.example.com:443/hooks', []],
    ['https://merchant.example.com:8443/hooks', ['port 8443: only 443 or 80']],
    ['http://merchant.example.com:8080/', ['port 8080: only 443 or 80']],
  ]));

test('in production only https on 443 is accepted', () =>
  expectProblems(production, [
    ['https://merchant.example.com/hooks', []],
    ['https://merchant.example.com:443/hooks', []],
    ['http://merchant.example.com/hooks', ['must be https when NODE_ENV=production']],
    ['https://merchant.example.com:80/hooks', ['port 80: only 443']],
  ]));

test('a loopback receiver, where allowed, is accepted on any port; a public host is not, and loopback is refused as deployed', () => {
  expectProblems(localReceivers, [
    ['http://127.0.0.1:8080/hooks', []],
    ['http://localhost:3000/hooks', []],
    ['https://merchant.example.com:8443/hooks', ['port 8443: only 443 or 80']],
    ['http://10.0.0.1/hooks', ['host: 10.0.0.1 is not a public address (private)']],
  ]);
  expectProblems(deployed, [['http://127.0.0.1:8080/hooks', ['host: 127.0.0.1 is a loopback address']]]);
});

test('a user name, a password or a fragment in the URL is refused, each named, beside any other rule broken', () => {
  const credentials = 'must not carry a user name or password: the signature authenticates the engine';
  expect(problemsOf('https://merchant@merchant.example.com/hooks', deployed)).toEqual(refusal(credentials));
  expect(problemsOf('https://:hunter2@merchant.example.com/hooks', deployed)).toEqual(refusal(credentials));
  expect(problemsOf('https://merchant.example.com/hooks#top', deployed)).toEqual(refusal('must not have a #fragment'));
  expect(problemsOf('http://user:pw@merchant.example.com:8080/#x', deployed)).toEqual([
    { path: 'url', message: credentials },
    { path: 'url', message: 'must not have a #fragment' },
    { path: 'url', message: 'port 8080: only 443 or 80' },
  ]);
});

describe('the request shape', () => {
  const parse = (body: unknown) => endpointRequestSchema.safeParse(body);

  test('a new endpoint signs as Standard Webhooks unless legacy is asked for', () => {
    expect(parse({ url: 'https://merchant.example.com/hooks', events: ['charge.paid'] })).toEqual({
      success: true,
      data: {
        url: 'https://merchant.example.com/hooks',
        events: ['charge.paid'],
        signatureScheme: 'standard-webhooks',
      },
    });
    expect(
      parse({ url: 'https://merchant.example.com/hooks', events: ['charge.paid'], signatureScheme: 'legacy' }).data
        ?.signatureScheme,
    ).toBe('legacy');
    expect(
      parse({ url: 'https://merchant.example.com/hooks', events: ['charge.paid'], signatureScheme: 'hmac' }).success,
    ).toBe(false);
  });

  test('the URL is http or https and at most 2,048 characters; the events are known, at least one, at most one of each type', () => {
    const events = ['charge.paid'];
    const longest = `https://merchant.example.com/${'a'.repeat(2_048 - 'https://merchant.example.com/'.length)}`;
    expect(parse({ url: longest, events }).success).toBe(true);
    expect(parse({ url: `${longest}a`, events }).success).toBe(false);
    expect(parse({ url: 'http://merchant.example.com/hooks', events }).success).toBe(true);
    for (const url of [
      'ftp://merchant.example.com/hooks',
      'javascript:alert(1)',
      'merchant.example.com/hooks',
      'httpx://merchant.example.com/hooks',
      'xhttps://merchant.example.com/hooks',
    ])
      expect({ url, success: parse({ url, events }).success }).toEqual({ url, success: false });
    const url = 'https://merchant.example.com/hooks';
    expect(parse({ url, events: [] }).success).toBe(false);
    expect(parse({ url, events: ['charge.settled'] }).success).toBe(false);
    expect(parse({ url, events: [...MERCHANT_EVENT_TYPES] }).success).toBe(true);
    expect(parse({ url, events: [...MERCHANT_EVENT_TYPES, 'charge.paid'] }).success).toBe(false);
  });

  test('the document tells a merchant how each scheme is verified, and that legacy is deprecated', () => {
    const told = endpointRequestSchema.shape.signatureScheme.description ?? '';
    expect(told).toContain('standard-webhooks: webhook-id, webhook-timestamp, webhook-signature');
    expect(told).toContain('any Standard Webhooks library');
    expect(told).toContain('legacy (deprecated)');
  });

  test('a field the API does not know is refused, not ignored', () => {
    expect(parse({ url: 'https://merchant.example.com/hooks', events: ['charge.paid'], secret: 'mine' }).success).toBe(
      false,
    );
  });
});
