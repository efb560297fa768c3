/**
 * The double's callbacks: an unsigned JSON POST, one attempt, no retry (the document shows no delivery
 * guarantee). What the client answered is kept for the tests.
 */
import type { DoubleState, Operation } from './double-state';
import { centavosToReais } from './double-state';

const CALLBACK_TIMEOUT_MS = 5_000;

export async function sendCallback(state: DoubleState, url: string | undefined, body: unknown): Promise<void> {
  if (!url) return;
  let answer: number | string;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    answer = response.status;
  } catch (error) {
    answer = error instanceof Error ? error.message : String(error);
  }
  state.callbacks.push({ url, body, answer });
}

/** A withdrawal's or copy-and-paste payment's final status (payload not shown by the document: the double's own). */
export function payoutStatusPayload(operation: Operation): Record<string, unknown> {
  return { id: operation.id, state: operation.state, ...(operation.motivo ? { motivo: operation.motivo } : {}) };
}

/** A charge's status change (payload not shown by the document: the double's own). */
export function chargeStatusPayload(operation: Operation): Record<string, unknown> {
  return { id: operation.id, state: operation.state, valor: centavosToReais(operation.amountCents) };
}
