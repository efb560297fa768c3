/**
 * The lifecycles driven end to end over HTTP, as a merchant, the payer's bank, a buyer's browser and the
 * provider would: a PIX charge paid (or left to expire, or paid late), a card payment through its checkout
 * (the 3DS session and the card token as shield.js makes them; frictionless, or with the buyer approving
 * the challenge), a MED infraction against a paid charge defended and accepted. Each resolves once the
 * engine shows the final state, or rejects saying where it stopped. Used by `npm run cluster`'s check and
 * measurements and by the chaos run (every step patient with parts that are down).
 */
import { z } from 'zod';
import { chargeCreatedSchema, chargeResponseSchema, type ChargeResponse } from '../../src/api/charges/schemas';
import {
  cardPaymentCreatedSchema,
  cardPaymentResponseSchema,
  checkoutResultSchema,
  type CardPaymentResponse,
} from '../../src/api/card-payments/schemas';
import { infractionResponseSchema, type InfractionResponse } from '../../src/api/infractions/schemas';
import { threeDSSessionResponseSchema } from '../../src/payment-api/schemas/security-module';
import { reaisToCentavos } from '../../src/money/centavos';
import { encryptCardToken } from '../../src/payment-api/shield-card-token';
import { TEST_CARDS } from '../../sandbox/products/card-payments/test-cards';
import { pollUntil } from '../../src/util/poll';
import type { StackClient } from './stack-client';

const anything = z.unknown();
const PAYER = { name: 'Ana Souza', document: '52998224725' };
const FINAL_WAIT_MS = 180_000;

/** Polls a reading until `done` holds; the deadline covers a Temporal restart and the sandbox's callback retries. */
function until<T>(
  read: () => Promise<T | undefined>,
  done: (value: T) => boolean,
  description: string,
  timeoutMs = FINAL_WAIT_MS,
): Promise<T> {
  return pollUntil(
    async () => {
      const value = await read();
      return value !== undefined && done(value) ? value : undefined;
    },
    { timeoutMs, intervalMs: 500, description },
  );
}

export const readCharge = (client: StackClient, externalId: string) =>
  client.engineIfKnown(`/v1/charges/${encodeURIComponent(externalId)}`, chargeResponseSchema);

/** A charge created through the engine (the same request again is the same charge); `expiresInSeconds` unset: the engine's default. */
export async function createCharge(
  client: StackClient,
  externalId: string,
  amount = 100,
  expiresInSeconds?: number,
): Promise<void> {
  await client.engine('POST', '/v1/charges', chargeCreatedSchema, {
    externalId,
    amount,
    payer: PAYER,
    ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }),
  });
}

const cashInSchema = z.object({ operations: z.array(z.object({ status: z.string() })) });

/**
 * The payer pays the code the merchant showed: the charge the provider made under the engine's reference
 * for it (its externalId, or the derived one a lost creation answer led to). That reference is read from
 * the workflow's own view once it has its code: a reading from the index (a worker or Temporal restarting)
 * names no derived reference, and paying by the externalId then paid the charge whose answer was lost,
 * which no merchant ever showed. Paid once: a second payment is refused, so a lost answer is read back from
 * the provider, not repeated.
 */
export async function payCharge(client: StackClient, externalId: string): Promise<void> {
  const shown = await until(
    () => readCharge(client, externalId),
    (charge) => charge.source === 'workflow' && (charge.qrcode !== undefined || charge.status === 'FAILED'),
    `charge ${externalId} to show its code`,
  );
  const reference = shown.providerReference ?? externalId;
  await client
    .admin('POST', `/sandbox/cash-ins/${encodeURIComponent(reference)}/pay`, anything, {})
    .catch(async (error: unknown) => {
      const { operations } = await client.admin(
        'GET',
        `/sandbox/operations?externalId=${encodeURIComponent(reference)}`,
        cashInSchema,
      );
      if (!operations.some((operation) => operation.status === 'PAID')) throw error;
    });
}

