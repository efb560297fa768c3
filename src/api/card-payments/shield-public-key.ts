/**
 * The environment's fixed public key (the spec's <PUBLIC_KEY>) that the checkout page hands to the
 * security module: read once from the provider's `/shield/public-key` (docs/assumptions.md §17), then kept.
 * A failed read is not kept, so the next page view asks again.
 */
import { shieldPublicKeyResponseSchema } from '../../payment-api/schemas/shield';
import { ApiError } from '../errors';

export class ShieldPublicKey {
  private key: Promise<string> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  read(): Promise<string> {
    this.key ??= this.fetchKey().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  private async fetchKey(): Promise<string> {
    try {
      const response = await fetch(`${this.baseUrl}/shield/public-key`, { signal: AbortSignal.timeout(this.timeoutMs) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return shieldPublicKeyResponseSchema.parse(await response.json()).publicKey;
    } catch {
      throw new ApiError(503, 'PROVIDER_UNAVAILABLE', "The payment provider's security module could not be reached; retry later");
    }
  }
}
