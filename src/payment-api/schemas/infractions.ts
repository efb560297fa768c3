/**
 * MED infractions: endpoint 7 (GET /api/meds/infractions/list) and endpoint 8
 * (POST /api/meds/infractions/:infractionId/defense). The record's fields, the allowed `analise`
 * values and both response shapes are not in the spec: the shapes here are the sandbox's (its answers and
 * its OpenAPI document); the engine reads endpoint 7 by its settings (MED_LIST_ENVELOPE, MED_RECORD_FIELDS:
 * src/infractions/infraction-page.ts) and takes any 2xx of endpoint 8 as the defense taken (docs/assumptions.md).
 */
import { z } from 'zod';
import {
  acceptSpellings,
  httpUrlSchema,
  messageAnswerSchema,
  nonBlankTextSchema,
  openEnum,
  providerIdSchema,
  requiredTextSchema,
  responseAmountSchema,
  timestampSchema,
  TRANSACTION_ID_SPELLINGS,
} from './common';
import { fieldNamesSetting, PROVIDER_FIELD_PATH, type FieldNames } from './field-names';

export const INFRACTION_STATUSES = ['WAITING_PSP', 'ACCEPTED', 'REJECTED', 'CANCELLED'] as const;
export type InfractionStatus = (typeof INFRACTION_STATUSES)[number];

/**
 * The engine's words for a defense's `analise`. ACEITA: the client agrees with the claim (funds are
 * returned). NEGADA: the client contests it. The spec does not show the provider's allowed values: the
 * client sends the provider's word for each (INFRACTION_ANALISE_VALUES, these two by default).
 */
export const INFRACTION_ANALYSES = ['ACEITA', 'NEGADA'] as const;
export type InfractionAnalysis = (typeof INFRACTION_ANALYSES)[number];

/** The provider's word for each of the engine's `analise` values. */
export type InfractionAnalysisWords = Readonly<Record<InfractionAnalysis, string>>;
export const DEFAULT_ANALYSIS_WORDS: InfractionAnalysisWords = { ACEITA: 'ACEITA', NEGADA: 'NEGADA' };

/** INFRACTION_ANALISE_VALUES: `<agrees>,<contests>`, two distinct non-blank words. */
export const analysisWordsSchema = z
  .string()
  .transform((text) => text.split(',').map((word) => word.trim()))
  .refine((words) => words.length === 2 && words.every((word) => word.length > 0) && words[0] !== words[1], {
    message: 'must be two distinct words, `<agrees>,<contests>` (e.g. ACEITA,NEGADA)',
  })
  .transform((words): InfractionAnalysisWords => ({ ACEITA: words[0] ?? '', NEGADA: words[1] ?? '' }));

/** The engine's fields of an infraction record; the provider's names for them are a setting (MED_RECORD_FIELDS). */
export const MED_RECORD_FIELD_NAMES = [
  'id',
  'transactionId',
  'status',
  'amount',
  'createdAt',
  'defenseDeadline',
  'reason',
  'analise',
  'defendedAt',
  'resolvedAt',
] as const;
export type MedRecordField = (typeof MED_RECORD_FIELD_NAMES)[number];

/** Each engine field's names in the provider's record, tried in order; a dotted name reaches into an object (`valor.total`). */
export type MedRecordFields = FieldNames<MedRecordField>;

/** The sandbox's names (and the snake spelling of the transaction id): endpoint 7's record is not shown. */
export const DEFAULT_MED_RECORD_FIELDS: MedRecordFields = {
  id: ['id'],
  transactionId: ['transactionId', 'transaction_id'],
  status: ['status'],
  amount: ['amount'],
  createdAt: ['createdAt'],
  defenseDeadline: ['defenseDeadline'],
  reason: ['reason'],
  analise: ['analise'],
  defendedAt: ['defendedAt'],
  resolvedAt: ['resolvedAt'],
};

export { PROVIDER_FIELD_PATH };

/**
 * MED_RECORD_FIELDS: `id=<name>,status=<name>,...`, the provider's name of each engine field it differs in
 * (`a|b`: a, else b); the fields not named keep their default names.
 */
