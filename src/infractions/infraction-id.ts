/**
 * An infraction id as the engine takes it from the provider, and in its own paths: a plain token (letters,
 * digits, `_ . : -`, at most 100), so that it goes into a visibility query, a workflow id and a URL with
 * nothing to escape. The provider's ids are refused otherwise, never escaped (a backslash, a quote): the
 * record is set aside as unreadable, for an operator.
 */
export const INFRACTION_ID_PATTERN = /^[\w.:-]{1,100}$/;

export function isInfractionId(id: string): boolean {
  return INFRACTION_ID_PATTERN.test(id);
}

/** What the sync's problem says of an id it refused. */
export const NOT_A_PLAIN_ID = 'id (not a plain token: letters, digits, _ . : -, at most 100)';
