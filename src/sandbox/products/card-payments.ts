/**
 * Card payments: endpoint 2 (POST /api/v1/card/payments) and endpoint 3 (GET /api/v1/card/payments/:id),
 * Bearer. No client id in the request, so no de-duplication (docs/assumptions.md §2). Card payments are
 * not a transaction-check kind (the spec's check covers PIX, withdrawals, crypto and transfers); GET by
 * id is their truth. The logic lives in ./card-payments/payment.ts.
 */
import type { SandboxContext } from '../context';
import type { Job } from '../jobs/scheduler';
import {
  CARD_PAYMENT_PRODUCT,
  CARD_SETTLE_JOB,
  cardPaymentData,
  cardPaymentDetailsData,
  cardPaymentMigrations,
  createCardPayment,
  findCardPayment,
  settleCardPayment,
} from './card-payments/payment';
import { requireCaller, type SandboxProduct } from './product';

export {
  CARD_DECLINED_HOLDER,
  CARD_DECLINED_REASON,
  CARD_FEE_BASIS_POINTS,
  CARD_IN_ACCOUNT,
  CARD_PAYMENT_PRODUCT,
  CARD_PROVIDER_NAME,
  CARD_REFUSED_HOLDER,
  cardFeeCents,
} from './card-payments/payment';

function settleJob(ctx: SandboxContext, job: Job): void {
  const operation = job.operationId ? ctx.operations.byId(job.operationId) : undefined;
  if (!operation || operation.product !== CARD_PAYMENT_PRODUCT) throw new Error(`card settlement job ${job.id}: no card payment ${job.operationId}`);
  settleCardPayment(ctx, operation, job.payload.status === 'FAILED' ? 'FAILED' : 'COMPLETED');
}

export const cardPaymentsProduct: SandboxProduct = {
  name: 'card-payments',
  migrations: cardPaymentMigrations,
  routes: {
    createCardPayment: {
      movesMoney: true,
      handle({ ctx, user, input }) {
        const operation = createCardPayment(ctx, requireCaller(user), input);
        ctx.logger.info('sandbox.card_payment_created', { operationId: operation.id, status: operation.status, installments: input.installmentCount });
        return { body: { message: 'Card payment created', data: cardPaymentData(operation) } };
      },
    },
    getCardPayment: {
      handle({ ctx, user, params }) {
        const operation = findCardPayment(ctx, requireCaller(user), params.id);
        return { body: { message: 'Card payment found', data: cardPaymentDetailsData(operation) } };
      },
    },
  },
  jobs: { [CARD_SETTLE_JOB]: settleJob },
};
