/**
 * Starting a card payment workflow: the business id as workflow id, never reused; in the memo what a
 * repeated request and the checkout page need without a worker (the request's hash, the expiry, the
 * installments); the search attributes set by the start request.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { CARD_PAYMENT_FLOW, cardPaymentWorkflowId, type CardPaymentWorkflow } from '../contracts/card-payment';
import type { CardPaymentInput } from '../card-payments/card-payment-input';
import { cardPaymentDetails, cardPaymentSummary } from '../card-payments/summary';
import { CardPaymentStatus } from '../temporal/search-attributes';
import { lifecycleHandle, startAttributes } from './lifecycle-client';

/** The workflow's contract (ids, states, signals, queries, updates, view): code outside workflows/ takes it from here. */
export * from '../contracts/card-payment';

/** A card payment's workflow by its externalId. */
export const cardPaymentHandle = lifecycleHandle<CardPaymentWorkflow>(cardPaymentWorkflowId);

export interface CardPaymentMemo {
  requestHash: string;
  expiresAt: string;
  installmentCount: number;
}

/** The memo as written by startCardPaymentWorkflow; undefined for anything else. */
export function readCardPaymentMemo(memo: Record<string, unknown> | undefined): CardPaymentMemo | undefined {
  const { requestHash, expiresAt, installmentCount } = memo ?? {};
  if (typeof requestHash !== 'string' || typeof expiresAt !== 'string' || typeof installmentCount !== 'number')
    return undefined;
  return { requestHash, expiresAt, installmentCount };
}

/** 'exists' when a workflow with this payment's id was already started (running or closed). */
export async function startCardPaymentWorkflow(
  client: Client,
  input: CardPaymentInput,
  taskQueue: string,
): Promise<'started' | 'exists'> {
  const memo: CardPaymentMemo = {
    requestHash: input.requestHash,
    expiresAt: input.expiresAt,
    installmentCount: input.order.installmentCount,
  };
  try {
    await client.workflow.start<CardPaymentWorkflow>('cardPaymentWorkflow', {
      workflowId: cardPaymentWorkflowId(input.order.externalId),
      taskQueue,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      memo: { ...memo },
      typedSearchAttributes: startAttributes(
        CARD_PAYMENT_FLOW,
        [CardPaymentStatus, 'AWAITING_CARD'],
        input.order.amountCents,
      ),
      staticSummary: cardPaymentSummary(input),
      staticDetails: cardPaymentDetails(input),
    });
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'exists';
    throw error;
  }
}
