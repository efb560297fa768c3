/**
 * Card payments: endpoint 2 (POST /api/v1/card/payments) and endpoint 3 (GET /api/v1/card/payments/:id),
 * Bearer. No client id in the request, so no de-duplication (docs/assumptions.md §2). Card payments are
 * not a transaction-check kind (the spec's check covers PIX, withdrawals, crypto and transfers); GET by
 * id is their truth. The logic lives in ./card-payments/payment.ts; the browser's side of the card
 * flow (shield.js, 3DS sessions, the challenge page) in ./card-payments/shield/.
 */
import { amountCurrencyProblem } from '../../src/payment-api/schemas/card';
import { normalizePhone, PHONE_FORMS } from '../../src/validation/phone';
import { providerError } from '../http/errors';
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
import { shieldRouter } from './card-payments/shield/routes';
import { requireCaller, type SandboxProduct } from './product';

export {
  CARD_FEE_BASIS_POINTS,
  CARD_IN_ACCOUNT,
  CARD_PAYMENT_PRODUCT,
  CARD_PROVIDER_NAME,
  cardFeeCents,
} from './card-payments/payment';
export { TEST_CARDS } from './card-payments/test-cards';

function settleJob(ctx: SandboxContext, job: Job): void {
  const operation = job.operationId ? ctx.operations.byId(job.operationId) : undefined;
  if (!operation || operation.product !== CARD_PAYMENT_PRODUCT)
    throw new Error(`card settlement job ${job.id}: no card payment ${job.operationId}`);
  settleCardPayment(ctx, operation, job.payload.status === 'FAILED' ? 'FAILED' : 'COMPLETED');
}

export const cardPaymentsProduct: SandboxProduct = {
  name: 'card-payments',
  migrations: cardPaymentMigrations,
  routes: {
    createCardPayment: {
      movesMoney: true,
      handle({ ctx, user, input }) {
        const amountProblem = amountCurrencyProblem(input);
        if (amountProblem)
          throw providerError('INVALID_AMOUNT', 'The amount cannot be charged in the card currency', [
            { path: 'amount', message: amountProblem },
          ]);
        const phone = normalizePhone(input.payer.phone);
        if (phone === undefined)
          throw providerError('INVALID_PHONE', 'The payer phone is not a phone number', [
            { path: 'payer.phone', message: `must be a phone number: ${PHONE_FORMS}` },
          ]);
        const operation = createCardPayment(ctx, requireCaller(user), { ...input, payer: { ...input.payer, phone } });
        ctx.logger.info('sandbox.card_payment_created', {
          operationId: operation.id,
          status: operation.status,
          installments: input.installmentCount,
        });
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
  browserRoutes: shieldRouter,
};
