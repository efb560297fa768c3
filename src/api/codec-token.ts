/**
 * The Temporal UI's credential for the codec endpoint. The UI calls the codec from the browser and
 * sends no header of ours (its pass-access-token option sends its own OIDC token, and only over
 * HTTPS), so the credential travels in the codec URL the UI is configured with: `<engine>/codec/t/<token>`,
 * to which the UI appends `/decode`. CODEC_TOKEN when set; otherwise, outside production, a token
 * generated once under DATA_DIR, shared by `npm start`'s processes and kept across restarts.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config/env';
import { loadOrCreateSecretFile } from '../util/dev-secret-file';

const tokenFileSchema = z.object({ codecToken: z.string().regex(/^[\w-]{24,}$/) });

export function resolveCodecToken(config: Pick<Config, 'CODEC_TOKEN' | 'NODE_ENV' | 'DATA_DIR'>): string | undefined {
  if (config.CODEC_TOKEN) return config.CODEC_TOKEN;
  if (config.NODE_ENV === 'production') return undefined;
  const file = path.join(config.DATA_DIR, 'codec-token.json');
  return loadOrCreateSecretFile(file, tokenFileSchema, () => ({ codecToken: randomBytes(32).toString('base64url') }))
    .codecToken;
}

/** The codec endpoint to configure in the Temporal UI (`--ui-codec-endpoint`, TEMPORAL_CODEC_ENDPOINT). */
export function codecUiEndpoint(engineUrl: string, token: string): string {
  return `${engineUrl}/codec/t/${token}`;
}
