/**
 * What never reaches a log line, at any depth: credentials (authorization headers, API keys, client
 * secrets, tokens, signatures), PIX keys, documents (CPF/CNPJ), e-mails and card fields. Two nets:
 * `scrub`, which walks plain objects by key name at any depth and masks values that look like personal
 * data or tokens wherever they appear in text (an error message quoting a key, say), and pino's `redact`
 * for the credential headers of the request and response shapes pino-http serializes.
 *
 * The pino paths are exact: wildcard paths (a key at every depth) cost about 160 µs a line against 5 µs,
 * paid by every request the API answers and every activity the worker runs, and `scrub` already finds a
 * key at any depth.
 */
export const REDACTED = '[redacted]';

/** Field names whose value is a secret or personal data, whatever object they sit in. */
const SECRET_KEY =
  /(secret|token|passw|authorization|cookie|signature|api[_-]?key|pix_?key|^key$|^keys$|document|cpf|cnpj|tax_?id|e_?mail|holder|credit_?card|number|^pan$|cvv|ccv|cvc|card_?exp|exp(iry|iration)_?(month|year|date)|^cs$|^ci$|client_?id|^private)/i;

const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-webhook-signature', 'x-service-webhook-signature', 'ci', 'cs'] as const;

/** pino `redact` paths: the credential headers of a serialized request or response. */
export const REDACT_PATHS: string[] = ['req', 'res'].flatMap((shape) => CREDENTIAL_HEADERS.map((header) => `${shape}.headers["${header}"]`));

/** Text that carries personal data or credentials whatever its field: e-mails, CPF/CNPJ, bearer tokens, JWTs, signatures. */
const SECRET_TEXT: readonly [RegExp, string][] = [
  [/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '[email]'],
  [/\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b/g, '[document]'],
  [/\b\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}\b/g, '[document]'],
  [/\b(bearer|basic)\s+[\w.~+/=-]+/gi, '$1 [redacted]'],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, '[jwt]'],
  [/\bv1=[0-9a-f]{16,}/gi, 'v1=[redacted]'],
];

export function scrubText(text: string): string {
  return SECRET_TEXT.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

const MAX_DEPTH = 8;

/** A copy of `value` with secret fields redacted and secret-looking text masked; class instances other than errors pass as they are (pino's serializers handle them). */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[depth]';
  if (value instanceof Error) return { name: value.name, message: scrubText(value.message) };
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? REDACTED : scrub(field, depth + 1);
  return out;
}
