/**
 * A trial's charges, card payments and infractions: driven over HTTP during the kill window (as a merchant,
 * the payer's bank, a buyer's browser and the provider would, tools/cluster/lifecycles.ts), then, once
 * everything is up, waited for until each is final (bounded), and read back from the engine and the
 * provider for the checker. A step the chaos made fail (a refusal after the patience of the client ran
 * out) is logged and leaves the lifecycle where it is: the engine must still end it consistently (an
 * unpaid charge expires, an unpaid checkout expires).
 */
import { z } from 'zod';
import { chargeResponseSchema } from '../../src/api/charges/schemas';
import { cardPaymentResponseSchema } from '../../src/api/card-payments/schemas';
import { infractionResponseSchema } from '../../src/api/infractions/schemas';
import {
  acceptedInfraction,
  chargeIn,
  createCharge,
  payByCard,
  payCharge,
  readCardPayment,
  readCharge,
  readInfraction,
  type CardAuthentication,
} from '../cluster/lifecycles';
import type { StackClient } from '../cluster/stack-client';
import { reaisToCentavos } from '../../src/money/centavos';
import { externalIdOfReference } from '../../src/charges/provider-reference';
import { SEEDED_USERS } from '../../sandbox';
import { pollUntil } from '../../src/util/poll';
import type { Flow } from './flows';
import type { LifecycleEvidence } from './lifecycle-checker';

export type ChargeKind = 'paid' | 'expired' | 'paidLate' | 'claimed';

export interface LifecyclePlan {
  charges: { externalId: string; kind: ChargeKind }[];
  cardPayments: { externalId: string; authentication: CardAuthentication }[];
}

/** How many of each kind a trial drives. */
export interface LifecycleSizes {
  /** Of each charge kind (paid, expired, paid late), of each card kind and of infractions. */
  perKind: number;
}

/** Letters and digits only: a charge's id is its BR Code's txid. */
export function planLifecycles(prefix: string, flows: readonly Flow[], sizes: LifecycleSizes): LifecyclePlan {
  const id = (label: string, index: number) => `${prefix.replace(/[^A-Za-z0-9]/g, '')}${label}${index}`;
  const times = <T>(make: (index: number) => T): T[] =>
    Array.from({ length: sizes.perKind }, (_, index) => make(index));
  const chargeKinds: ChargeKind[] = [
    ...(flows.includes('charges') ? (['paid', 'expired', 'paidLate'] as const) : []),
    ...(flows.includes('infractions') ? (['claimed'] as const) : []),
  ];
  return {
    charges: chargeKinds.flatMap((kind) => times((index) => ({ externalId: id(kind, index), kind }))),
    cardPayments: flows.includes('cardPayments')
      ? (['frictionless', 'challenge'] as const).flatMap((authentication) =>
          times((index) => ({ externalId: id(authentication, index), authentication })),
        )
      : [],
  };
}

/** A charge that is not paid expires this soon (paid ones: long enough to be paid through the kills, then they expire too). */
const SHORT_EXPIRY_SECONDS = 3;
const PAYABLE_SECONDS = 90;
const CHARGE_AMOUNT = 100;
const CLAIM_AMOUNT = 40;

/** What the driving learned: what was started, and the infraction each claimed charge got. */
export interface Driven {
  started: Set<string>;
  infractions: Map<string, string>;
}

const message = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

async function driveCharge(
  client: StackClient,
  charge: LifecyclePlan['charges'][number],
  driven: Driven,
): Promise<void> {
  await createCharge(
    client,
    charge.externalId,
    CHARGE_AMOUNT,
    charge.kind === 'expired' || charge.kind === 'paidLate' ? SHORT_EXPIRY_SECONDS : PAYABLE_SECONDS,
  );
  driven.started.add(charge.externalId);
  if (charge.kind === 'expired') return;
  if (charge.kind === 'paidLate') await chargeIn(client, charge.externalId, ['EXPIRED']);
  await payCharge(client, charge.externalId);
  if (charge.kind !== 'claimed') return;
  const paid = await chargeIn(client, charge.externalId, ['PAID']);
  await acceptedInfraction(client, paid, CLAIM_AMOUNT, (infractionId) => {
    driven.infractions.set(charge.externalId, infractionId);
    driven.started.add(infractionId);
  });
}

