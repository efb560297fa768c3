/**
 * The webhook address rule (src/net/public-address.ts) on literal addresses: what a merchant may make the
 * engine call. Every special-purpose range ipaddr.js knows is refused; an IPv6 form that carries an IPv4
 * address is refused, or judged by the IPv4 address it really reaches. Registration and delivery both
 * use it (test/merchant-events/endpoint-ssrf.test.ts drives it over HTTP).
 */
import ipaddr from 'ipaddr.js';
import { addressRefusal, hostRefusal, isLoopbackHost } from '../../src/net/public-address';

const deployed = { allowLoopback: false };
/** How a refusal names each range (the engine's words, cloud metadata addresses included). */
const RANGE_NAMES: Readonly<Record<string, string>> = {
  private: 'private',
  'carrier-grade NAT': 'carrier-grade NAT (and cloud metadata 100.100.100.200)',
  'link-local': 'link-local (and cloud metadata 169.254.169.254)',
  multicast: 'multicast',
  'unique local': 'unique local (and cloud metadata fd00:ec2::254)',
};

test.each([
  // RFC 8215's local-use translation prefix: whatever the local NAT64 maps it to, 10.0.0.1 or a public address alike.
  ['64:ff9b:1::a00:1', /64:ff9b:1::a00:1 is not a public address \(IPv4\/IPv6 translation, local use/],
  ['64:ff9b:1:ffff::808:808', /is not a public address \(IPv4\/IPv6 translation, local use/],
  // RFC 6145's IPv4-translated addresses (::ffff:0:a.b.c.d), which the hand-written table let through.
  ['::ffff:0:7f00:1', /::ffff:0:7f00:1 is not a public address \(IPv4-translated/],
  ['::ffff:0:a00:1', /is not a public address \(IPv4-translated/],
  ['::ffff:0:808:808', /is not a public address \(IPv4-translated/],
  // IPv4-mapped (::ffff:0:0/96), in both spellings a URL can give.
  ['::ffff:7f00:1', /is an IPv4-mapped address/],
  ['::ffff:169.254.169.254', /is an IPv4-mapped address/],
])('%s is refused', (address, reason) => {
  expect(addressRefusal(address, deployed)).toMatch(reason);
  expect(addressRefusal(address, { allowLoopback: true })).toMatch(reason);
});

test("the ranges are ipaddr.js's: any address it puts in a special range is refused, naming it; its unicast addresses pass", () => {
  const special = [
    '0.1.2.3',
    '10.1.2.3',
    '100.100.100.200',
    '169.254.169.254',
    '172.20.0.5',
    '192.0.0.8',
    '192.0.2.1',
    '192.31.196.1',
    '192.52.193.1',
    '192.88.99.1',
    '192.168.0.10',
    '192.175.48.1',
    '198.18.0.1',
    '198.51.100.1',
    '203.0.113.1',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '100::1',
    '2001::1',
    '2001:2::1',
    '2001:3::1',
    '2001:4:112::1',
    '2001:10::1',
    '2001:20::1',
    '2001:30::1',
    '2001:db8::1',
    '2620:4f:8000::1',
    '3fff::1',
    '5f00::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fec0::1',
    'ff02::1',
  ];
  for (const address of special) {
    const range = ipaddr.parse(address).range();
    expect({ address, range }).toEqual({ address, range: expect.not.stringMatching(/^unicast$/) as unknown });
    expect({ address, refusal: addressRefusal(address, deployed) }).toEqual({
      address,
      refusal: expect.stringMatching(/is not a public address \(.+\)$/) as unknown,
    });
  }
  for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001::200e']) {
    expect(ipaddr.parse(address).range()).toBe('unicast');
    expect({ address, refusal: addressRefusal(address, deployed) }).toEqual({ address, refusal: undefined });
  }
});

test('the forms that carry an IPv4 address are judged by the one they reach: NAT64 (64:ff9b::/96) and 6to4; IPv4-compatible ones are refused', () => {
  expect(addressRefusal('64:ff9b::808:808', deployed)).toBeUndefined();
  expect(addressRefusal('64:ff9b::a9fe:a9fe', deployed)).toMatch(
    /169\.254\.169\.254 is not a public address \(link-local/,
  );
  expect(addressRefusal('64:ff9b::7f00:1', deployed)).toMatch(/127\.0\.0\.1 is a loopback address/);
  expect(addressRefusal('2002:808:808::1', deployed)).toBeUndefined();
  expect(addressRefusal('2002:a00:1::1', deployed)).toMatch(/10\.0\.0\.1 is not a public address \(private\)/);
  expect(addressRefusal('::808:808', deployed)).toMatch(/IPv4-compatible/);
});

test('loopback only where allowed; names of this machine and of metadata services judged without DNS', () => {
  expect(addressRefusal('127.0.0.1', deployed)).toBe('127.0.0.1 is a loopback address');
  expect(addressRefusal('::1', deployed)).toBe('::1 is a loopback address');
  expect(addressRefusal('127.0.0.1', { allowLoopback: true })).toBeUndefined();
  expect(addressRefusal('not-an-address', deployed)).toBe('not-an-address is not an IP address');
  expect(isLoopbackHost('[::1]')).toBe(true);
  expect(isLoopbackHost('api.localhost.')).toBe(true);
  expect(isLoopbackHost('[::ffff:0:7f00:1]')).toBe(false);
  expect(hostRefusal('[64:ff9b:1::a00:1]', deployed)).toMatch(/local use/);
  expect(hostRefusal('Metadata.Google.Internal.', deployed)).toBe(
    'metadata.google.internal is a cloud metadata service',
  );
  expect(hostRefusal('localhost', deployed)).toBe('localhost is this machine (loopback)');
  expect(hostRefusal('merchant.example.com', deployed)).toBeUndefined();
});

test.each([
  // [last public address before a range, its first address, its last, first public after it, the range's words]
  ['9.255.255.255', '10.0.0.0', '10.255.255.255', '11.0.0.0', 'private'],
  ['172.15.255.255', '172.16.0.0', '172.31.255.255', '172.32.0.0', 'private'],
  ['192.167.255.255', '192.168.0.0', '192.168.255.255', '192.169.0.0', 'private'],
  ['100.63.255.255', '100.64.0.0', '100.127.255.255', '100.128.0.0', 'carrier-grade NAT'],
  ['169.253.255.255', '169.254.0.0', '169.254.255.255', '169.255.0.0', 'link-local'],
  ['223.255.255.255', '224.0.0.0', '239.255.255.255', undefined, 'multicast'],
  [
    'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'fc00::',
    'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    undefined,
    'unique local',
  ],
  [
    'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'fe80::',
    'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    undefined,
    'link-local',
  ],
])(
  'the range from %s on: public just outside it, refused from its first address to its last',
  (before, first, last, after, words) => {
    expect({ before, refusal: addressRefusal(before, deployed) }).toEqual({ before, refusal: undefined });
    for (const inside of [first, last])
      expect(addressRefusal(inside, deployed)).toBe(`${inside} is not a public address (${RANGE_NAMES[words]})`);
    if (after !== undefined)
      expect({ after, refusal: addressRefusal(after, deployed) }).toEqual({ after, refusal: undefined });
  },
);

test('all of 127.0.0.0/8 and ::1 are loopback: refused as deployed, allowed only by the setting; a loopback spelled as IPv4-mapped never', () => {
  for (const address of ['127.0.0.0', '127.0.0.1', '127.43.2.1', '127.255.255.255', '::1']) {
    expect(addressRefusal(address, deployed)).toBe(`${address} is a loopback address`);
    expect({ address, refusal: addressRefusal(address, { allowLoopback: true }) }).toEqual({
      address,
      refusal: undefined,
    });
  }
  for (const address of ['126.255.255.255', '128.0.0.0'])
    expect({ address, refusal: addressRefusal(address, deployed) }).toEqual({ address, refusal: undefined });
  expect(addressRefusal('::ffff:127.0.0.1', { allowLoopback: true })).toBe(
    '::ffff:127.0.0.1 is an IPv4-mapped address: use the IPv4 address itself',
  );
  expect(addressRefusal('0.0.0.0', { allowLoopback: true })).toBe('0.0.0.0 is not a public address ("this network")');
  expect(addressRefusal('::', { allowLoopback: true })).toBe(':: is not a public address (unspecified)');
});
