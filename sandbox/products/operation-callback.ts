/**
 * What every product does once an operation's status moved: read it back as written, and tell the client at the
 * callback URL its request named (none named: nothing sent). The payload is held to the shape the engine reads
 * (src/payment-api/schemas) before it is queued, so the sandbox never sends what its own interface refuses.
 */
import type { z } from 'zod';
import type { SandboxContext } from '../context';
import type { Operation } from '../store/operations';

/** The operation as the write inside this transaction left it. */
export function rereadOperation(ctx: SandboxContext, id: string): Operation {
  const operation = ctx.operations.byId(id);
  if (!operation) throw new Error(`operation ${id} vanished after its own write`);
  return operation;
}

/** The operation read back after the write that moved its status, logged as `event`: its id, `about` it, its new status. */
export function rereadMoved(ctx: SandboxContext, id: string, event: string, about: Record<string, unknown>): Operation {
  const moved = rereadOperation(ctx, id);
  ctx.logger.info(event, { operationId: moved.id, ...about, status: moved.status });
  return moved;
}

/** `type` is the callback family (`Withdrawal`, `Card`, ...), as in the payload's own `type`. */
export function sendOperationCallback(
  ctx: SandboxContext,
  operation: Operation,
  type: string,
  schema: z.ZodType,
  payload: unknown,
): void {
  if (!operation.callbackUrl) return;
  schema.parse(payload);
  ctx.enqueueCallback({ operationId: operation.id, type, url: operation.callbackUrl, payload });
}
