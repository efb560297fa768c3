/**
 * What never reaches a log line, at any depth: credentials (authorization headers, API keys, client
 * secrets, tokens, signatures), PIX keys, documents (CPF/CNPJ), e-mails and card fields. `scrub` walks
 * plain objects by key name at any depth and masks values that look like personal data or tokens
 * wherever they appear in text (an error message quoting a key, say). Requests are logged by their own
 * serializer (src/api/request-logging.ts): a path without its query and an allow-list of headers.
 *
 * Outsiders choose much of the text that reaches a logger (paths, header values, parser errors), so
 * text is cut to MAX_LOGGED_TEXT before any pattern runs, and every pattern runs in linear time: a
 * pattern may only start where its run of characters starts (a lookbehind), and every repetition is
 * bounded. Without that, a 16 KB header without an `@` cost the e-mail pattern a third of a second.
 */
export const REDACTED = '[redacted]';

/** Field names whose value is a secret or personal data, whatever object they sit in. */
const SECRET_KEY =
  /(secret|token|passw|authorization|cookie|signature|api[_-]?key|pix_?key|^key$|^keys$|document|cpf|cnpj|tax_?id|e_?mail|holder|credit_?card|number|^pan$|cvv|ccv|cvc|card_?exp|exp(iry|iration)_?(month|year|date)|^cs$|^ci$|client_?id|^private)/i;

/** Longer text is cut to this many characters before it is scrubbed and logged. */
export const MAX_LOGGED_TEXT = 2_048;

/**
 * Text that carries personal data or credentials whatever its field: e-mails, CPF/CNPJ, bearer tokens,
 * JWTs, signatures. Each starts only where its run starts (the lookbehinds) and repeats a bounded
 * number of times, so its cost is linear in the text whatever the text.
 */
const SECRET_TEXT: readonly [RegExp, string][] = [
  [/(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/g, '[email]'],
  [/(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g, '[document]'],
  [/(?<!\d)\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}(?!\d)/g, '[document]'],
  [/(?<![\w])(bearer|basic)\s{1,16}[\w.~+/=-]{1,4096}/gi, '$1 [redacted]'],
  [/(?<![\w-])eyJ[\w-]{1,4096}\.[\w-]{1,4096}\.[\w-]{0,4096}/g, '[jwt]'],
  [/(?<![\w=])v1=[0-9a-f]{16,512}/gi, 'v1=[redacted]'],
];

/** Every secret-looking part of `text` masked, whatever its length (linear time). */
export function maskSecretText(text: string): string {
  return SECRET_TEXT.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** The text cut to MAX_LOGGED_TEXT (saying how much was cut), then masked. */
export function scrubText(text: string): string {
  return maskSecretText(
    text.length > MAX_LOGGED_TEXT
      ? `${text.slice(0, MAX_LOGGED_TEXT)}…[${text.length - MAX_LOGGED_TEXT} characters cut]`
      : text,
  );
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
  for (const [key, field] of Object.entries(value))
    out[key] = SECRET_KEY.test(key) ? REDACTED : scrub(field, depth + 1);
  return out;
}