export const medRecordFieldsSchema = fieldNamesSetting(MED_RECORD_FIELD_NAMES, DEFAULT_MED_RECORD_FIELDS);

export const INFRACTIONS_DEFAULT_PER_PAGE = 20;
export const INFRACTIONS_MAX_PER_PAGE = 100;
export const MAX_JUSTIFICATION_LENGTH = 2000;
export const MAX_PROOFS = 10;

/** Query strings arrive as text; absent page/perPage take their defaults. */
export const infractionListQuerySchema = z.object({
  page: z.coerce.number().int({ message: 'must be an integer' }).min(1, { message: 'must be at least 1' }).default(1),
  perPage: z.coerce
    .number()
    .int({ message: 'must be an integer' })
    .min(1, { message: 'must be at least 1' })
    .max(INFRACTIONS_MAX_PER_PAGE, { message: `must be at most ${INFRACTIONS_MAX_PER_PAGE}` })
    .default(INFRACTIONS_DEFAULT_PER_PAGE),
});
export type InfractionListQuery = z.input<typeof infractionListQuerySchema>;

/**
 * One infraction of endpoint 7 (fields not in the spec). Required only what the engine reads: the id,
 * the PIX it is about, the status, the amount, and when it was opened or is due (one of the two: the
 * documented default window fills the other).
 */
export const infractionSchema = acceptSpellings(
  TRANSACTION_ID_SPELLINGS.camel,
  z
    .looseObject({
      id: providerIdSchema,
      /** The provider's id of the PIX the claim is about. */
      transactionId: providerIdSchema,
      endToEndId: z.string().optional(),
      status: openEnum(INFRACTION_STATUSES),
      reason: z.string().optional(),
      amount: responseAmountSchema,
      createdAt: timestampSchema.optional(),
      /** Optional to the engine: without it the documented default applies (docs/assumptions.md §8). */
      defenseDeadline: timestampSchema.optional(),
      /** The provider's word (INFRACTION_ANALISE_VALUES), shown as the provider recorded it. */
      analise: z.string().optional(),
      justificativa: z.string().optional(),
      proofs: z.array(z.string()).optional(),
      defendedAt: timestampSchema.optional(),
      resolvedAt: timestampSchema.optional(),
    })
    .refine((infraction) => infraction.createdAt !== undefined || infraction.defenseDeadline !== undefined, {
      message: 'must carry createdAt or defenseDeadline',
      path: ['createdAt'],
    }),
);
export type Infraction = z.infer<typeof infractionSchema>;

/**
 * Endpoint 7's page (shape not in the spec): the list under `data` (or `items`, `infractions`, `results`),
 * the pagination fields read when present; without `totalPages` the engine reads on while pages come full.
 */
export const infractionListResponseSchema = acceptSpellings(
  { data: ['items', 'infractions', 'results'] },
  z.looseObject({
    data: z.array(infractionSchema),
    page: z.coerce.number().int().optional(),
    perPage: z.coerce.number().int().optional(),
    total: z.coerce.number().int().optional(),
    totalPages: z.coerce.number().int().optional(),
  }),
).meta({ id: 'InfractionListResponse' });
export type InfractionListResponse = z.infer<typeof infractionListResponseSchema>;

export const infractionPathSchema = z.strictObject({
  infractionId: requiredTextSchema,
});

/** Endpoint 8's body: `analise` in the provider's words (the client translates the engine's). */
export const infractionDefenseRequestSchema = z
  .strictObject({
    analise: requiredTextSchema,
    justificativa: nonBlankTextSchema(MAX_JUSTIFICATION_LENGTH),
    proofs: z
      .array(httpUrlSchema)
      .max(MAX_PROOFS, { message: `must have at most ${MAX_PROOFS} URLs` })
      .optional(),
  })
  .meta({ id: 'InfractionDefenseRequest' });
export type InfractionDefenseRequest = z.input<typeof infractionDefenseRequestSchema>;

export const infractionDefenseResponseSchema = messageAnswerSchema(
  'infraction',
  infractionSchema,
  'InfractionDefenseResponse',
);
export type InfractionDefenseResponse = z.infer<typeof infractionDefenseResponseSchema>;
