/**
 * Starting a card payment workflow: the business id as workflow id, never reused; in the memo what a
 * repeated request and the checkout page need without a worker (the request's hash, the expiry, the
 * installments); the search attributes set by the start request.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { cardPaymentWorkflowId, type CardPaymentWorkflow } from '../../workflows/card-payment/messages';
import { cardPaymentStartAttributes } from '../../workflows/card-payment/search-attributes';
import type { CardPaymentInput } from '../card-payments/card-payment-input';
import { cardPaymentDetails, cardPaymentSummary } from '../card-payments/summary';

export interface CardPaymentMemo {
  requestHash: string;
  expiresAt: string;
  installmentCount: number;
}

/** The memo as written by startCardPaymentWorkflow; undefined for anything else. */
export function readCardPaymentMemo(memo: Record<string, unknown> | undefined): CardPaymentMemo | undefined {
  const { requestHash, expiresAt, installmentCount } = memo ?? {};
  if (typeof requestHash !== 'string' || typeof expiresAt !== 'string' || typeof installmentCount !== 'number') return undefined;
  return { requestHash, expiresAt, installmentCount };
}

/** 'exists' when a workflow with this payment's id was already started (running or closed). */
export async function startCardPaymentWorkflow(client: Client, input: CardPaymentInput, taskQueue: string): Promise<'started' | 'exists'> {
  const memo: CardPaymentMemo = { requestHash: input.requestHash, expiresAt: input.expiresAt, installmentCount: input.order.installmentCount };
  try {
    await client.workflow.start<CardPaymentWorkflow>('cardPaymentWorkflow', {
      workflowId: cardPaymentWorkflowId(input.order.externalId),
      taskQueue,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      memo: { ...memo },
      typedSearchAttributes: cardPaymentStartAttributes(input),
      staticSummary: cardPaymentSummary(input),
      staticDetails: cardPaymentDetails(input),
    });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'exists';
    throw error;
  }
}
