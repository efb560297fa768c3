/**
 * PIX cash-in: endpoint 10 (POST /api/transactions/create, ci/cs headers) and endpoint 6
 * (POST /api/payments/deposit, Bearer), one contract and one product (docs/assumptions.md §4.3).
 * The charge itself lives in ./cash-in/charge.ts; the payer is simulated by the admin call of
 * ./cash-in/admin.ts (`POST /sandbox/cash-ins/:transactionId/pay`).
 */
import type { SandboxContext } from '../context';
import type { Job } from '../jobs/scheduler';
import type { Operation } from '../store/operations';
import {
  CASH_IN_EXPIRE_JOB,
  CASH_IN_PRODUCT,
  cashInResponseBody,
  closeCashIn,
  openCashIn,
  payCashIn,
  type CashInChannel,
  type CashInInput,
} from './cash-in/charge';
import type { CheckView, OperationKind } from './product';
import { requireCaller, type SandboxProduct } from './product';
import type { SandboxUser } from '../store/users';

import { cashInAdminRoutes } from './cash-in/admin';
export { CASH_IN_PRODUCT, PIX_IN_ACCOUNT, cashInFeeCents, cashInTxid, CASH_IN_MERCHANT_CITY } from './cash-in/charge';

const CHECK_STATES: Record<string, CheckView['transactionState']> = {
  PENDING: 'PENDENTE',
  PAID: 'COMPLETO',
  EXPIRED: 'FALHA',
  FAILED: 'FALHA',
};

function createCharge(ctx: SandboxContext, user: SandboxUser | undefined, input: CashInInput, channel: CashInChannel) {
  const { operation, replayed } = openCashIn(ctx, requireCaller(user), input, channel);
  ctx.logger.info(replayed ? 'sandbox.cash_in_replayed' : 'sandbox.cash_in_created', {
    operationId: operation.id,
    externalId: operation.externalId,
    status: operation.status,
    channel,
  });
  return {
    body: cashInResponseBody(operation, replayed ? 'Charge already exists' : 'Charge created: pay the QR code'),
  };
}

function expireJob(ctx: SandboxContext, job: Job): void {
  const operation = job.operationId ? ctx.operations.byId(job.operationId) : undefined;
  if (!operation || operation.product !== CASH_IN_PRODUCT)
    throw new Error(`expiry job ${job.id}: no cash-in ${job.operationId}`);
  closeCashIn(ctx, operation, 'EXPIRED');
}

export const cashInOperationKind: OperationKind = {
  checkView: (operation: Operation) => ({
    transactionType: 'DEPOSITO',
    transactionMethod: 'PIX',
    transactionState: CHECK_STATES[operation.status] ?? 'PENDENTE',
  }),
  isFinal: (operation) => operation.status !== 'PENDING',
  // Admin "force outcome": COMPLETED = a payer pays it now; FAILED = the charge fails (nothing credited).
  forceOutcome: (ctx, operation, outcome) => {
    ctx.db.transaction(() => {
      if (outcome.status === 'COMPLETED') payCashIn(ctx, operation, {});
      else closeCashIn(ctx, operation, 'FAILED', outcome.reason ?? 'Charge failed (sandbox admin)');
    })();
  },
};

export const cashInProduct: SandboxProduct = {
  name: 'cash-in',
  routes: {
    // Creating a charge commits state the client must reconcile, so the timeoutAfterCommit fault applies.
    createPixCashIn: {
      movesMoney: true,
      handle: ({ ctx, user, input }) => createCharge(ctx, user, input, 'transactions/create'),
    },
    createDeposit: {
      movesMoney: true,
      handle: ({ ctx, user, input }) => createCharge(ctx, user, input, 'payments/deposit'),
    },
  },
  jobs: { [CASH_IN_EXPIRE_JOB]: expireJob },
  operationKinds: { [CASH_IN_PRODUCT]: cashInOperationKind },
  adminRoutes: cashInAdminRoutes,
};