/** Until the engine shows the charge in one of `statuses`. */
export const chargeIn = (
  client: StackClient,
  externalId: string,
  statuses: readonly string[],
): Promise<ChargeResponse> =>
  until(
    () => readCharge(client, externalId),
    (charge) => statuses.includes(charge.status),
    `charge ${externalId} to be ${statuses.join(' or ')}`,
  );

/** A charge created through the engine and paid by the payer at the provider: PAID, with the provider's id of the PIX. */
export async function paidCharge(client: StackClient, externalId: string, amount = 100): Promise<ChargeResponse> {
  await createCharge(client, externalId, amount);
  await payCharge(client, externalId);
  return chargeIn(client, externalId, ['PAID']);
}

export const readCardPayment = (client: StackClient, externalId: string) =>
  client.engineIfKnown(`/v1/card-payments/${encodeURIComponent(externalId)}`, cardPaymentResponseSchema);

export type CardAuthentication = 'frictionless' | 'challenge';

/** The buyer opens the 3DS session with the card token; a challenge is approved on its page (the form it posts), then the session read until AUTHENTICATED. */
async function authenticatedSession(
  client: StackClient,
  externalId: string,
  amount: number,
  cardToken: string,
  publicKey: string,
  origin: string,
) {
  const opened = await client.shield('POST', '/shield/sessions', threeDSSessionResponseSchema, {
    publicKey,
    amount: reaisToCentavos(amount),
    installments: 1,
    currency: 'BRL',
    cardToken,
  });
  if (opened.status === 'CHALLENGE_REQUIRED') {
    await client.shieldForm(`/shield/challenge/${encodeURIComponent(opened.sessionId)}`, {
      decision: 'approve',
      parentOrigin: origin,
    });
    return until(
      () =>
        client.shield('GET', `/shield/sessions/${encodeURIComponent(opened.sessionId)}`, threeDSSessionResponseSchema),
      (session) => session.status !== 'CHALLENGE_REQUIRED',
      `the 3DS challenge of ${externalId} to be answered`,
      60_000,
    );
  }
  return opened;
}

/** A card payment created through the engine (or its replay) and its card sent to the checkout: the checkout's answer, or its refusal as thrown. */
export async function sendCardToCheckout(
  client: StackClient,
  externalId: string,
  authentication: CardAuthentication = 'frictionless',
  onCreated?: () => void,
): Promise<z.output<typeof checkoutResultSchema>> {
  const amount = 100.1;
  const created = await client.engine('POST', '/v1/card-payments', cardPaymentCreatedSchema, {
    externalId,
    amount,
    installmentCount: 1,
    payer: { ...PAYER, email: 'ana@example.com', phone: '(11) 98765-4321' },
    description: 'Order 1001',
  });
  onCreated?.();
  const token = new URL(created.checkoutUrl).searchParams.get('token') ?? '';
  const card = {
    number: TEST_CARDS[authentication],
    holderName: 'ANA SOUZA',
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 2,
    cvv: '0370',
  };
  const publicKey = await client.shieldPublicKey();
  const cardToken = encryptCardToken(publicKey, card);
  const session = await authenticatedSession(
    client,
    externalId,
    amount,
    cardToken,
    publicKey,
    new URL(created.checkoutUrl).origin,
  );
  if (session.status !== 'AUTHENTICATED' || !session.threeDS)
    throw new Error(`card payment ${externalId}: 3DS session ${session.status}`);
  const pay = {
    token,
    card: {
      holderName: card.holderName,
      number: card.number,
      expiryMonth: String(card.expMonth).padStart(2, '0'),
      expiryYear: String(card.expYear),
      cvv: card.cvv,
    },
    cardToken,
    sessionId: session.sessionId,
    threeDS: session.threeDS,
  };
  return client.checkout(`/checkout/${encodeURIComponent(externalId)}/pay`, checkoutResultSchema, pay);
}

