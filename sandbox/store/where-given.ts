/**
 * The WHERE clause of a filtered list: one condition per filter given (a value of undefined: no
 * condition), joined by AND, and the condition's values as its parameters, in order.
 */
export type Condition = readonly [sql: string, value: string | number | undefined];

export function whereGiven(conditions: readonly Condition[]): { where: string; params: (string | number)[] } {
  const given = conditions.filter(
    (condition): condition is readonly [string, string | number] => condition[1] !== undefined,
  );
  return {
    where: given.length > 0 ? `WHERE ${given.map(([sql]) => sql).join(' AND ')}` : '',
    params: given.map(([, value]) => value),
  };
}
