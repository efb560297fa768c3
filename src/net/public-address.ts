/**
 * Which addresses the engine may call on a merchant's behalf: public ones only. A merchant's webhook
 * URL is chosen by whoever holds an API key, and its delivery outcomes come back through the API, so
 * without this rule the engine would scan its own network for them (the sandbox, Temporal's HTTP API,
 * a cloud's metadata service at 169.254.169.254). Loopback may be allowed outside production (local
 * receivers in tests and `npm start`); private, link-local, metadata and the other special ranges never.
 *
 * The special ranges are ipaddr.js's (`range()`, IANA's special-purpose registries, kept up to date
 * there): an address is public when it names none of them.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** Loopback receivers (127.0.0.0/8, ::1, localhost): WEBHOOK_ALLOW_LOOPBACK, never in production. */
  allowLoopback: boolean;
}

/** How a refusal names a range; the others by ipaddr.js's own name. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  private: 'private',
  carrierGradeNat: 'carrier-grade NAT (and cloud metadata 100.100.100.200)',
  linkLocal: 'link-local (and cloud metadata 169.254.169.254)',
  uniqueLocal: 'unique local (and cloud metadata fd00:ec2::254)',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'reserved for documentation or special use',
  benchmarking: 'benchmarking',
  deprecatedSiteLocal: 'site-local (deprecated)',
  discard: 'discard',
  teredo: 'Teredo',
  rfc6052: 'IPv4/IPv6 translation, local use (RFC 8215)',
  rfc6145: 'IPv4-translated (RFC 6145)',
};

/** The well-known NAT64 prefix (RFC 6052): its addresses reach the IPv4 address in their last 32 bits. */
const WELL_KNOWN_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** Host names that always mean this machine or a cloud's metadata service, whatever DNS says. */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

const notPublic = (text: string, words: string): string => `${text} is not a public address (${words})`;
const loopbackRefusal = (text: string, policy: AddressPolicy): string | undefined =>
  policy.allowLoopback ? undefined : `${text} is a loopback address`;
const embeddedIpv4 = (bytes: number[]): string => ipaddr.fromByteArray(bytes).toString();

function ipv4Refusal(address: ipaddr.IPv4, text: string, policy: AddressPolicy): string | undefined {
  const range = address.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback') return loopbackRefusal(text, policy);
  if (range === 'unspecified') return notPublic(text, '"this network"');
  return notPublic(text, RANGE_WORDS[range] ?? range);
}

function ipv6Refusal(address: ipaddr.IPv6, text: string, policy: AddressPolicy): string | undefined {
  // ipaddr.js's table leaves out the IPv4-compatible block (::/96, deprecated by RFC 4291), which some stacks still tunnel.
  const range: string =
    address.parts.slice(0, 6).every((part) => part === 0) && address.range() === 'unicast'
      ? 'ipv4Compatible'
      : address.range();
  const bytes = address.toByteArray();
  switch (range) {
    case 'unicast':
      return undefined;
    case 'loopback':
      return loopbackRefusal(text, policy);
    case 'unspecified':
      return notPublic(text, 'unspecified');
    case 'ipv4Compatible':
      return notPublic(text, 'IPv4-compatible (deprecated)');
    case 'ipv4Mapped':
      return `${text} is an IPv4-mapped address: use the IPv4 address itself`;
    case '6to4':
      // 6to4 (2002::/16) carries an IPv4 address: the one really reached.
      return addressRefusal(embeddedIpv4(bytes.slice(2, 6)), policy);
    case 'rfc6052':
      // The well-known NAT64 prefix reaches the IPv4 address it carries; a network-specific one (64:ff9b:1::/48) reaches whatever that network maps it to.
      return address.match(WELL_KNOWN_NAT64)
        ? addressRefusal(embeddedIpv4(bytes.slice(12)), policy)
        : notPublic(text, RANGE_WORDS.rfc6052 ?? range);
    default:
      return notPublic(text, RANGE_WORDS[range] ?? range);
  }
}

/** Why the engine must not connect to this IP address, or undefined when it is public (or allowed loopback). */
export function addressRefusal(address: string, policy: AddressPolicy): string | undefined {
  // node's isIP first: ipaddr.js also reads forms a URL or a resolver never hands over (`127.1`, octal parts).
  const family = isIP(address);
  if (family === 4) return ipv4Refusal(ipaddr.IPv4.parse(address), address, policy);
  if (family === 6) return ipv6Refusal(ipaddr.IPv6.parse(address), address, policy);
  return `${address} is not an IP address`;
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
  return literal !== undefined && ipaddr.parse(literal).range() === 'loopback';
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
