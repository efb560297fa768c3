/** docker-compose.yml as data, and what `docker compose` does to its values, for the tests that check it without a Docker engine. */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

const serviceSchema = z.looseObject({
  volumes: z.array(z.string()).optional(),
  image: z.string().optional(),
  build: z.unknown().optional(),
  command: z.union([z.string(), z.array(z.string())]).optional(),
  environment: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  depends_on: z.record(z.string(), z.unknown()).optional(),
  ports: z.array(z.string()).optional(),
  deploy: z.looseObject({ replicas: z.number().int().optional() }).optional(),
  profiles: z.array(z.string()).optional(),
  entrypoint: z.array(z.string()).optional(),
  networks: z.record(z.string(), z.looseObject({ ipv4_address: z.string().optional() })).optional(),
});
const networkSchema = z.looseObject({
  internal: z.boolean().optional(),
  ipam: z
    .looseObject({ config: z.array(z.looseObject({ subnet: z.string(), ip_range: z.string().optional() })) })
    .optional(),
});
const composeSchema = z.looseObject({
  services: z.record(z.string(), serviceSchema),
  networks: z.record(z.string(), networkSchema),
});

export const compose = composeSchema.parse(
  parse(readFileSync(path.join(__dirname, '../../docker-compose.yml'), 'utf8'), { merge: true }),
);

/** What `docker compose` does to a value: `${NAME:?message}` from the environment or stop naming it, `${NAME:-default}`, `$$` for `$`. */
export function interpolate(value: string, environment: Record<string, string>): string {
  return value.replace(
    /\$\$|\$\{(\w+)(?::([?-])([^}]*))?\}/g,
    (whole: string, name: string | undefined, kind: string | undefined, text: string | undefined) => {
      if (whole === '$$' || name === undefined) return '$';
      const given = environment[name];
      if (given !== undefined && given !== '') return given;
      if (kind === '?') throw new Error(`required variable ${name} is missing a value: ${text ?? ''}`);
      return text ?? '';
    },
  );
}

/** A value for every variable compose requires (not all of them values production takes). */
export const PRODUCTION_SECRETS: Record<string, string> = {
  POSTGRES_PASSWORD: 'pg0123456789abcdef',
  BATCH_STORE_PASSWORD: 'bs0123456789abcdef',
  ENGINE_API_KEYS: 'key',
  WEBHOOK_SECRET: 'secret',
  CODEC_TOKEN: 'token',
  CHECKOUT_TOKEN_SECRET: 'checkout',
  PAYMENT_API_BASE_URL: 'https://api.psp.example.com',
  PAYMENT_API_CLIENT_ID: 'client',
  PAYMENT_API_CLIENT_SECRET: 'client-secret',
  ENGINE_PUBLIC_URL: 'https://payouts.example.com',
  PAYLOAD_ENCRYPTION_KEY: 'key',
  PAYLOAD_ENCRYPTION_KEY_ID: 'k1',
  GRAFANA_ADMIN_PASSWORD: 'grafana',
  TLS_CERT_DIR: './certs',
  PAYMENT_SHIELD_SCRIPT_INTEGRITY: `sha384-${'A'.repeat(64)}`,
};
/** Values production takes: 24+ characters, a random payload key. */
export const STRONG_SECRETS: Record<string, string> = {
  ...PRODUCTION_SECRETS,
  ENGINE_API_KEYS: 'merchant-key-0123456789abcdef',
  WEBHOOK_SECRET: 'webhook-secret-0123456789abcdef',
  CODEC_TOKEN: 'codec-token-0123456789abcdef',
  CHECKOUT_TOKEN_SECRET: 'checkout-secret-0123456789abcdef',
  PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};
/** A service's environment as compose would hand it over. */
export const environmentOf = (service: string, environment = PRODUCTION_SECRETS): Record<string, string> =>
  Object.fromEntries(
    Object.entries(compose.services[service]?.environment ?? {}).map(([name, value]) => [
      name,
      interpolate(String(value), environment),
    ]),
  );
