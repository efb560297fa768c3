/**
 * The bare payout's local activities (tools/bench/bare-payout-workflow.ts): no work, answers of the shapes
 * the payout's own activities give (so that their markers weigh alike), and one line each to the stand-in
 * provider (tools/bench/bare-signaller.ts) over a socket kept open: "submitted <workflowId>" asks it for the
 * callback, "settled <workflowId>" is the outcome a payout records in its batch store, which the bench
 * paces its window by.
 */
import { createConnection, type Socket } from 'node:net';
import type { PayoutInput } from '../../src/payouts/payout-input';
import { payoutWorkflowId } from '../../src/lifecycles/payout-client';

export interface BareSubmission {
  kind: 'submitted';
  transactionId: string;
  providerStatus: string;
  feeCents: number;
  totalCents: number;
  reconciled: boolean;
}

export interface BareCheck {
  kind: 'found';
  state: 'COMPLETED';
  providerState: string;
  transactionId: string;
  feeCents: number;
}

export interface BareSettlement {
  externalId: string;
  state: string;
  amountCents: number;
  feeCents: number;
  providerTransactionId: string;
  callbacksReceived: number;
  checksMade: number;
}

const FEE_CENTS = 125;

export function createBareActivities(signallerPort: number) {
  let socket: Socket | undefined;
  const tell = (line: string): void => {
    // A lost connection is opened again on the next line; a line lost with it leaves its payout to its timer.
    socket ??= createConnection({ host: '127.0.0.1', port: signallerPort })
      .setNoDelay(true)
      .on('error', () => {
        socket = undefined;
      });
    socket.write(`${line}\n`);
  };
  return {
    submitWithdrawal(input: PayoutInput): Promise<BareSubmission> {
      tell(`submitted ${payoutWorkflowId(input.externalId)}`);
      return Promise.resolve({
        kind: 'submitted',
        transactionId: `bare-${input.externalId}`,
        providerStatus: 'PROCESSING',
        feeCents: FEE_CENTS,
        totalCents: input.amountCents + FEE_CENTS,
        reconciled: false,
      });
    },
    checkWithdrawal(ref: { method: string; externalId: string; providerTransactionId: string }): Promise<BareCheck> {
      return Promise.resolve({
        kind: 'found',
        state: 'COMPLETED',
        providerState: 'COMPLETED',
        transactionId: ref.providerTransactionId,
        feeCents: FEE_CENTS,
      });
    },
    settlePayout(settlement: BareSettlement): Promise<void> {
      tell(`settled ${settlement.externalId}`);
      return Promise.resolve();
    },
  };
}
export type BareActivities = ReturnType<typeof createBareActivities>;
