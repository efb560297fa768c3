/**
 * The sandbox's own control surface under /sandbox/, guarded by SANDBOX_ADMIN_TOKEN: inspect
 * operations, ledger, balances and callbacks; force outcomes; inject faults. Not part of the provider's
 * interface, so its schemas live here.
 */
import { Router } from 'express';
import { z } from 'zod';
import { centavosToReais } from '../../src/money/centavos';
import type { CredentialChecks } from '../auth/credentials';
import type { CallbackRecord } from '../callbacks/outbox';
import type { SandboxContext } from '../context';
import { faultsSchema } from '../faults/fault-state';
import { parseOrRefuse, providerError, SandboxError } from '../http/errors';
import type { OperationKind } from '../products/product';
import type { Operation } from '../store/operations';

const operationsQuerySchema = z.strictObject({
  externalId: z.string().min(1).optional(),
  transactionId: z.string().min(1).optional(),
  product: z.string().min(1).optional(),
  status: z.string().min(1).optional(),
  /** Newest first; 500 unless told. */
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
});
const ledgerQuerySchema = z.strictObject({
  externalId: z.string().min(1).optional(),
  account: z.string().min(1).optional(),
  operationId: z.string().min(1).optional(),
});
const callbacksQuerySchema = z.strictObject({
  operationId: z.string().min(1).optional(),
  status: z.string().min(1).optional(),
});
export const forcedOutcomeSchema = z.strictObject({
  status: z.enum(['COMPLETED', 'FAILED']),
  reason: z.string().trim().min(1).max(255).optional(),
});

export function operationView(operation: Operation) {
  return {
    transactionId: operation.id,
    product: operation.product,
    externalId: operation.externalId,
    userId: operation.userId,
    status: operation.status,
    amount: centavosToReais(operation.amountCents),
    fee: centavosToReais(operation.feeCents),
    total: centavosToReais(operation.amountCents + operation.feeCents),
    amountCents: operation.amountCents,
    feeCents: operation.feeCents,
    failureReason: operation.failureReason,
    callbackUrl: operation.callbackUrl,
    details: operation.details,
    createdAt: new Date(operation.createdAt).toISOString(),
    updatedAt: new Date(operation.updatedAt).toISOString(),
  };
}

function callbackView(record: CallbackRecord) {
  return {
    id: record.id,
    operationId: record.operationId,
    type: record.type,
    url: record.url,
    status: record.status,
    attempts: record.attempts,
    maxAttempts: record.maxAttempts,
    lastStatusCode: record.lastStatusCode,
    lastError: record.lastError,
    nextAttemptAt: new Date(record.nextAttemptAt).toISOString(),
    createdAt: new Date(record.createdAt).toISOString(),
    deliveredAt: record.deliveredAt === null ? null : new Date(record.deliveredAt).toISOString(),
    payload: JSON.parse(record.body) as unknown,
  };
}

function requireOperation(ctx: SandboxContext, transactionId: string): Operation {
  const operation = ctx.operations.byId(transactionId);
  if (!operation) throw providerError('NOT_FOUND', `No operation ${transactionId}`);
  return operation;
}

export function adminRouter(deps: {
  ctx: SandboxContext;
  credentials: CredentialChecks;
  operationKinds: ReadonlyMap<string, OperationKind>;
  wake: () => void;
  releaseHeld: () => void;
}): Router {
  const { ctx, credentials, operationKinds } = deps;
  const router = Router();
  router.use((req, _res, next) => {
    credentials.admin(req);
    next();
  });

  router.get('/operations', (req, res) => {
    const query = parseOrRefuse(operationsQuerySchema, req.query, 'query');
    const operations = query.transactionId
      ? [ctx.operations.byId(query.transactionId)].filter(
          (operation): operation is Operation => operation !== undefined,
        )
      : ctx.operations.list(query);
    res.json({ operations: operations.map(operationView) });
  });

  router.get('/operations/:transactionId', (req, res) => {
    const operation = requireOperation(ctx, req.params.transactionId);
    res.json({
      operation: operationView(operation),
      ledger: ctx.ledger.entries({ operationId: operation.id }),
      callbacks: ctx.outbox.list({ operationId: operation.id }).map(callbackView),
    });
  });

  router.post('/operations/:transactionId/outcome', (req, res) => {
    const outcome = parseOrRefuse(forcedOutcomeSchema, req.body ?? {}, 'body');
    const operation = requireOperation(ctx, req.params.transactionId);
    const kind = operationKinds.get(operation.product);
    if (!kind?.forceOutcome)
      throw new SandboxError(
        409,
        'OUTCOME_NOT_FORCEABLE',
        `Operations of kind ${operation.product} have no outcome to force`,
      );
    if (kind.isFinal(operation))
      throw new SandboxError(409, 'OPERATION_FINAL', `Operation ${operation.id} is already ${operation.status}`);
    kind.forceOutcome(ctx, operation, outcome);
    ctx.logger.info('sandbox.outcome_forced', { operationId: operation.id, status: outcome.status });
    deps.wake();
    res.json({ operation: operationView(requireOperation(ctx, operation.id)) });
  });

  router.get('/ledger', (req, res) => {
    const query = parseOrRefuse(ledgerQuerySchema, req.query, 'query');
    res.json({ entries: ctx.ledger.entries(query) });
  });

  router.get('/balances', (_req, res) => {
    const users = new Map(ctx.users.list().map((user) => [`user:${user.id}`, user]));
    res.json({
      balances: ctx.ledger.balances().map((row) => {
        const user = users.get(row.account);
        return {
          ...row,
          balance: centavosToReais(row.balanceCents),
          ...(user ? { email: user.email, name: user.name } : {}),
        };
      }),
    });
  });

  router.get('/callbacks', (req, res) => {
    const query = parseOrRefuse(callbacksQuerySchema, req.query, 'query');
    res.json({ callbacks: ctx.outbox.list(query).map(callbackView) });
  });

  router.get('/callbacks/:id', (req, res) => {
    const record = ctx.outbox.byId(req.params.id);
    if (!record) throw providerError('NOT_FOUND', `No callback ${req.params.id}`);
    res.json({ callback: callbackView(record), attempts: ctx.outbox.attempts(record.id) });
  });

  router.post('/callbacks/:id/redeliver', (req, res) => {
    const record = ctx.outbox.redeliver(req.params.id, ctx.now(), ctx.config.SANDBOX_CALLBACK_MAX_ATTEMPTS);
    if (!record) throw providerError('NOT_FOUND', `No callback ${req.params.id}`);
    deps.wake();
    res.json({ callback: callbackView(record) });
  });

  router.get('/faults', (_req, res) => {
    res.json({ faults: ctx.faults.get() });
  });
  router.put('/faults', (req, res) => {
    ctx.faults.set(parseOrRefuse(faultsSchema, req.body ?? {}, 'body'));
    ctx.logger.info('sandbox.faults_set', { faults: ctx.faults.get() });
    res.json({ faults: ctx.faults.get() });
  });
  router.delete('/faults', (_req, res) => {
    ctx.faults.clear();
    // A request a fault holds is part of it: clearing ends it, so no test waits on a socket from its last one.
    deps.releaseHeld();
    res.json({ faults: ctx.faults.get() });
  });

  return router;
}
