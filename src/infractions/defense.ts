/**
 * The merchant's defense of a MED infraction, as the engine accepts it: the provider's `analise` values
 * (docs/assumptions.md §8), a justification of 1-2000 plain-text characters, up to 10 https proofs.
 */
import { z } from 'zod';
import { INFRACTION_ANALYSES, MAX_JUSTIFICATION_LENGTH, MAX_PROOFS } from '../payment-api/schemas/infractions';
import { plainTextSchema } from '../validation/plain-text';

export const defenseRequestSchema = z.strictObject({
  analise: z.enum(INFRACTION_ANALYSES, { message: `must be one of ${INFRACTION_ANALYSES.join(', ')}` }),
  justificativa: plainTextSchema.trim().min(1, 'justificativa is required').max(MAX_JUSTIFICATION_LENGTH),
  proofs: z
    .array(z.url({ protocol: /^https$/, message: 'must be an https URL' }).max(2048))
    .max(MAX_PROOFS)
    .default([]),
});

export type Defense = z.output<typeof defenseRequestSchema>;
