/**
 * The engine API's keys, each a secret with a name and the scopes of the operations it may call. Every
 * operation under /v1 (and the codec with an API key) needs one scope, named in its OpenAPI security
 * requirement (src/api/<flow>/openapi.ts) and checked by src/api/auth.ts; docs/security.md lists them.
 *
 * Two ways to give them, one at a time:
 * - ENGINE_API_KEYS, comma-separated entries `secret`, `name:secret` or `name:secret:scope+scope`; an entry
 *   without scopes (the forms of before scopes) gets DEFAULT_KEY_SCOPES;
 * - ENGINE_API_KEYS_FILE, a JSON file: `[{ "name": …, "secret": …, "scopes": [ … ] }]`, every key naming its scopes.
 * A refusal names the entry by its position, never by its text: an entry holds a secret.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const API_KEY_SCOPES = [
  'payouts:write',
  'charges:write',
  'infractions:write',
  'webhooks:write',
  'read',
  'operator',
  'codec',
] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, { message: `a scope is one of ${API_KEY_SCOPES.join(', ')}` });
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** What each scope opens, for the OpenAPI document's security scheme (docs/security.md lists every operation's). */
export const SCOPE_MEANINGS: Record<ApiKeyScope, string> = {
  'payouts:write': 'submit payouts and batches, preview a copy-and-paste code, quote a crypto payout',
  'charges:write': 'create PIX charges and card payments',
  'infractions:write': 'defend MED infractions',
  'webhooks:write': 'register, delete and rotate the secret of webhook endpoints',
  read: 'read payouts, batches, charges, card payments, infractions, webhook endpoints and events',
  operator: 'act on work under way: recheck, cancel, close, pause, resume, sync, redeliver; unmatched callbacks',
  codec: 'the codec endpoint (decode and encode payloads) with an API key',
};

/**
 * A key written without scopes is a merchant's back end: it pays, charges, defends infractions and reads. It
 * does not act on work under way (operator), choose where events go (webhooks:write) or decrypt payloads (codec).
 */
export const DEFAULT_KEY_SCOPES: readonly ApiKeyScope[] = [
  'payouts:write',
  'charges:write',
  'infractions:write',
  'read',
];

/** Printable ASCII (0x21 to 0x7e) but the setting's separators, comma and colon: it travels in a header and in ENGINE_API_KEYS. */
const secretSchema = z
  .string()
  .regex(
    /^[\x21-\x2b\x2d-\x39\x3b-\x7e]{1,512}$/,
    'a secret is 1 to 512 printable ASCII characters, no space, comma or colon',
  );

export const apiKeySchema = z
  .object({
    name: z.string().regex(/^[\w.-]{1,64}$/, 'a name is 1 to 64 letters, digits, dots, dashes or underscores'),
    secret: secretSchema,
    scopes: z.array(apiKeyScopeSchema).min(1, 'name at least one scope'),
  })
  .strict();
export type ApiKey = z.infer<typeof apiKeySchema>;

/** Names and secrets each used once: a secret given twice would leave to chance which key's scopes apply. */
const apiKeyListSchema = z
  .array(apiKeySchema)
  .min(1, 'must name at least one key')
  .superRefine((keys, ctx) => {
    keys.forEach((key, index) => {
      if (keys.findIndex((other) => other.name === key.name) < index)
        ctx.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: `the name ${key.name} is given to an earlier key too`,
        });
      if (keys.findIndex((other) => other.secret === key.secret) < index)
        ctx.addIssue({
          code: 'custom',
          path: [index, 'secret'],
          message: 'the secret of an earlier key is given again',
        });
    });
  });

/** One entry of ENGINE_API_KEYS as the key it stands for (checked by apiKeySchema afterwards). */
function keyOfEntry(entry: string, index: number): { name: string; secret: string; scopes: string[] } {
  const [first = '', second, ...scopeText] = entry.split(':');
  if (second === undefined) return { name: `key-${index + 1}`, secret: first, scopes: [...DEFAULT_KEY_SCOPES] };
  // Scopes hold colons themselves (`payouts:write`): everything after the second colon is the list.
  const scopes = scopeText.length === 0 ? [...DEFAULT_KEY_SCOPES] : scopeText.join(':').split('+');
  return { name: first, secret: second, scopes };
}

/** ENGINE_API_KEYS: `secret`, `name:secret` or `name:secret:scope+scope`, comma-separated. */
export const apiKeysTextSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0)
      .map(keyOfEntry),
  )
  .pipe(apiKeyListSchema);

/** ENGINE_API_KEYS_FILE: the path of a JSON file listing the keys, each with its scopes. */
export const apiKeysFileSchema = z
  .string()
  .min(1)
  .transform((file, ctx): unknown => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`,
      });
      return z.NEVER;
    }
    try {
      return JSON.parse(text);
    } catch {
      // JSON.parse's message quotes the text, which holds secrets.
      ctx.addIssue({ code: 'custom', message: `${file} is not JSON: a list of { "name", "secret", "scopes" }` });
      return z.NEVER;
    }
  })
  .pipe(apiKeyListSchema);

/** Keys as ENGINE_API_KEYS writes them, scopes always named: for a child process given the same keys. */
export function apiKeysText(keys: readonly ApiKey[]): string {
  return keys.map((key) => `${key.name}:${key.secret}:${key.scopes.join('+')}`).join(',');
}
