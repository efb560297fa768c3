/**
 * Whether an answer holds what a documentation comment promised: every promised field is there with its
 * value; `…` inside a promised string stands for any text, and `"…"` alone for any value.
 */
const WILDCARD = '…';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function jsonPromiseHolds(promised: unknown, actual: unknown): boolean {
  if (promised === WILDCARD) return actual !== undefined;
  if (typeof promised === 'string' && promised.includes(WILDCARD)) {
    return (
      typeof actual === 'string' &&
      new RegExp(`^${promised.split(WILDCARD).map(escapeRegExp).join('[\\s\\S]*')}$`).test(actual)
    );
  }
  if (Array.isArray(promised)) {
    return (
      Array.isArray(actual) &&
      actual.length === promised.length &&
      promised.every((item, index) => jsonPromiseHolds(item, actual[index]))
    );
  }
  if (promised !== null && typeof promised === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(promised).every(([key, value]) =>
      jsonPromiseHolds(value, (actual as Record<string, unknown>)[key]),
    );
  }
  return promised === actual;
}
