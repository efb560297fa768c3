/**
 * How the engine reaches a merchant's webhook endpoint, and which endpoints it may reach at all. The
 * same rules judge a URL when it is registered (422) and every time it is called:
 *
 * - the host: a public address. A literal address is judged as written; a name is judged on what it
 *   resolves to, in the connection's own lookup, so the address checked is the address connected to
 *   (a DNS answer that changes between a check and the connection, "rebinding", cannot slip past);
 * - the port: 443, or 80 outside production (a loopback receiver, when allowed, on any port);
 * - the answer: its status only; at most MAX_ANSWER_BYTES of the body are read, then the connection is
 *   dropped; redirects are not followed.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import type { Config } from '../config/env';
import { addressRefusal, hostRefusal, isLoopbackHost, type AddressPolicy } from '../net/public-address';

export interface EndpointPolicy extends AddressPolicy {
  production: boolean;
}

/** The policy of this engine's configuration: the API's registrations and the worker's deliveries alike. */
export function endpointPolicy(config: Pick<Config, 'NODE_ENV' | 'WEBHOOK_ALLOW_LOOPBACK'>): EndpointPolicy {
  return { production: config.NODE_ENV === 'production', allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK };
}

/** Read of an endpoint's answer before the connection is dropped (the body is never kept). */
export const MAX_ANSWER_BYTES = 4_096;

/** The endpoint may not be called: its host, its port or an address its name resolves to. */
export class EndpointRefusedError extends Error {
  readonly code = 'ENDPOINT_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'EndpointRefusedError';
  }
}

const defaultPort = (url: URL): number => (url.protocol === 'https:' ? 443 : 80);

/** Why the engine may not call this URL (judged without DNS), or undefined. */
export function urlRefusal(url: URL, policy: EndpointPolicy): string | undefined {
  if (policy.production && url.protocol !== 'https:') return 'must be https when NODE_ENV=production';
  const host = hostRefusal(url.hostname, policy);
  if (host) return `host: ${host}`;
  const port = url.port === '' ? defaultPort(url) : Number(url.port);
  if (policy.allowLoopback && isLoopbackHost(url.hostname)) return undefined;
  const allowed = policy.production ? [443] : [443, 80];
  return allowed.includes(port) ? undefined : `port ${port}: only ${allowed.join(' or ')}`;
}

/** Every address a name resolves to, as a connection would look it up (dns.lookup with `all`). */
export type ResolveAll = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

const systemResolveAll: ResolveAll = (hostname, options) => dnsLookup(hostname, { ...options, all: true });

/** A lookup refusing a name any of whose addresses is not public: what it answers is what is connected to. */
function publicOnlyLookup(policy: AddressPolicy, resolveAll: ResolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, options).then(
      (addresses) => {
        const refused = addresses
          .map(({ address }) => addressRefusal(address, policy))
          .find((reason) => reason !== undefined);
        const [first] = addresses;
        if (refused !== undefined || !first)
          callback(new EndpointRefusedError(`${hostname} resolves to ${refused ?? 'no address'}`), '', 0);
        else if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

export interface EndpointTransport {
  /** POSTs the body and answers the endpoint's status; throws EndpointRefusedError or the network's error. */
  post(url: string, init: { headers: Record<string, string>; body: string; timeoutMs: number }): Promise<number>;
  close(): Promise<void>;
}

/** `resolveAll`: the system's resolver; a test's stands in for a DNS answer that changed after registration. */
export function endpointTransport(
  policy: EndpointPolicy,
  resolveAll: ResolveAll = systemResolveAll,
): EndpointTransport {
  const agent = new Agent({ connect: { lookup: publicOnlyLookup(policy, resolveAll) } });
  return {
    async post(url, init) {
      const target = new URL(url);
      const refused = urlRefusal(target, policy);
      if (refused) throw new EndpointRefusedError(refused);
      const answer = await request(target, {
        method: 'POST',
        headers: init.headers,
        body: init.body,
        dispatcher: agent,
        signal: AbortSignal.timeout(init.timeoutMs),
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
      });
      await answer.body.dump({ limit: MAX_ANSWER_BYTES }).catch(() => undefined);
      return answer.statusCode;
    },
    close: () => agent.close(),
  };
}
