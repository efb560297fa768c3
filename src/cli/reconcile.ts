/**
 * `payouts reconcile <payoutId>`: the recheck endpoint from a terminal, for an operator settling a payout
 * that sits in NEEDS_REVIEW or whose workflow was terminated (docs/operations.md, "Terminate"). One line
 * says where the payout stands and why; the exit code says whether someone still has to look at it.
 */
import { EngineApiError, type EngineClient, type Payout } from '../client/engine-client';
import { printable } from '../validation/plain-text';

const SETTLED = ['COMPLETED', 'FAILED', 'CANCELLED'];

/** 0: settled, still settling by itself, or never sent; 2: it needs review. Errors other than "never sent" are thrown. `json`: the answer as JSON. */
export async function reconcilePayout(
  client: EngineClient,
  externalId: string,
  json: boolean,
  out: (line: string) => void,
): Promise<number> {
  let payout: Payout;
  try {
    payout = await client.recheckPayout(externalId);
  } catch (error) {
    if (error instanceof EngineApiError && error.body.code === 'PAYOUT_NEVER_SENT') {
      out(json ? JSON.stringify(error.body) : printable(`Payout ${externalId}: never sent. ${error.body.message}.`));
      return 0;
    }
    throw error;
  }
  out(json ? JSON.stringify(payout) : printable(`Payout ${externalId}: ${payout.status}${describe(payout)}`));
  return payout.status === 'NEEDS_REVIEW' || payout.workflowStatus !== undefined ? 2 : 0;
}

function describe(payout: Payout): string {
  const provider = payout.providerTransactionId ? ` (provider transaction ${payout.providerTransactionId})` : '';
  if (payout.status === 'NEEDS_REVIEW') return `: ${payout.reviewReason ?? 'no reason recorded'}${provider}.`;
  if (payout.workflowStatus)
    return `: its workflow is ${payout.workflowStatus} and was not re-run; its submission intent is ${payout.submission?.intent ?? 'unknown'}.`;
  if (payout.status === 'FAILED') return `: ${payout.failureReason ?? 'failed at the provider'}${provider}.`;
  if (SETTLED.includes(payout.status)) return `${provider}.`;
  return `: still being settled from the provider${provider}; it goes on by itself (follow it with GET /v1/payouts/${payout.externalId}).`;
}