/** A card payment created through the engine and paid through its checkout with the test card of `authentication`; resolves once the checkout took the card. */
export async function payByCard(
  client: StackClient,
  externalId: string,
  authentication: CardAuthentication = 'frictionless',
  onCreated?: () => void,
): Promise<void> {
  // The checkout takes one card: a pay call whose answer was lost is read back, not sent again.
  await sendCardToCheckout(client, externalId, authentication, onCreated).catch(async (error: unknown) => {
    if ((await readCardPayment(client, externalId))?.status === 'AWAITING_CARD') throw error;
  });
}

/** A card payment created through the engine, paid through its checkout with the frictionless test card: PAID. */
export async function paidCardPayment(client: StackClient, externalId: string): Promise<CardPaymentResponse> {
  await payByCard(client, externalId);
  return until(
    () => readCardPayment(client, externalId),
    (payment) => payment.status === 'PAID',
    `card payment ${externalId} to be PAID`,
  );
}

export const readInfraction = (client: StackClient, id: string) =>
  client.engineIfKnown(`/v1/infractions/${encodeURIComponent(id)}`, infractionResponseSchema);

/** Until `done`, the MED sync is asked to run every few seconds (the engine learns of the provider's changes only through it). */
export async function syncUntil(
  client: StackClient,
  id: string,
  done: (infraction: InfractionResponse) => boolean,
  description: string,
): Promise<InfractionResponse> {
  let lastSync = 0;
  return until(
    async () => {
      if (Date.now() - lastSync > 3_000) {
        lastSync = Date.now();
        await client.engine('POST', '/v1/infractions/sync', anything);
      }
      return readInfraction(client, id);
    },
    done,
    description,
  );
}

const sandboxInfractionSchema = z.object({ infraction: z.object({ id: z.string(), status: z.string() }) });

/** The provider resolves the infraction; a lost answer is read back (a second resolve is refused), not repeated. */
export async function resolveInfraction(
  client: StackClient,
  id: string,
  status: 'ACCEPTED' | 'REJECTED',
): Promise<void> {
  await client
    .admin('POST', `/sandbox/infractions/${encodeURIComponent(id)}/resolve`, anything, { status })
    .catch(async (error: unknown) => {
      const { infraction } = await client.admin(
        'GET',
        `/sandbox/infractions/${encodeURIComponent(id)}`,
        sandboxInfractionSchema,
      );
      if (infraction.status !== status) throw error;
    });
}

/** A MED infraction against a paid charge of the engine: found by the sync, linked, defended, accepted by the provider; the charge PARTIALLY_REFUNDED. */
export async function acceptedInfraction(
  client: StackClient,
  charge: ChargeResponse,
  amount = 40,
  onOpened?: (id: string) => void,
): Promise<{ infraction: InfractionResponse; charge: ChargeResponse }> {
  const opened = await client.admin(
    'POST',
    '/sandbox/infractions',
    z.object({ infraction: z.object({ id: z.string() }) }),
    {
      // The provider knows a cash-in by our transactionId too: a reading from the index (Temporal restarting) may not carry its own id yet.
      transactionId: charge.providerTransactionId ?? charge.externalId,
      reason: 'fraud',
      amount,
    },
  );
  const id = opened.infraction.id;
  onOpened?.(id);
  await syncUntil(
    client,
    id,
    (infraction) => infraction.status === 'OPEN' && infraction.chargeExternalId === charge.externalId,
    `infraction ${id} to be OPEN and linked`,
  );
  await client.engine('POST', `/v1/infractions/${encodeURIComponent(id)}/defense`, infractionResponseSchema, {
    analise: 'ACEITA',
    justificativa: 'O pagador foi vítima de golpe; devolvemos.',
    proofs: ['https://example.com/proof.pdf'],
  });
  await resolveInfraction(client, id, 'ACCEPTED');
  const infraction = await syncUntil(
    client,
    id,
    (current) => current.status === 'ACCEPTED',
    `infraction ${id} to be ACCEPTED`,
  );
  const refunded = await until(
    () => readCharge(client, charge.externalId),
    (current) => current.status === 'PARTIALLY_REFUNDED',
    `charge ${charge.externalId} to be PARTIALLY_REFUNDED`,
  );
  return { infraction, charge: refunded };
}
