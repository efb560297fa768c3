/**
 * Endpoints 11 and 11a: moving balance to another user of the environment, addressed by e-mail.
 * Settles at once (one ledger entry); there is no client id in the request, so no de-duplication.
 */
import { centavosToReais, reaisToCentavos } from '../../src/money/centavos';
import { providerError } from '../http/errors';
import { ACCOUNTS } from '../ledger/ledger';
import { newOperationId } from '../store/operations';
import { INTERNAL_TRANSFER_FEE_CENTS } from './fees';
import { requireCaller, type SandboxProduct } from './product';

export const INTERNAL_TRANSFER_PRODUCT = 'internal-transfer';

export const internalTransfersProduct: SandboxProduct = {
  name: 'internal-transfers',
  routes: {
    internalTransfer: {
      movesMoney: true,
      handle({ ctx, user, input }) {
        const sender = requireCaller(user);
        const recipient = ctx.users.byEmail(input.email);
        if (!recipient)
          throw providerError('RECIPIENT_NOT_FOUND', 'email does not belong to a user of this environment');
        if (recipient.id === sender.id) {
          throw providerError(
            'RECIPIENT_NOT_FOUND',
            'email is your own account: the recipient must be another user of this environment',
          );
        }
        const amountCents = reaisToCentavos(input.amount);
        const { operationId, newBalanceCents } = ctx.db.transaction(() => {
          const operation = ctx.operations.insert({
            id: newOperationId('it'),
            userId: sender.id,
            product: INTERNAL_TRANSFER_PRODUCT,
            externalId: null,
            status: 'COMPLETED',
            amountCents,
            feeCents: INTERNAL_TRANSFER_FEE_CENTS,
            fingerprint: null,
            callbackUrl: null,
            details: {
              recipientUserId: recipient.id,
              ...(input.description !== undefined ? { description: input.description } : {}),
            },
          });
          ctx.ledger.post({
            kind: 'internal-transfer',
            operationId: operation.id,
            externalId: null,
            lines: [
              { account: ACCOUNTS.user(sender.id), amountCents: -amountCents },
              { account: ACCOUNTS.user(recipient.id), amountCents },
            ],
          });
          return { operationId: operation.id, newBalanceCents: ctx.ledger.balance(ACCOUNTS.user(sender.id)) };
        })();
        ctx.logger.info('sandbox.internal_transfer_completed', {
          operationId,
          senderId: sender.id,
          recipientId: recipient.id,
        });
        return {
          body: {
            message: 'Internal transfer completed',
            data: {
              transactionId: operationId,
              amount: centavosToReais(amountCents),
              recipientEmail: recipient.email,
              recipientName: recipient.name,
              newBalance: centavosToReais(newBalanceCents),
            },
          },
        };
      },
    },
  },
  operationKinds: {
    [INTERNAL_TRANSFER_PRODUCT]: {
      checkView: () => ({
        transactionState: 'COMPLETO',
        transactionType: 'TRANSFERENCIA_INTERNA',
        transactionMethod: 'INTERNAL',
      }),
      isFinal: () => true,
    },
  },
};
