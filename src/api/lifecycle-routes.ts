/**
 * The routes the merchant's lifecycles (payouts, charges, card payments, infractions) share, written once: a router
 * taking JSON bodies of up to 64 kB under the lifecycle's path, the create request read shape first then by the
 * rules (and answered alike where it is idempotent), the list from the read model, and a read of the resource its path names.
 */
import { Router, type Response } from 'express';
import { z } from 'zod';
import type { OperationKind } from '../read-model/operation-records';
import type { StoredOperation } from '../read-model/read-model';
import type { ProblemCodeOf } from './problem-catalogue';
import { parseOrThrow, parseShapeThenRules } from './errors';
import { jsonBodies } from './http-refusals';
import { answerIdempotent } from './idempotent-answer';
import type { OperationListing, OperationListQuery } from './operation-listing';
import { externalIdSchema } from '../validation/external-id';

/** The path of a payout, a charge or a card payment names it by the merchant's externalId. */
export const externalIdParamsSchema = z.object({ externalId: externalIdSchema });

/** A router whose requests under `path` carry JSON bodies (or none). */
export function lifecycleRouter(path: string): Router {
  const router = Router();
  router.use(path, jsonBodies('64kb'));
  return router;
}

/**
 * POST `path`: the request read shape first, then by the rules (a check digit, a BR Code's CRC: refused with
 * `refusal`), and handed to `create`, which answers.
 */
export function createRoute<Shape extends z.ZodType, Out>(
  router: Router,
  path: string,
  schema: z.ZodPipe<Shape, z.ZodTransform<Out, z.output<Shape>>>,
  refusal: ProblemCodeOf<422>,
  create: (request: Out, res: Response) => Promise<void>,
): void {
  router.post(path, async (req, res) => {
    await create(parseShapeThenRules(schema, req, refusal), res);
  });
}

/**
 * POST `path` of a create idempotent by its id, the request read as `createRoute` reads it: what `create` answers but
 * its `created` flag, with `status`, marked as a replay when an earlier request under the same id created it.
 */
export function idempotentCreateRoute<Shape extends z.ZodType, Out>(
  router: Router,
  path: string,
  schema: z.ZodPipe<Shape, z.ZodTransform<Out, z.output<Shape>>>,
  refusal: ProblemCodeOf<422>,
  status: number,
  create: (request: Out) => Promise<{ created: boolean }>,
): void {
  createRoute(router, path, schema, refusal, async (request, res) => {
    const { created, ...answer } = await create(request);
    answerIdempotent(res, status, created, answer);
  });
}

/** GET `path`: the read model's `kind` of operations, filtered and paged by the query, each as `item`. */
export function listRoute<T>(
  router: Router,
  path: string,
  listing: OperationListing,
  {
    kind,
    query,
    item,
  }: { kind: OperationKind; query: z.ZodType<OperationListQuery>; item: (operation: StoredOperation) => T },
): void {
  router.get(path, async (req, res) => {
    res.json(await listing.list(kind, parseOrThrow(query, req.query, 'query'), item));
  });
}

/** GET `path`: what `read` answers about the resource the path's `params` name. */
export function readRoute<Params>(
  router: Router,
  path: string,
  params: z.ZodType<Params>,
  read: (params: Params) => Promise<unknown>,
): void {
  router.get(path, async (req, res) => {
    res.json(await read(parseOrThrow(params, req.params, 'params')));
  });
}
