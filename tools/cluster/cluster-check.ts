/**
 * `CLUSTER_CHECK=1 npm run cluster`: the smoke of a cluster. A batch of a few hundred payouts and one of
 * each other lifecycle (a PIX charge, a card payment through its checkout, a MED infraction against the
 * charge, the batch itself, the merchant events of them all to a receiver), while one worker is killed
 * with SIGKILL (a quarter of the batch done) and the Temporal server is killed and started again (half
 * of it done). Then every payout is checked against the provider's ledger by the chaos run's checker,
 * and every event against what the receiver got. One JSON line says what the server is and how it went.
 */
import { randomBytes } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { z } from 'zod';
import {
  batchAcceptedSchema,
  batchItemsResponseSchema,
  batchSummarySchema,
  type BatchItemResponse,
} from '../../src/api/batches/schemas';
import { endpointWithSecretSchema, eventResponseSchema } from '../../src/api/merchant-events/schemas';
import { benchItems } from '../bench/engine-run';
import { checkTrial, type LedgerEntryView, type PayoutReading, type TrialVerdict } from '../chaos/checker';
import type { Supervisor } from '../chaos/supervisor';
import { startWebhookReceiver, type WebhookReceiver } from '../stack/webhook-receiver';
import { SEEDED_USERS } from '../../sandbox';
import { pollUntil } from '../../src/util/poll';
import { verifyMerchantWebhook } from '../../src/merchant-events/merchant-webhook-signature';
import type { MerchantEventType } from '../../src/merchant-events/merchant-event';
import type { Cluster } from './cluster-stack';
import { acceptedInfraction, paidCardPayment, paidCharge } from './lifecycles';
import { StackClient } from './stack-client';

export const LIFECYCLES = ['payout', 'charge', 'cardPayment', 'infraction', 'batch', 'merchantEvent'] as const;
type Lifecycle = (typeof LIFECYCLES)[number];

export interface ClusterCheckReport {
  temporal: string;
  persistence: string;
  shards: number;
  workers: number;
  payouts: number;
  completed: number;
  lost: number;
  doubleDebits: number;
  /** "ok", or where it stopped. */
  lifecycles: Record<Lifecycle, string>;
}

/** The engine's and the sandbox's waits in the check: short enough for a run of a minute or two, production's otherwise. */
export const CLUSTER_CHECK_ENV = {
  SANDBOX_SETTLE_MS: '200',
  SANDBOX_CALLBACK_RETRY_BASE_MS: '200',
  SANDBOX_INFRACTION_RESOLVE_MS: '0',
  PAYOUT_CALLBACK_WAIT_MS: '2000',
  PAYOUT_POLL_INITIAL_MS: '500',
  PAYOUT_POLL_MAX_MS: '2000',
  MERCHANT_WEBHOOK_RETRY_INITIAL_MS: '500',
  MERCHANT_WEBHOOK_RETRY_MAX_MS: '2000',
  ENGINE_RATE_LIMIT_PER_MINUTE: '1000000',
  BATCH_POLL_MS: '250',
  // The check's merchant receiver listens on loopback, which the engine refuses unless told (never in production).
  WEBHOOK_ALLOW_LOOPBACK: 'true',
} as const;

const EVENT_TYPES: readonly MerchantEventType[] = [
  'payout_batch.completed',
  'charge.paid',
  'charge.partially_refunded',
  'card_payment.paid',
  'infraction.accepted',
];
const FINAL_STATES = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);
const ledgerSchema = z.object({
  entries: z.array(
    z.object({
      externalId: z.string().nullable(),
      lines: z.array(z.object({ account: z.string(), amountCents: z.number().int() })),
    }),
  ),
});
const payoutReadingSchema = z.object({ status: z.string(), reviewReason: z.string().optional() });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function checkPassed(report: ClusterCheckReport): boolean {
  return (
    report.lost === 0 &&
    report.doubleDebits === 0 &&
    report.completed === report.payouts &&
    Object.values(report.lifecycles).every((result) => result === 'ok')
  );
}

/** What the server says it is: its version, its store, its shards. */
async function describeServer(
  address: string,
): Promise<Pick<ClusterCheckReport, 'temporal' | 'persistence' | 'shards'>> {
  const connection = await Connection.connect({ address });
  try {
    const info = await connection.workflowService.getClusterInfo({});
    const store = info.persistenceStore ?? 'unknown';
    return {
      temporal: info.serverVersion ?? 'unknown',
      persistence: store.startsWith('postgres') ? 'postgres' : store,
      shards: info.historyShardCount ?? 0,
    };
  } finally {
    await connection.close();
  }
}

