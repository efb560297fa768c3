/**
 * How many unsigned callbacks (untrusted hints) a client may have taken a minute: UNSIGNED_CALLBACKS_PER_MINUTE
 * per client address, each address in a fixed one-minute window of its own. Only a hint that reached an open
 * operation is charged (its signal taken): a body that does not parse, an id nobody has, an operation already
 * closed cost nothing, so one client's garbage cannot use up what the provider's own callbacks need. The
 * provider's addresses (PROVIDER_CALLBACK_ADDRESSES) are not budgeted at all.
 */
import { BlockList, isIP } from 'node:net';

const WINDOW_MS = 60_000;
/** Past this many addresses remembered, the windows that ended are forgotten. */
const FORGET_PAST = 1_000;

/** The allow-list as a BlockList (addresses and `address/bits` subnets, IPv4 or IPv6). */
export function addressList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/** An IPv4 client seen through an IPv6 socket (`::ffff:10.0.0.1`) is the IPv4 one. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

export interface UnsignedClient {
  /** The client's address (Express's req.ip). */
  address: string;
  /** Who is counted: the address, IPv6 grouped by /56 (src/http/rate-limit.ts). */
  key: string;
}

export class UnsignedBudget {
  private readonly windows = new Map<string, { startMs: number; taken: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly providerAddresses: BlockList,
    private readonly nowMs: () => number,
  ) {}

  /** Whether a hint from this client may still be taken now (nothing is charged). */
  allows(client: UnsignedClient): boolean {
    if (this.isProvider(client)) return true;
    const window = this.windows.get(client.key);
    return window === undefined || this.nowMs() - window.startMs >= WINDOW_MS || window.taken < this.perMinute;
  }

  /** A hint of this client reached an open operation. */
  charge(client: UnsignedClient): void {
    if (this.isProvider(client)) return;
    const now = this.nowMs();
    const window = this.windows.get(client.key);
    if (window !== undefined && now - window.startMs < WINDOW_MS) {
      window.taken += 1;
      return;
    }
    if (this.windows.size >= FORGET_PAST) this.forgetEnded(now);
    this.windows.set(client.key, { startMs: now, taken: 1 });
  }

  private isProvider(client: UnsignedClient): boolean {
    const address = plainAddress(client.address);
    const family = isIP(address);
    return family !== 0 && this.providerAddresses.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }

  private forgetEnded(now: number): void {
    for (const [key, window] of this.windows) if (now - window.startMs >= WINDOW_MS) this.windows.delete(key);
  }
}
