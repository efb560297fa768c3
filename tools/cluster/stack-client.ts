/**
 * The engine API, the sandbox's admin API and its security module, as a merchant, an operator and a
 * buyer's browser call them, with the patience a cluster being killed needs: no answer, a 5xx (503 while
 * Temporal restarts) or a 429 is asked again until a deadline; any other refusal fails at once. Every
 * answer is parsed with the schema its server builds it from.
 */
import type { z } from 'zod';
import type { Config } from '../../src/config/env';
import { shieldPublicKeyResponseSchema } from '../../src/payment-api/schemas/security-module';
import { pollUntil, StopPolling } from '../../src/util/poll';

export interface StackClientOptions {
  engineUrl: string;
  sandboxUrl: string;
  apiKey: string;
  adminToken: string;
  /** How long a call is asked again (default 120 s: a Temporal restart and its shards' recovery). */
  patienceMs?: number;
  /** The provider's shield key (PEM) as the engine is given it; unset: read from the sandbox's GET /shield/public-key, which the seed profile does not serve. */
  shieldPublicKey?: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A running stack's addresses and configuration: the first API key, the sandbox's admin token. */
export interface StackAddresses {
  engineUrl: string;
  sandboxUrl: string;
  config: Pick<Config, 'ENGINE_API_KEYS' | 'SANDBOX_ADMIN_TOKEN'>;
}

export class StackClient {
  constructor(private readonly options: StackClientOptions) {}

  /** A client of `stack` as its first API key's merchant and its operator. */
  static of(stack: StackAddresses, options: Pick<StackClientOptions, 'patienceMs'> = {}): StackClient {
    return new StackClient({
      engineUrl: stack.engineUrl,
      sandboxUrl: stack.sandboxUrl,
      apiKey: stack.config.ENGINE_API_KEYS[0]?.secret ?? '',
      adminToken: stack.config.SANDBOX_ADMIN_TOKEN,
      ...options,
    });
  }

  engine<S extends z.ZodType>(method: Method, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    return this.call(`${this.options.engineUrl}${path}`, method, schema, body, {
      authorization: `Bearer ${this.options.apiKey}`,
    });
  }

  /** A GET of something that may not exist yet: undefined on 404. */
  engineIfKnown<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S> | undefined> {
    return this.call(
      `${this.options.engineUrl}${path}`,
      'GET',
      schema.optional(),
      undefined,
      { authorization: `Bearer ${this.options.apiKey}` },
      true,
    );
  }

  /** The buyer's side of the engine (the checkout link's token is the credential). */
  checkout<S extends z.ZodType>(path: string, schema: S, body: unknown): Promise<z.output<S>> {
    return this.call(`${this.options.engineUrl}${path}`, 'POST', schema, body, {});
  }

  admin<S extends z.ZodType>(method: Method, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    return this.call(`${this.options.sandboxUrl}${path}`, method, schema, body, {
      authorization: `Bearer ${this.options.adminToken}`,
    });
  }

  /** The provider's security module, as shield.js calls it from the browser. */
  /** The environment's public key that a checkout hands the security module. */
  async shieldPublicKey(): Promise<string> {
    return (
      this.options.shieldPublicKey ??
      (await this.shield('GET', '/shield/public-key', shieldPublicKeyResponseSchema)).publicKey
    );
  }

  shield<S extends z.ZodType>(method: Method, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    return this.call(`${this.options.sandboxUrl}${path}`, method, schema, body, {});
  }

  /** A form the security module's challenge page posts (the buyer's Approve or Deny); the answer is a page, not JSON. */
  async shieldForm(path: string, fields: Record<string, string>): Promise<void> {
    await this.send(
      `${this.options.sandboxUrl}${path}`,
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams(fields).toString(),
      () => undefined,
      false,
    );
  }

  private call<S extends z.ZodType>(
    url: string,
    method: Method,
    schema: S,
    body: unknown,
    headers: Record<string, string>,
    notFoundIsUndefined = false,
  ): Promise<z.output<S>> {
    const json: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    const parse = (text: string): z.output<S> => schema.parse(text ? JSON.parse(text) : undefined);
    return this.send(
      url,
      method,
      { ...headers, ...json },
      body === undefined ? undefined : JSON.stringify(body),
      parse,
      notFoundIsUndefined,
    );
  }

  /** Sends until an answer that is neither missing, 5xx nor 429; `read` turns a 2xx into the value (a 404 is undefined when told so). */
  private send<T>(
    url: string,
    method: Method,
    headers: Record<string, string>,
    body: string | undefined,
    read: (text: string) => T,
    notFoundIsUndefined: boolean,
  ): Promise<T> {
    const description = `${method} ${url.replace(/\?.*$/, '')}`;
    return pollUntil(
      async () => {
        const response = await fetch(url, {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(15_000),
        });
        const text = await response.text();
        if (notFoundIsUndefined && response.status === 404) return { value: undefined as T };
        if (response.status >= 500 || response.status === 429)
          throw new Error(`${description} answered ${response.status}`);
        if (!response.ok) throw new StopPolling(`${description} answered ${response.status}: ${text.slice(0, 500)}`);
        return { value: read(text) };
      },
      { timeoutMs: this.options.patienceMs ?? 120_000, intervalMs: 500, description },
    ).then(({ value }) => value);
  }
}