/** Kills `part` with SIGKILL and starts it again after `downMs`, as a crash and its supervisor's restart. */
async function crash(part: Supervisor, downMs: number, log: (line: string) => void): Promise<void> {
  if (!(await part.kill())) throw new Error(`${part.name} was not up to be killed`);
  log(`cluster check: killed ${part.name} (SIGKILL), down for ${downMs} ms`);
  await sleep(downMs);
  await part.start();
  log(`cluster check: ${part.name} is up again`);
}

async function batchItems(client: StackClient, batchId: string): Promise<BatchItemResponse[]> {
  const items: BatchItemResponse[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.engine(
      'GET',
      `/v1/payout-batches/${batchId}/items?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      batchItemsResponseSchema,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** Every payout of the batch against the provider's ledger: the chaos run's verdict. */
async function payoutVerdict(
  client: StackClient,
  batchId: string,
  submitted: readonly string[],
): Promise<TrialVerdict> {
  const items = await batchItems(client, batchId);
  const payouts = new Map<string, PayoutReading>();
  for (const item of items.filter((each) => !FINAL_STATES.has(each.status))) {
    const payout = await client.engineIfKnown(
      `/v1/payouts/${encodeURIComponent(item.externalId)}`,
      payoutReadingSchema,
    );
    payouts.set(
      item.externalId,
      payout
        ? { known: true, ...(payout.reviewReason ? { reviewReason: payout.reviewReason } : {}) }
        : { known: false },
    );
  }
  const ledger: LedgerEntryView[] = (await client.admin('GET', '/sandbox/ledger', ledgerSchema)).entries;
  // The batch holds PIX-key payouts only: no internal transfer to find by its provider id.
  return checkTrial({
    submitted,
    items,
    ledger,
    merchantAccount: `user:${SEEDED_USERS.merchant.id}`,
    transfers: new Map(),
    payouts,
    neverSettling: new Set(),
  });
}

function payoutResult(verdict: TrialVerdict): string {
  if (verdict.problems.length === 0 && verdict.completed === verdict.payouts) return 'ok';
  return `${verdict.completed} of ${verdict.payouts} COMPLETED; ${verdict.problems.slice(0, 3).join('; ')}`;
}

/** An event the check expects: its type and the id of what it is about. */
type ExpectedEvent = readonly [MerchantEventType, string];

const subjectOf = (data: Record<string, unknown>): string => {
  const subject = data.externalId ?? data.batchId ?? data.infractionId;
  return typeof subject === 'string' ? subject : '';
};

/** Each expected event reached the receiver (at least once, the same id on every attempt) with a valid signature, and the engine shows it DELIVERED. */
async function eventsDelivered(
  client: StackClient,
  receiver: WebhookReceiver,
  secret: string,
  expected: readonly ExpectedEvent[],
): Promise<void> {
  const deliveriesOf = ([type, subject]: ExpectedEvent) =>
    receiver.received.filter((each) => each.event.type === type && subjectOf(each.event.data) === subject);
  await pollUntil(() => (expected.every((event) => deliveriesOf(event).length > 0) ? true : undefined), {
    timeoutMs: 120_000,
    intervalMs: 250,
    description: `${expected.map(([type, subject]) => `${type} of ${subject}`).join(', ')} at the receiver`,
  });
  for (const event of expected) {
    const deliveries = deliveriesOf(event);
    const ids = new Set(deliveries.map((each) => each.event.id));
    if (ids.size !== 1) throw new Error(`${event[0]} of ${event[1]} came with ${ids.size} different ids`);
    for (const delivery of deliveries) {
      const verified = verifyMerchantWebhook({ rawBody: delivery.rawBody, headers: delivery.headers, secret });
      if (!verified.ok) throw new Error(`event ${delivery.event.id} failed its signature check (${verified.reason})`);
    }
    const [id] = ids;
    await pollUntil(
      async () =>
        (await client.engine('GET', `/v1/events/${id}`, eventResponseSchema)).status === 'DELIVERED' ? true : undefined,
      {
        timeoutMs: 60_000,
        intervalMs: 500,
        description: `event ${id} to be DELIVERED`,
      },
    );
  }
}

/** A lifecycle's result as the report shows it. */
const outcome = (work: Promise<unknown>): Promise<string> =>
  work.then(
    () => 'ok',
    (error: unknown) => message(error),
  );

export async function runClusterCheck(
  cluster: Cluster,
  options: { payouts: number; log: (line: string) => void },
): Promise<ClusterCheckReport> {
  const { log } = options;
  const run = randomBytes(4).toString('hex');
  const client = StackClient.of(cluster);
  const server = await describeServer(cluster.temporalAddress);
  const receiver = await startWebhookReceiver();
  try {
    const endpoint = await client.engine('POST', '/v1/webhook-endpoints', endpointWithSecretSchema, {
      url: receiver.url,
      events: EVENT_TYPES,
    });
    const batchId = `cluster-check-${run}`;
    const items = benchItems(options.payouts, batchId);
    await client.engine('POST', '/v1/payout-batches', batchAcceptedSchema, { batchId, items });
    log(`cluster check: batch ${batchId} of ${items.length} payouts accepted`);

    const summary = () => client.engine('GET', `/v1/payout-batches/${batchId}`, batchSummarySchema);
    const progress = async (): Promise<number> => {
      const { counts } = await summary();
      return (
        (['COMPLETED', 'FAILED', 'CANCELLED', 'NEEDS_REVIEW'] as const).reduce(
          (sum, state) => sum + counts[state].count,
          0,
        ) / items.length
      );
    };
    const whenDone = (fraction: number) =>
      pollUntil(async () => ((await progress()) >= fraction ? true : undefined), {
        timeoutMs: 600_000,
        intervalMs: 250,
        description: `${fraction * 100} % of the batch`,
      });
    // Done is the batch workflow's word (it closed the batch), not only every item final.
    const batchClosed = () =>
      pollUntil(async () => ((await summary()).done ? true : undefined), {
        timeoutMs: 600_000,
        intervalMs: 500,
        description: `batch ${batchId} to be done`,
      });

    const chargeId = `cc${run}`;
    const cardPaymentId = `card${run}`;
    const charge = paidCharge(client, chargeId);
    const infraction = charge.then((paid) => acceptedInfraction(client, paid));
    const lifecycles = Promise.all([
      outcome(charge),
      outcome(paidCardPayment(client, cardPaymentId)),
      outcome(infraction),
    ]);
    // Each kill when its share of the batch is final, whether or not the other part is back yet.
    const crashAt = async (fraction: number, part: Supervisor, downMs: number): Promise<void> => {
      await whenDone(fraction);
      log(`cluster check: ${Math.round((await progress()) * 100)} % of the batch final`);
      await crash(part, downMs, log);
    };
    const chaos = Promise.all([
      crashAt(0.25, cluster.parts.workers[0] as Supervisor, 2_000),
      crashAt(0.5, cluster.parts.temporal, 3_000),
    ]);
    const batch = await outcome(chaos.then(batchClosed));
    log(`cluster check: batch ${batch === 'ok' ? 'done' : batch}`);
    const [chargeResult, cardPaymentResult, infractionResult] = await lifecycles;
    log(`cluster check: charge ${chargeResult}, card payment ${cardPaymentResult}, infraction ${infractionResult}`);

    const verdict = await payoutVerdict(
      client,
      batchId,
      items.map((item) => item.externalId),
    );
    for (const problem of verdict.problems.slice(0, 20)) log(`cluster check: ${problem}`);
    const infractionId = await infraction.then(
      ({ infraction: { infractionId } }) => infractionId,
      () => undefined,
    );
    const expected: ExpectedEvent[] = [
      ['payout_batch.completed', batchId],
      ['charge.paid', chargeId],
      ['card_payment.paid', cardPaymentId],
      ...(infractionId
        ? ([
            ['infraction.accepted', infractionId],
            ['charge.partially_refunded', chargeId],
          ] as const)
        : []),
    ];
    const merchantEvent = await outcome(eventsDelivered(client, receiver, endpoint.secret, expected));
    return {
      ...server,
      workers: cluster.parts.workers.length,
      payouts: verdict.payouts,
      completed: verdict.completed,
      lost: verdict.lost,
      doubleDebits: verdict.doubleDebits,
      lifecycles: {
        payout: payoutResult(verdict),
        charge: chargeResult,
        cardPayment: cardPaymentResult,
        infraction: infractionResult,
        batch,
        merchantEvent,
      },
    };
  } finally {
    await receiver.close();
  }
}
