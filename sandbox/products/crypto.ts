/**
 * Crypto (USDT) withdrawals: endpoint 12 (GET /api/crypto/fees), endpoint 13
 * (GET /api/crypto/status/:transactionId) and our creation endpoint POST /api/crypto/withdraw, all
 * Bearer. Settings in ./crypto/fees.ts, the withdrawal in ./crypto/withdrawal.ts.
 */
import type { SandboxContext } from '../context';
import { providerError } from '../http/errors';
import type { Job } from '../jobs/scheduler';
import { cryptoAdminRoutes, readCryptoFees } from './crypto/fees';
import {
  CRYPTO_PRODUCT,
  CRYPTO_SETTLE_JOB,
  cryptoCreateBody,
  cryptoStatusBody,
  openCryptoWithdrawal,
  settleCryptoWithdrawal,
} from './crypto/withdrawal';
import type { CheckView, OperationKind } from './product';
import { requireCaller, type SandboxProduct } from './product';

export { cryptoFeeCents, DEFAULT_CRYPTO_FEES, readCryptoFees, type CryptoFees } from './crypto/fees';
export { CRYPTO_ACCOUNTS, CRYPTO_PRODUCT, CRYPTO_RULE_FAILED_REASON } from './crypto/withdrawal';

const CHECK_STATES: Record<string, CheckView['transactionState']> = {
  PROCESSING: 'PROCESSING',
  COMPLETED: 'COMPLETO',
  FAILED: 'FALHA',
};

function settleJob(ctx: SandboxContext, job: Job): void {
  const operation = job.operationId ? ctx.operations.byId(job.operationId) : undefined;
  if (!operation || operation.product !== CRYPTO_PRODUCT)
    throw new Error(`crypto settlement job ${job.id}: no crypto withdrawal ${job.operationId}`);
  const reason = typeof job.payload.reason === 'string' ? job.payload.reason : undefined;
  settleCryptoWithdrawal(ctx, operation, {
    status: job.payload.status === 'FAILED' ? 'FAILED' : 'COMPLETED',
    ...(reason ? { reason } : {}),
  });
}

export const cryptoOperationKind: OperationKind = {
  checkView: (operation) => ({
    transactionType: 'SAQUE_CRIPTO',
    transactionMethod: 'CRYPTO',
    transactionState: CHECK_STATES[operation.status] ?? 'PROCESSING',
  }),
  isFinal: (operation) => operation.status !== 'PROCESSING',
  forceOutcome: (ctx, operation, outcome) => {
    ctx.db.transaction(() => settleCryptoWithdrawal(ctx, operation, outcome))();
  },
};

export const cryptoProduct: SandboxProduct = {
  name: 'crypto',
  routes: {
    getCryptoFees: {
      handle: ({ ctx }) => ({ body: readCryptoFees(ctx) }),
    },
    createCryptoWithdrawal: {
      movesMoney: true,
      handle({ ctx, user, input }) {
        const { operation, replayed } = openCryptoWithdrawal(ctx, requireCaller(user), input);
        ctx.logger.info(replayed ? 'sandbox.crypto_withdrawal_replayed' : 'sandbox.crypto_withdrawal_accepted', {
          operationId: operation.id,
          externalId: operation.externalId,
          status: operation.status,
        });
        return { body: cryptoCreateBody(operation, 'Crypto withdrawal received and is being processed') };
      },
    },
    getCryptoStatus: {
      handle({ ctx, user, params }) {
        const caller = requireCaller(user);
        const operation = ctx.operations.findForUser(caller.id, params.transactionId);
        if (!operation || operation.product !== CRYPTO_PRODUCT)
          throw providerError('NOT_FOUND', `No crypto withdrawal ${params.transactionId} for this client`);
        return { body: cryptoStatusBody(operation) };
      },
    },
  },
  jobs: { [CRYPTO_SETTLE_JOB]: settleJob },
  operationKinds: { [CRYPTO_PRODUCT]: cryptoOperationKind },
  // Writes the default settings on first start, so the fees are visible in the database at once.
  onStart: (ctx) => {
    readCryptoFees(ctx);
  },
  adminRoutes: cryptoAdminRoutes,
};