async function driveCardPayment(
  client: StackClient,
  payment: LifecyclePlan['cardPayments'][number],
  driven: Driven,
): Promise<void> {
  await payByCard(client, payment.externalId, payment.authentication, () => driven.started.add(payment.externalId));
}

/** Drives every lifecycle of the plan at once; resolves when each has gone as far as it could (never rejects). */
export async function driveLifecycles(
  client: StackClient,
  plan: LifecyclePlan,
  log: (line: string) => void,
): Promise<Driven> {
  const driven: Driven = { started: new Set(), infractions: new Map() };
  const steps = [
    ...plan.charges.map((charge) => ({
      label: `charge ${charge.externalId} (${charge.kind})`,
      run: () => driveCharge(client, charge, driven),
    })),
    ...plan.cardPayments.map((payment) => ({
      label: `card payment ${payment.externalId} (${payment.authentication})`,
      run: () => driveCardPayment(client, payment, driven),
    })),
  ];
  await Promise.all(
    steps.map((step) =>
      step.run().catch((error: unknown) => log(`${step.label}: stopped by the chaos: ${message(error)}`)),
    ),
  );
  return driven;
}

const FINAL = {
  charge: new Set(['PAID', 'EXPIRED', 'FAILED', 'PARTIALLY_REFUNDED', 'REFUNDED']),
  cardPayment: new Set(['PAID', 'FAILED', 'EXPIRED', 'NEEDS_REVIEW']),
  infraction: new Set(['ACCEPTED', 'REJECTED', 'CANCELLED']),
};

const ledgerSchema = z.object({
  entries: z.array(
    z.object({
      kind: z.string(),
      externalId: z.string().nullable(),
      operationId: z.string().nullable(),
      lines: z.array(z.object({ account: z.string(), amountCents: z.number().int() })),
    }),
  ),
});
const operationsSchema = z.object({
  operations: z.array(z.object({ transactionId: z.string(), details: z.record(z.string(), z.unknown()) })),
});
const sandboxInfractionSchema = z.object({ infraction: z.object({ status: z.string() }) });
const MERCHANT_ACCOUNT = `user:${SEEDED_USERS.merchant.id}`;

