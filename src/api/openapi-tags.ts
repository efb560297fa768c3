/**
 * The engine document's tags: one per lifecycle, each operation under the one its path belongs to. A path that
 * no tag claims fails the document's build (and so every test that serves it): a new route names its lifecycle here.
 */
export const ENGINE_TAGS = [
  {
    name: 'Payouts',
    description:
      'PIX payouts (by key, copy-and-paste code), internal transfers and crypto withdrawals: one durable workflow per externalId, at most one withdrawal each.',
  },
  {
    name: 'Batches',
    description:
      'Many payouts in one request (JSON or a CSV as Excel pt-BR saves it), followed, paused, resumed or cancelled together, their outcomes exported as a spreadsheet.',
  },
  {
    name: 'Charges',
    description:
      'PIX charges (cash-in): a copy-and-paste code and QR picture for the payer, followed to PAID, EXPIRED or refunded.',
  },
  {
    name: 'Card payments',
    description:
      "Card payments paid on the engine's checkout page: the merchant creates the payment and sends the buyer its link; no card data reaches the merchant's API.",
  },
  {
    name: 'Checkout',
    description:
      "The buyer's checkout page and the calls it makes (a token in the link, no API key): not for the merchant's server.",
  },
  {
    name: 'Infractions',
    description:
      'MED infractions (Banco Central refund requests) read from the provider by a schedule, with their defense deadlines, and defended here.',
  },
  {
    name: 'Merchant events',
    description:
      "Signed events to the merchant's endpoints (Standard Webhooks) when an operation reaches a final state: the endpoints, the events and their deliveries. The payloads are under webhooks.",
  },
  {
    name: 'Provider callbacks',
    description:
      'What the payment provider calls: signed status callbacks, each a hint the engine confirms with the provider; and, for operators, the callbacks that named nothing known.',
  },
  { name: 'Health', description: 'Liveness and readiness, for the load balancer and the orchestrator.' },
];

type TagName = (typeof ENGINE_TAGS)[number]['name'];

/** Path prefixes to their tag, the most specific first. */
const TAG_OF_PATH: readonly [string, TagName][] = [
  ['/v1/payout-batches', 'Batches'],
  ['/v1/payouts', 'Payouts'],
  ['/v1/charges', 'Charges'],
  ['/v1/card-payments', 'Card payments'],
  ['/checkout/', 'Checkout'],
  ['/v1/infractions', 'Infractions'],
  ['/v1/webhook-endpoints', 'Merchant events'],
  ['/v1/events', 'Merchant events'],
  ['/v1/callbacks/', 'Provider callbacks'],
  ['/callbacks/', 'Provider callbacks'],
  ['/healthz', 'Health'],
  ['/readyz', 'Health'],
];

export function lifecycleTag(path: string): TagName {
  const found = TAG_OF_PATH.find(([prefix]) => path.startsWith(prefix));
  if (!found) throw new Error(`${path}: no tag of the engine document claims this path (src/api/openapi-tags.ts)`);
  return found[1];
}
