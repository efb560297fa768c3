/** What every lifecycle's answer (a payout, a charge, a card payment, an infraction) states alike. */
import { z } from 'zod';
import { timestampSchema } from './openapi-timestamps';

/** Every move of the lifecycle: from a state (null: its first) to the next, when and why. */
export function transitionsSchema<S extends z.ZodEnum>(state: S) {
  return z.array(z.object({ from: state.nullable(), to: state, at: timestampSchema, cause: z.string() }));
}

/**
 * What a create answers (a payout accepted, a charge or card payment created): the merchant's id and the state it is
 * in, the kind's own fields, then the workflow that runs it.
 */
export function createdSchema<S extends z.ZodType, Shape extends z.ZodRawShape>(status: S, shape: Shape, id: string) {
  return z.object({ externalId: z.string(), status, ...shape, workflowId: z.string() }).meta({ id });
}

/** What a lifecycle's answer says of its workflow's progress: the provider's callbacks it took, the checks it made, every move. */
export function progressShape<S extends z.ZodEnum>(state: S) {
  return { callbacksReceived: z.number().int(), checksMade: z.number().int(), transitions: transitionsSchema(state) };
}

/**
 * Where an answer was read: `workflow`, the workflow's own view; `index`, the visibility index, when no worker answered
 * in time; `store`, the engine's database, once Temporal no longer has the workflow (retention).
 */
export const VIEW_SOURCES = ['workflow', 'index', 'store'] as const;
export type ViewSource = (typeof VIEW_SOURCES)[number];

/** A page of a list served from the read model: its items and, while more follow, the next page's cursor. */
export function listPageSchema<Item extends z.ZodType>(item: Item, id: string) {
  return z.object({ data: z.array(item), nextCursor: z.string().optional() }).meta({ id });
}