/** Until every started lifecycle is final in the engine (the MED sync asked to run meanwhile), or the deadline: the checker judges what is there then. */
export async function settleLifecycles(
  client: StackClient,
  plan: LifecyclePlan,
  driven: Driven,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<void> {
  let lastSync = 0;
  const pending = async (): Promise<string[]> => {
    const open: string[] = [];
    for (const charge of plan.charges) {
      // A claimed charge waits for its infraction, which the sync brings.
      if (
        driven.started.has(charge.externalId) &&
        !FINAL.charge.has((await readCharge(client, charge.externalId))?.status ?? '')
      )
        open.push(charge.externalId);
    }
    for (const payment of plan.cardPayments) {
      if (
        driven.started.has(payment.externalId) &&
        !FINAL.cardPayment.has((await readCardPayment(client, payment.externalId))?.status ?? '')
      )
        open.push(payment.externalId);
    }
    for (const infractionId of driven.infractions.values()) {
      if (!FINAL.infraction.has((await readInfraction(client, infractionId))?.status ?? '')) open.push(infractionId);
    }
    return open;
  };
  await pollUntil(
    async () => {
      if (driven.infractions.size > 0 && Date.now() - lastSync > 3_000) {
        lastSync = Date.now();
        await client.engine('POST', '/v1/infractions/sync', z.unknown());
      }
      return (await pending()).length === 0 ? true : undefined;
    },
    { timeoutMs, intervalMs: 1_000, description: 'the charges, card payments and infractions to be final' },
  ).catch(async (error: unknown) =>
    log(`${message(error)}; checking them as they are (not final: ${(await pending()).join(', ')})`),
  );
}

function merchantEntries(
  ledger: z.infer<typeof ledgerSchema>['entries'],
  kind: string,
  matches: (entry: { externalId: string | null; operationId: string | null }) => boolean,
) {
  return ledger.filter(
    (entry) => entry.kind === kind && matches(entry) && entry.lines.some((line) => line.account === MERCHANT_ACCOUNT),
  );
}

/** Each lifecycle as the engine and the provider show it now. */
export async function lifecycleEvidence(
  client: StackClient,
  plan: LifecyclePlan,
  driven: Driven,
): Promise<LifecycleEvidence[]> {
  const { entries: ledger } = await client.admin('GET', '/sandbox/ledger', ledgerSchema);
  const evidence: LifecycleEvidence[] = [];
  for (const { externalId } of plan.charges) {
    const charge = await client.engineIfKnown(`/v1/charges/${encodeURIComponent(externalId)}`, chargeResponseSchema);
    // Under its externalId or a derived reference (a creation whose answer was lost): a second credit is a double payment.
    const credits = merchantEntries(
      ledger,
      'cash-in.paid',
      (entry) => entry.externalId !== null && externalIdOfReference(entry.externalId) === externalId,
    );
    const providerIds = new Set(credits.map((entry) => entry.operationId));
    const refunds = merchantEntries(ledger, 'infraction.refund', (entry) => providerIds.has(entry.operationId));
    evidence.push({
      kind: 'charge',
      id: externalId,
      started: driven.started.has(externalId),
      engine: charge
        ? { known: true, status: charge.status, refundedCents: reaisToCentavos(charge.refundedAmount ?? 0) }
        : { known: false },
      moneyEntries: credits.length,
      providerRefundedCents: refunds.reduce(
        (sum, entry) =>
          sum +
          entry.lines
            .filter((line) => line.account === MERCHANT_ACCOUNT)
            .reduce((total, line) => total - line.amountCents, 0),
        0,
      ),
    });
  }
  if (plan.cardPayments.length > 0) {
    const { operations } = await client.admin(
      'GET',
      '/sandbox/operations?product=card-payment&limit=100000',
      operationsSchema,
    );
    for (const { externalId } of plan.cardPayments) {
      const payment = await client.engineIfKnown(
        `/v1/card-payments/${encodeURIComponent(externalId)}`,
        cardPaymentResponseSchema,
      );
      const operationIds = new Set(
        operations
          .filter((operation) => operation.details.externalReference === externalId)
          .map((operation) => operation.transactionId),
      );
      evidence.push({
        kind: 'cardPayment',
        id: externalId,
        started: driven.started.has(externalId),
        engine: payment
          ? {
              known: true,
              status: payment.status,
              ...(payment.reviewReason ? { reviewReason: payment.reviewReason } : {}),
            }
          : { known: false },
        moneyEntries: merchantEntries(
          ledger,
          'card-payment.captured',
          (entry) => entry.operationId !== null && operationIds.has(entry.operationId),
        ).length,
      });
    }
  }
  for (const infractionId of driven.infractions.values()) {
    const infraction = await client.engineIfKnown(
      `/v1/infractions/${encodeURIComponent(infractionId)}`,
      infractionResponseSchema,
    );
    const atProvider = await client.admin(
      'GET',
      `/sandbox/infractions/${encodeURIComponent(infractionId)}`,
      sandboxInfractionSchema,
    );
    evidence.push({
      kind: 'infraction',
      id: infractionId,
      started: true,
      engine: infraction ? { known: true, status: infraction.status } : { known: false },
      moneyEntries: merchantEntries(ledger, 'infraction.refund', (entry) => entry.externalId === infractionId).length,
      providerStatus: atProvider.infraction.status,
    });
  }
  return evidence;
}
