/** The minimal payout's shapes, shared by its workflow (types only), its provider calls and its callback receiver. */
export interface MinimalPayoutInput {
  externalId: string;
  amountCents: number;
  pixKey: string;
  keyType: 'CPF' | 'EMAIL' | 'PHONE';
}

/** The transaction check's `transactionState` (COMPLETO and FALHA are final). */
export type CheckedState = string;

export interface MinimalPayoutResult {
  externalId: string;
  transactionId: string;
  state: CheckedState;
}

/** What the callback tells the workflow: a hint, which the check confirms. */
export interface CallbackHint {
  status: string;
}

export interface MinimalProviderCalls {
  submitWithdrawal(input: MinimalPayoutInput): Promise<{ transactionId: string }>;
  checkWithdrawal(transactionId: string): Promise<CheckedState>;
}

export const minimalPayoutWorkflowId = (externalId: string): string => `minimal-payout:${externalId}`;
