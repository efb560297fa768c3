/**
 * Wire amounts in reais as zod schemas: validated with reaisToCentavos, so a third decimal or an exponent
 * is refused at the boundary. Apart from centavos.ts so that workflow code, which converts amounts but
 * never parses a request, keeps zod out of its bundle.
 */
import { z } from 'zod';
import { MAX_SAFE_REAIS, reaisToCentavos } from './centavos';

/**
 * The JSON Schema keywords of a wire amount, for the OpenAPI documents. `multipleOf: 0.01` states "at
 * most 2 places" only for validators that compare the number's decimal spelling, as reaisToCentavos
 * does (jsonschema-rs and schemathesis do; one that divides binary floats would refuse 0.07). The pinned
 * fuzzer holds the documents to this reading (docs/assumptions.md). Answers are documented without it
 * (src/openapi/document.ts), so that such validators accept every amount the API answers.
 */
const TWO_PLACES = { multipleOf: 0.01 } as const;

/** A wire amount in reais: a number with at most 2 places (validated, still in reais). */
export const reaisAmountSchema = z
  .number()
  .superRefine((value, ctx) => {
    try {
      reaisToCentavos(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `amount ${(error as Error).message}` });
    }
  })
  .meta({ minimum: 0, maximum: MAX_SAFE_REAIS, ...TWO_PLACES });

/** A positive amount in reais of at most `maxReais`; a malformed amount reports one problem, not three. */
export function positiveReaisSchema(maxReais: number) {
  return reaisAmountSchema
    .pipe(
      z
        .number()
        .gt(0, { message: 'amount must be greater than zero' })
        .max(maxReais, { message: `amount must be at most ${maxReais.toFixed(2)}` }),
    )
    .meta({ exclusiveMinimum: 0, maximum: maxReais });
}

/** A positive amount in reais of at most `maxReais`, turned into centavos at the boundary. */
export function positiveReaisToCentavosSchema(maxReais: number) {
  return positiveReaisSchema(maxReais).transform((value) => reaisToCentavos(value));
}
