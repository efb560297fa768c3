/** Single payouts through `POST /v1/payouts`, as a merchant sends them: what the paced and the open-workflow phases submit. */
import type { Client } from '@temporalio/client';

/** The engine API a phase sends its payouts to. */
export interface EngineApi {
  url: string;
  apiKey: string;
}

/** What a phase of payouts through the engine takes: its API, the Temporal client that counts their workflows, its time limit. */
export interface PayoutPhase {
  engine: EngineApi;
  client: Client;
  timeoutMs: number;
}

export interface SinglePayoutItem {
  externalId: string;
  amount: number;
  pixKey: string;
  keyType: 'CPF';
}

/** Submits one payout; throws unless the API accepted it (202). */
export async function submitPayout(engine: EngineApi, item: SinglePayoutItem): Promise<void> {
  const response = await fetch(`${engine.url}/v1/payouts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${engine.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(item),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  if (response.status !== 202)
    throw new Error(`payout ${item.externalId}: HTTP ${response.status} ${text.slice(0, 200)}`);
}

/** Visibility's count of the workflows a query matches (the bench's way to wait for a phase's payouts, never result()). */
export async function countWorkflows(client: Client, query: string): Promise<number> {
  return (await client.workflow.count(query)).count;
}
