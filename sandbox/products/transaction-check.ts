/**
 * Endpoint 9: the status of any of the caller's operations, by the id the client chose or the one
 * the provider returned. Each product says how its operations look here (SandboxProduct.operationKinds),
 * so a new product plugs in without touching this file.
 */
import { centavosToReais } from '../../src/money/centavos';
import { providerError } from '../http/errors';
import type { OperationKind } from './product';
import { requireCaller, type SandboxProduct } from './product';

export function transactionCheckProduct(kinds: ReadonlyMap<string, OperationKind>): SandboxProduct {
  return {
    name: 'transaction-check',
    routes: {
      checkTransaction: {
        handle({ ctx, user, input }) {
          const caller = requireCaller(user);
          const operation = ctx.operations.findForUser(caller.id, input.transactionId);
          const kind = operation ? kinds.get(operation.product) : undefined;
          if (!operation || !kind)
            throw providerError('NOT_FOUND', `No transaction ${input.transactionId} for this client`);
          return {
            body: {
              message: 'Transaction found',
              transaction: {
                transactionId: operation.id,
                value: centavosToReais(operation.amountCents),
                fee: centavosToReais(operation.feeCents),
                ...kind.checkView(operation),
                createdAt: new Date(operation.createdAt).toISOString(),
                updatedAt: new Date(operation.updatedAt).toISOString(),
              },
            },
          };
        },
      },
    },
  };
}
