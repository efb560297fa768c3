/**
 * Whether a checkout payment must carry 3DS data, by the provider's own settings (the spec's step 3: GET
 * {shield_settings_url}?publicKey=), read by the API process itself and by the rule the page follows: 3DS unless
 * the settings say `threeDS.enabled: false`. Never taken from the page: a caller holding a checkout link who skips
 * step 5 and posts the card alone is refused (422 THREE_DS_REQUIRED) before anything reaches the provider.
 *
 * The settings are read from PAYMENT_SHIELD_SETTINGS_URL, or the sandbox's layout under PAYMENT_API_BASE_URL (the
 * address this process reaches the provider at; the browser's may be another). Read tolerantly: only
 * `threeDS.enabled`, anything else ignored. Kept for SETTINGS_KEPT_MS; a failed read is not kept, and a payment
 * without 3DS data is then answered 503 (the settings decide, and they could not be had).
 */
import { z } from 'zod';
import type { Config } from '../../config/env';
import { ApiError } from '../errors';
import type { ShieldConfig } from './shield-config';

const SETTINGS_KEPT_MS = 60_000;

/** Of the settings, what decides: `threeDS.enabled`, read when it is a boolean; the rest of the answer is not looked at. */
const settingsReadingSchema = z.looseObject({
  threeDS: z
    .looseObject({ enabled: z.boolean().optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

export interface ThreeDSRequirementSource {
  settingsUrl: string;
  publicKey: () => Promise<string>;
  timeoutMs: number;
}

export class ThreeDSRequirement {
  private kept: { required: Promise<boolean>; until: number } | undefined;

  constructor(
    private readonly source: ThreeDSRequirementSource,
    private readonly now: () => number = Date.now,
  ) {}

  /** True unless the provider's settings say 3DS is not enabled; 503 when they cannot be read. */
  required(): Promise<boolean> {
    if (this.kept && this.kept.until > this.now()) return this.kept.required;
    const required = this.read();
    this.kept = { required, until: this.now() + SETTINGS_KEPT_MS };
    required.catch(() => {
      if (this.kept?.required === required) this.kept = undefined;
    });
    return required;
  }

  private async read(): Promise<boolean> {
    let body: unknown;
    try {
      const url = new URL(this.source.settingsUrl);
      url.searchParams.set('publicKey', await this.source.publicKey());
      const response = await fetch(url, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(this.source.timeoutMs),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = await response.json();
    } catch {
      throw new ApiError(
        503,
        'PROVIDER_UNAVAILABLE',
        "The payment provider's 3DS settings could not be read, so a payment without 3DS cannot be taken now; retry later",
      );
    }
    const settings = settingsReadingSchema.safeParse(body);
    return !(settings.success && settings.data.threeDS?.enabled === false);
  }
}

export function threeDSRequirement(
  config: Pick<Config, 'PAYMENT_SHIELD_SETTINGS_URL' | 'PAYMENT_API_BASE_URL' | 'PAYMENT_API_TIMEOUT_MS'>,
  shield: Pick<ShieldConfig, 'publicKey'>,
): ThreeDSRequirement {
  return new ThreeDSRequirement({
    settingsUrl: config.PAYMENT_SHIELD_SETTINGS_URL ?? `${config.PAYMENT_API_BASE_URL}/shield/settings`,
    publicKey: () => shield.publicKey.read(),
    timeoutMs: config.PAYMENT_API_TIMEOUT_MS,
  });
}
