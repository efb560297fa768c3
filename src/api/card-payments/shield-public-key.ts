/**
 * The environment's fixed public key (the spec's <PUBLIC_KEY>) that the checkout page hands to the security module.
 * The spec says only that it is fixed per environment, not what it looks like, so the engine passes it on as it is:
 * PAYMENT_SHIELD_PUBLIC_KEY is the key itself (an opaque string such as `pk_live_…`, or PEM text, checked at
 * start-up to be a public key), or names a file holding it: `file:<path>`, or an absolute path (no key starts with
 * `/`), read when first needed. Unset, it is read from the sandbox's own `/shield/public-key` (no real provider
 * promises that endpoint) once, then kept; a failed read is not kept, so the next page view asks again.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isPublicKeyPem } from '../../config/env';
import { shieldPublicKeyResponseSchema } from '../../payment-api/schemas/security-module';
import { ApiError } from '../errors';

const FILE_PREFIX = 'file:';
const isPem = (text: string): boolean => text.trimStart().startsWith('-----BEGIN');

/** Where PAYMENT_SHIELD_PUBLIC_KEY's key is: in a file it names, or the value itself. */
export function publicKeySource(value: string): { file: string } | { key: string } {
  if (value.startsWith(FILE_PREFIX)) return { file: value.slice(FILE_PREFIX.length) };
  if (!isPem(value) && path.isAbsolute(value)) return { file: value };
  return { key: value.trim() };
}

/** A key as it was written (in the setting or its file): PEM text must be a public key; anything else is one line, taken as it is. */
export function checkedKey(text: string): string {
  const key = text.trim();
  if (isPem(key) ? !isPublicKeyPem(key) : key === '' || /\s/.test(key)) {
    throw new Error('PAYMENT_SHIELD_PUBLIC_KEY is neither a PEM public key nor a key on one line');
  }
  return key;
}

export class ShieldPublicKey {
  private key: Promise<string> | undefined;

  constructor(private readonly source: { configured: string } | { baseUrl: string; timeoutMs: number }) {
    // A key in the setting is known at once (PEM text was checked with the configuration); a file is read when first needed, then kept.
    if ('configured' in source) {
      const configured = publicKeySource(source.configured);
      if ('key' in configured) this.key = Promise.resolve(checkedKey(configured.key));
    }
  }

  read(): Promise<string> {
    this.key ??= this.fetchKey().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  private async fetchKey(): Promise<string> {
    if ('configured' in this.source) {
      const configured = publicKeySource(this.source.configured);
      try {
        return checkedKey('file' in configured ? readFileSync(configured.file, 'utf8') : configured.key);
      } catch {
        throw new ApiError(
          503,
          'PROVIDER_UNAVAILABLE',
          "The payment provider's public key (PAYMENT_SHIELD_PUBLIC_KEY) could not be read; retry later",
        );
      }
    }
    try {
      const response = await fetch(`${this.source.baseUrl}/shield/public-key`, {
        signal: AbortSignal.timeout(this.source.timeoutMs),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return shieldPublicKeyResponseSchema.parse(await response.json()).publicKey;
    } catch {
      throw new ApiError(
        503,
        'PROVIDER_UNAVAILABLE',
        "The payment provider's security module could not be reached; retry later",
      );
    }
  }
}
