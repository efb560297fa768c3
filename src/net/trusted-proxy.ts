/**
 * How wide a TRUST_PROXY entry may be in production. Express believes X-Forwarded-For from every address
 * an entry covers, so an entry that covers the internet lets any client name its own address and slip
 * every per-address limit. `/0` is refused everywhere (src/config/env.ts); this also refuses its splits
 * (`0.0.0.0/1,128.0.0.0/1`, `::/1,8000::/1`) and anything wider than the widest network proxies need:
 * 10.0.0.0/8 in IPv4, a /16 in IPv6 (a CDN publishes /29 to /32). A block that lies inside one special
 * range (fc00::/7, unique local) is a private network, whatever its size; one that holds ::ffff:0:0/96
 * covers every IPv4 client, which the proxy-addr library reads as IPv4-mapped addresses.
 */
import ipaddr from 'ipaddr.js';

/** Express's names of special ranges: loopback, link-local, unique local (private). */
const KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);
const WIDEST_PREFIX = { ipv4: 8, ipv6: 16 } as const;
const IPV4_MAPPED_PREFIX = 96;
const IPV4_MAPPED_NETWORK = ipaddr.IPv6.parse('::ffff:0:0');

function insideOneSpecialRange(address: ipaddr.IPv4 | ipaddr.IPv6, bits: number): boolean {
  const cidr = `${address.toString()}/${bits}`;
  const [first, last] =
    address.kind() === 'ipv4'
      ? [ipaddr.IPv4.networkAddressFromCIDR(cidr), ipaddr.IPv4.broadcastAddressFromCIDR(cidr)]
      : [ipaddr.IPv6.networkAddressFromCIDR(cidr), ipaddr.IPv6.broadcastAddressFromCIDR(cidr)];
  // ipaddr.js's special ranges are single blocks, so a block whose two ends fall in the same one lies inside it.
  return first.range() !== 'unicast' && first.range() === last.range();
}

function breadthRefusal(entry: string, address: ipaddr.IPv4 | ipaddr.IPv6, bits: number): string | undefined {
  const widest = WIDEST_PREFIX[address.kind()];
  if (bits >= widest || insideOneSpecialRange(address, bits)) return undefined;
  return `${entry} is wider than a /${widest}: it trusts a share of the internet, not a proxy; name the proxies' own addresses or subnet`;
}

/** Why production refuses this TRUST_PROXY entry (already known to be a keyword, an address or address/bits), or undefined. */
export function trustedProxyRefusal(entry: string): string | undefined {
  if (KEYWORDS.has(entry)) return undefined;
  const [text = '', bitsText] = entry.split('/');
  const address = ipaddr.parse(text);
  const bits = bitsText === undefined ? (address.kind() === 'ipv4' ? 32 : 128) : Number(bitsText);
  if (address instanceof ipaddr.IPv6) {
    if (bits <= IPV4_MAPPED_PREFIX && IPV4_MAPPED_NETWORK.match(address, bits)) {
      return `${entry} holds every IPv4-mapped address (::ffff:0:0/96): it trusts every IPv4 client`;
    }
    if (address.range() === 'ipv4Mapped')
      return breadthRefusal(entry, address.toIPv4Address(), bits - IPV4_MAPPED_PREFIX);
  }
  return breadthRefusal(entry, address, bits);
}
