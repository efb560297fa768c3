/**
 * Settings that name the provider's JSON fields where the spec does not show them (MED_RECORD_FIELDS, the
 * callbacks' <KIND>_CALLBACK_FIELDS): `field=<name>,field=<name|other>`, each engine field the provider names
 * differently; `a|b` tries a, then b; dots reach into objects. Fields not named keep their defaults.
 */
import { z } from 'zod';

/** A field of the provider's JSON: names of letters, digits, `_` and `-`, joined by dots to reach into objects. */
export const PROVIDER_FIELD_PATH = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,4}$/;

/** Each engine field's names in the provider's JSON, tried in order. */
export type FieldNames<F extends string> = Readonly<Record<F, readonly string[]>>;

export function fieldNamesSetting<const F extends string>(fields: readonly F[], defaults: FieldNames<F>) {
  return z.string().transform((text, ctx): FieldNames<F> => {
    const names: Record<string, readonly string[]> = { ...defaults };
    for (const entry of text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0)) {
      const [field = '', given = ''] = entry.split('=').map((part) => part.trim());
      const alternatives = given.split('|').map((name) => name.trim());
      if (!(fields as readonly string[]).includes(field)) {
        ctx.addIssue({ code: 'custom', message: `${field} is not one of ${fields.join(', ')}` });
      } else if (!entry.includes('=') || !alternatives.every((name) => PROVIDER_FIELD_PATH.test(name))) {
        ctx.addIssue({
          code: 'custom',
          message: `${field} must be given as ${field}=<name> (a|b for either; dots reach into objects)`,
        });
      } else {
        names[field] = alternatives;
      }
    }
    return names as FieldNames<F>;
  });
}
