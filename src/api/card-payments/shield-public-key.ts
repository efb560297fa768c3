/**
 * The environment's fixed public key (the spec's <PUBLIC_KEY>) that the checkout page hands to the
 * security module. The spec makes it a configured value: PAYMENT_SHIELD_PUBLIC_KEY (the PEM itself,
 * checked at start-up, or the path of a PEM file, read when first needed). Unset, it is read from the sandbox's own
 * `/shield/public-key` (no real provider promises that endpoint) once, then kept; a failed read is not
 * kept, so the next page view asks again.
 */
import { readFileSync } from 'node:fs';
import { isPublicKeyPem } from '../../config/env';
import { shieldPublicKeyResponseSchema } from '../../payment-api/schemas/shield';
import { ApiError } from '../errors';

/** The PEM of a configured value: the text itself when it is a PEM, else the file it names; checked to be a public key. */
export function configuredPublicKey(value: string): string {
  const pem = value.trimStart().startsWith('-----BEGIN') ? value : readFileSync(value, 'utf8');
  if (!isPublicKeyPem(pem)) throw new Error('PAYMENT_SHIELD_PUBLIC_KEY is not a PEM public key (nor the path of a file holding one)');
  return pem.trim();
}

export class ShieldPublicKey {
  private key: Promise<string> | undefined;

  constructor(private readonly source: { configured: string } | { baseUrl: string; timeoutMs: number }) {
    // PEM text is checked at once (a bad value stops the start); a file is read when first needed, then kept.
    if ('configured' in source && source.configured.trimStart().startsWith('-----BEGIN')) this.key = Promise.resolve(configuredPublicKey(source.configured));
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
      try {
        return configuredPublicKey(this.source.configured);
      } catch {
        throw new ApiError(503, 'PROVIDER_UNAVAILABLE', "The payment provider's public key (PAYMENT_SHIELD_PUBLIC_KEY) could not be read; retry later");
      }
    }
    try {
      const response = await fetch(`${this.source.baseUrl}/shield/public-key`, { signal: AbortSignal.timeout(this.source.timeoutMs) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return shieldPublicKeyResponseSchema.parse(await response.json()).publicKey;
    } catch {
      throw new ApiError(503, 'PROVIDER_UNAVAILABLE', "The payment provider's security module could not be reached; retry later");
    }
  }
}
