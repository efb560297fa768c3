/**
 * Starting a card payment workflow: the business id as workflow id, never reused; in the memo what a
 * repeated request and the checkout page need without a worker (the request's hash, the expiry, the
 * installments); the search attributes set by the start request.
 */
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  type SearchAttributePair,
} from '@temporalio/common';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { CARD_PAYMENT_FLOW, cardPaymentWorkflowId, type CardPaymentWorkflow } from '../contracts/card-payment';
import type { CardPaymentInput } from '../card-payments/card-payment-input';
import { cardPaymentDetails, cardPaymentSummary } from '../card-payments/summary';
import { AmountCents, CardPaymentStatus, Flow } from '../temporal/search-attributes';

/** The workflow's contract (ids, states, signals, queries, updates, view): code outside workflows/ takes it from here. */
export * from '../contracts/card-payment';

/** The handle every read, signal and update of one card payment goes through. */
export function cardPaymentHandle(client: Client, externalId: string): WorkflowHandle<CardPaymentWorkflow> {
  return client.workflow.getHandle<CardPaymentWorkflow>(cardPaymentWorkflowId(externalId));
}

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

/** Its flow, state and amount (no payer data), so it is findable as AWAITING_CARD before a worker has run it. */
function cardPaymentStartAttributes(input: CardPaymentInput): SearchAttributePair[] {
  return [
    { key: Flow, value: CARD_PAYMENT_FLOW },
    { key: CardPaymentStatus, value: 'AWAITING_CARD' },
    { key: AmountCents, value: input.order.amountCents },
  ];
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
