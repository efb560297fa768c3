/**
 * Which addresses the engine may call on a merchant's behalf: public ones only. A merchant's webhook
 * URL is chosen by whoever holds an API key, and its delivery outcomes come back through the API, so
 * without this rule the engine would scan its own network for them (the sandbox, Temporal's HTTP API,
 * a cloud's metadata service at 169.254.169.254). Loopback may be allowed outside production (local
 * receivers in tests and `npm start`); private, link-local, metadata and the other special ranges never.
 */
import { BlockList, isIP } from 'node:net';

export interface AddressPolicy {
  /** Loopback receivers (127.0.0.0/8, ::1, localhost): WEBHOOK_ALLOW_LOOPBACK, never in production. */
  allowLoopback: boolean;
}

interface Range {
  address: string;
  prefix: number;
  /** What the range is, as the refusal names it. */
  name: string;
}

const LOOPBACK_V4: Range = { address: '127.0.0.0', prefix: 8, name: 'loopback' };
const LOOPBACK_V6: Range = { address: '::1', prefix: 128, name: 'loopback' };

/** IANA's special-purpose IPv4 ranges that are not the public internet. */
const SPECIAL_V4: readonly Range[] = [
  { address: '0.0.0.0', prefix: 8, name: '"this network"' },
  { address: '10.0.0.0', prefix: 8, name: 'private' },
  { address: '100.64.0.0', prefix: 10, name: 'carrier-grade NAT (and cloud metadata 100.100.100.200)' },
  { address: '169.254.0.0', prefix: 16, name: 'link-local (and cloud metadata 169.254.169.254)' },
  { address: '172.16.0.0', prefix: 12, name: 'private' },
  { address: '192.0.0.0', prefix: 24, name: 'IETF protocol assignments' },
  { address: '192.0.2.0', prefix: 24, name: 'documentation' },
  { address: '192.88.99.0', prefix: 24, name: '6to4 relay' },
  { address: '192.168.0.0', prefix: 16, name: 'private' },
  { address: '198.18.0.0', prefix: 15, name: 'benchmarking' },
  { address: '198.51.100.0', prefix: 24, name: 'documentation' },
  { address: '203.0.113.0', prefix: 24, name: 'documentation' },
  { address: '224.0.0.0', prefix: 4, name: 'multicast' },
  { address: '240.0.0.0', prefix: 4, name: 'reserved (and broadcast)' },
];

/** The same for IPv6; IPv4-mapped, NAT64 and 6to4 addresses are read in `ipv6Refusal`. */
const SPECIAL_V6: readonly Range[] = [
  { address: '::', prefix: 128, name: 'unspecified' },
  { address: '::', prefix: 96, name: 'IPv4-compatible (deprecated)' },
  { address: '100::', prefix: 64, name: 'discard' },
  { address: '2001::', prefix: 32, name: 'Teredo' },
  { address: '2001:db8::', prefix: 32, name: 'documentation' },
  { address: 'fc00::', prefix: 7, name: 'unique local (and cloud metadata fd00:ec2::254)' },
  { address: 'fe80::', prefix: 10, name: 'link-local' },
  { address: 'fec0::', prefix: 10, name: 'site-local (deprecated)' },
  { address: 'ff00::', prefix: 8, name: 'multicast' },
];

/** Host names that always mean this machine or a cloud's metadata service, whatever DNS says. */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

function listOf(range: Range, family: 'ipv4' | 'ipv6'): { list: BlockList; range: Range } {
  const list = new BlockList();
  list.addSubnet(range.address, range.prefix, family);
  return { list, range };
}

const v4Lists = [LOOPBACK_V4, ...SPECIAL_V4].map((range) => listOf(range, 'ipv4'));
const v6Lists = [LOOPBACK_V6, ...SPECIAL_V6].map((range) => listOf(range, 'ipv6'));
const loopbackV4 = listOf(LOOPBACK_V4, 'ipv4').list;
const loopbackV6 = listOf(LOOPBACK_V6, 'ipv6').list;

function refusal(range: Range, address: string, policy: AddressPolicy): string | undefined {
  if (range === LOOPBACK_V4 || range === LOOPBACK_V6) return policy.allowLoopback ? undefined : `${address} is a loopback address`;
  return `${address} is not a public address (${range.name}: ${range.address}/${range.prefix})`;
}

/** The 16 bytes of an IPv6 address in text (`::` and a dotted IPv4 tail understood); undefined if it is not one. */
export function ipv6Bytes(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.split('%')[0] ?? '';
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

const dottedFrom = (bytes: number[]): string => bytes.join('.');

function ipv6Refusal(address: string, policy: AddressPolicy): string | undefined {
  const bytes = ipv6Bytes(address);
  if (!bytes) return `${address} is not an IP address`;
  const first80Zero = bytes.slice(0, 10).every((byte) => byte === 0);
  if (first80Zero && bytes[10] === 0xff && bytes[11] === 0xff) return `${address} is an IPv4-mapped address: use the IPv4 address itself`;
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address: the one really reached.
  const nat64 = bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && bytes.slice(4, 12).every((byte) => byte === 0);
  if (nat64) return addressRefusal(dottedFrom(bytes.slice(12)), policy);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return addressRefusal(dottedFrom(bytes.slice(2, 6)), policy);
  for (const { list, range } of v6Lists) if (list.check(address, 'ipv6')) return refusal(range, address, policy);
  return undefined;
}

/** Why the engine must not connect to this IP address, or undefined when it is public (or allowed loopback). */
export function addressRefusal(address: string, policy: AddressPolicy): string | undefined {
  const family = isIP(address);
  if (family === 6) return ipv6Refusal(address, policy);
  if (family !== 4) return `${address} is not an IP address`;
  for (const { list, range } of v4Lists) if (list.check(address, 'ipv4')) return refusal(range, address, policy);
  return undefined;
}

/** A URL's host name as an IP address when it is one (brackets of IPv6 removed), else undefined. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}

/** Whether the host is this machine by definition: a loopback literal or `localhost` (RFC 6761). */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const literal = ipLiteral(name);
  if (literal === undefined) return false;
  return isIP(literal) === 4 ? loopbackV4.check(literal, 'ipv4') : loopbackV6.check(literal, 'ipv6');
}

/**
 * Why a URL's host may not be called, judged without DNS (names are judged at connection time, on
 * what they resolve to): a literal address outside the public ranges, a metadata service's name, or
 * localhost when loopback is not allowed.
 */
export function hostRefusal(hostname: string, policy: AddressPolicy): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const literal = ipLiteral(name);
  if (literal !== undefined) return addressRefusal(literal, policy);
  if (METADATA_NAMES.has(name)) return `${name} is a cloud metadata service`;
  if (isLoopbackHost(name) && !policy.allowLoopback) return `${name} is this machine (loopback)`;
  return undefined;
}
