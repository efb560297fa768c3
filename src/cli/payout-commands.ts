/**
 * `payouts get`, `payouts list` and `payouts events`: one payout, a page of the list (with its filters) and
 * a payout's events, read from the engine API as a person reads them, or as JSON (`--json`) for a script.
 * Every text that comes from the server goes out through `printable`.
 */
import type { EngineClient, Payout, PayoutListItem, PayoutListQuery } from '../client/engine-client';
import { printable } from '../validation/plain-text';
import { formatReais } from './batch-progress';

type Out = (line: string) => void;

const reais = (amount: number | undefined): string => (amount === undefined ? '' : formatReais(amount));

function destination(payout: Pick<Payout, 'keyType' | 'pixKey'>): string {
  return payout.pixKey ? ` to ${payout.keyType ?? ''} ${payout.pixKey}`.replace('  ', ' ') : '';
}

function listLine(item: PayoutListItem): string {
  const fee = item.fee === undefined ? '' : ` (fee ${reais(item.fee)})`;
  const why = item.failureReason ?? item.reviewReason;
  return printable(
    `${item.createdAt}  ${item.externalId}  ${item.status}  ${item.method}  ${reais(item.amount)}${fee}${destination(item)}${item.batchId ? `  batch ${item.batchId}` : ''}${why ? `: ${why}` : ''}`,
  );
}

export async function getCommand(client: EngineClient, externalId: string, json: boolean, out: Out): Promise<void> {
  const payout = await client.getPayout(externalId);
  if (json) return out(JSON.stringify(payout));
  const fee = payout.fee === undefined ? '' : `, fee ${reais(payout.fee)}, total ${reais(payout.total)}`;
  out(
    printable(
      `Payout ${payout.externalId}: ${payout.status}, ${payout.method}, ${reais(payout.amount)}${fee}${destination(payout)}`,
    ),
  );
  if (payout.providerTransactionId)
    out(
      printable(
        `  provider transaction ${payout.providerTransactionId}${payout.providerState ? ` (${payout.providerState})` : ''}`,
      ),
    );
  if (payout.failureReason) out(printable(`  failed: ${payout.failureReason}`));
  if (payout.reviewReason && payout.status === 'NEEDS_REVIEW') out(printable(`  needs review: ${payout.reviewReason}`));
  if (payout.batchId) out(printable(`  batch ${payout.batchId}`));
  for (const transition of payout.transitions)
    out(printable(`  ${transition.at}  ${transition.from ?? '-'} -> ${transition.to}: ${transition.cause}`));
}

export async function listCommand(
  client: EngineClient,
  query: PayoutListQuery,
  json: boolean,
  out: Out,
): Promise<void> {
  const page = await client.listPayouts(query);
  if (json) return out(JSON.stringify(page));
  if (page.data.length === 0) out('No payouts.');
  for (const item of page.data) out(listLine(item));
  if (page.nextCursor) out(printable(`More: payouts list … --cursor ${page.nextCursor}`));
}

export async function eventsCommand(client: EngineClient, externalId: string, json: boolean, out: Out): Promise<void> {
  const events = await client.payoutEvents(externalId);
  if (json) return out(JSON.stringify(events));
  if (events.data.length === 0) out(printable(`No events of payout ${externalId} yet.`));
  for (const event of events.data) out(printable(`${event.createdAt}  ${event.type}  ${event.id}`));
}
