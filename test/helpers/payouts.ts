/** What payout tests keep asking: a fresh id, a payout's state once it gets there, its debits at the provider. */
import { randomUUID } from 'node:crypto';
import type { SubmitOutcome } from '../../activities/payout-activities';
import { pollUntil } from '../../src/util/poll';
import type { PayoutResponse } from '../../src/api/payouts/schemas';
import type { EngineHarness } from './engine-harness';
import type { HttpAnswer } from './http';
import { waitForStatus } from './wait-for-status';
import type { Config } from '../../src/config/env';
import { payoutInput, startPayoutWorkflow } from '../../src/lifecycles/payout-client';
import type { PayoutRequest } from '../../src/payouts/payout-request';
import { payoutTiming, type PayoutInput, type PayoutWorkflowVersion } from '../../src/payouts/payout-input';
import { buildBrCode } from '../../src/pix/brcode';
import type { PixKeyPayout, pixKeyRequestSchema } from '../../src/payouts/rails/pix-key/request';
import type { z } from 'zod';

/** Settings under which a payout whose outcome stays unknown reaches review within seconds, not the default hour. */
export const REVIEW_WITHIN_SECONDS = {
  PAYOUT_REVIEW_AFTER_MS: '3000',
  PAYOUT_SUBMIT_DEADLINE_MS: '4000',
  PAYOUT_CALLBACK_WAIT_MS: '1000',
};

/** The provider's answer to a submission it took: transaction tx-1, R$ 25.00 and a fee of R$ 1.25. */
export const ACCEPTED_SUBMISSION = {
  kind: 'accepted',
  transactionId: 'tx-1',
  providerStatus: 'PROCESSING',
  feeCents: 125,
  totalCents: 2625,
  reconciled: false,
} as const satisfies SubmitOutcome;

export const newExternalId = (label: string): string => `${label}-${randomUUID().slice(0, 8)}`;

export function waitForPayout(
  stack: EngineHarness,
  externalId: string,
  statuses: string[],
  timeoutMs = 30_000,
): Promise<PayoutResponse> {
  return waitForStatus(stack, `payout ${externalId}`, `/v1/payouts/${externalId}`, statuses, timeoutMs);
}

/** Posts a PIX-key payout to the engine's API and expects it taken (202): the step most end-to-end payout tests open with. */
export async function postPayout(stack: EngineHarness, body: z.input<typeof pixKeyRequestSchema>): Promise<void> {
  expect((await stack.api('POST', '/v1/payouts', body)).status).toBe(202);
}

/** Ledger entries at the sandbox that take money from a user account for this external_id. */
export async function providerDebits(stack: EngineHarness, externalId: string): Promise<number> {
  const ledger = await stack.admin<{ entries: { lines: { account: string; amountCents: number }[] }[] }>(
    'GET',
    `/sandbox/ledger?externalId=${encodeURIComponent(externalId)}`,
  );
  return ledger.body.entries.filter((entry) =>
    entry.lines.some((line) => line.account.startsWith('user:') && line.amountCents < 0),
  ).length;
}

/** Debits of every external_id at the provider, from the sandbox's own ledger. */
export async function debitsByExternalId(stack: EngineHarness): Promise<Map<string, number>> {
  const ledger = await stack.admin<{
    entries: { externalId: string | null; lines: { account: string; amountCents: number }[] }[];
  }>('GET', '/sandbox/ledger');
  const debits = new Map<string, number>();
  for (const entry of ledger.body.entries) {
    if (entry.externalId && entry.lines.some((line) => line.account.startsWith('user:') && line.amountCents < 0)) {
      debits.set(entry.externalId, (debits.get(entry.externalId) ?? 0) + 1);
    }
  }
  return debits;
}

/** How the sandbox delivered one of its callbacks (GET /sandbox/callbacks). */
export interface ProviderCallback {
  status: string;
  attempts: number;
  lastStatusCode: number | null;
}

/** Waits until one of the sandbox's callbacks for the operation it made for `externalId` is as `answered` says. */
export async function waitForProviderCallback(
  stack: EngineHarness,
  externalId: string,
  answered: (callback: ProviderCallback) => boolean,
  description: string,
): Promise<void> {
  const [operation] = (
    await stack.admin<{ operations: { transactionId: string }[] }>(
      'GET',
      `/sandbox/operations?externalId=${encodeURIComponent(externalId)}`,
    )
  ).body.operations;
  await pollUntil(
    async () => {
      const { callbacks } = (
        await stack.admin<{ callbacks: ProviderCallback[] }>(
          'GET',
          `/sandbox/callbacks?operationId=${operation?.transactionId ?? ''}`,
        )
      ).body;
      return callbacks.some(answered) ? true : undefined;
    },
    { timeoutMs: 15_000, intervalMs: 100, description },
  );
}

/**
 * Waits until the sandbox has delivered a payout's duplicated callback and the engine answered it 200.
 * Either copy may be the very same signed request (sent within the same second): the API acknowledges
 * that replay without signalling, so `callbacksReceived` is 1 or 2 and only the provider's side says both came.
 */
export const duplicateCallbackAnswered = (stack: EngineHarness, externalId: string): Promise<void> =>
  waitForProviderCallback(
    stack,
    externalId,
    (callback) => callback.status === 'delivered' && callback.attempts >= 2 && callback.lastStatusCode === 200,
    `the duplicate callback of ${externalId} answered`,
  );

/** The withdrawals (endpoint 4) of this external_id the engine sent, as the harness's recording proxy saw them. */
export function withdrawalsSent(stack: EngineHarness, externalId: string): number {
  if (!stack.provider) throw new Error('the harness runs without its provider proxy');
  return stack.provider.requests.filter(
    (request) =>
      request.method === 'POST' && request.path === '/api/withdrawals/withdraw' && request.body.includes(externalId),
  ).length;
}

/** The merchant sends the same payout twice: both answered 202, the second marked a replay; answers the second. */
export async function sentTwice<T>(send: () => Promise<HttpAnswer<T>>): Promise<HttpAnswer<T>> {
  expect((await send()).status).toBe(202);
  const again = await send();
  expect(again.status).toBe(202);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  return again;
}

/** A PIX-key payout request as the API reads it: R$ 15.00 to the CPF key 52998224725 unless told otherwise. */
export const pixKeyPayout = (
  externalId: string,
  fields: Partial<Pick<PixKeyPayout, 'amountCents' | 'pixKey' | 'keyType'>> = {},
): PixKeyPayout => ({
  method: 'pix_key',
  externalId,
  amountCents: 1500,
  pixKey: '52998224725',
  keyType: 'CPF',
  ...fields,
});

/** A PIX-key payout's workflow input, as the API builds it, for activity tests that run without the API. */
export const pixKeyPayoutInput = (config: Config, label: string, batchId?: string): PayoutInput =>
  payoutInput(pixKeyPayout(newExternalId(label)), payoutTiming(config), batchId);

/** A store's PIX copy-and-paste code, for one payment of `amountCentavos` or, without it, for any amount the payer types. */
export const storeCode = (amountCentavos?: number, txid = 'PEDIDO42'): string =>
  buildBrCode({
    pixKey: 'loja@example.com',
    merchantName: 'Loja Exemplo',
    merchantCity: 'SAO PAULO',
    txid,
    ...(amountCentavos ? { amountCentavos } : {}),
  });

/**
 * A payout request of each rail as the API reads it (R$ 3.21 to a key, a store's code of R$ 12.34, R$ 2.50 to the
 * sandbox's recipient, R$ 60 in USDT); the externalId is its description too where the rail has one, so that an
 * internal transfer can be found at the provider.
 */
export const RAIL_REQUESTS = {
  pix_key: (externalId: string) => ({
    externalId,
    method: 'pix_key',
    amount: 3.21,
    pixKey: 'ana@example.com',
    keyType: 'EMAIL',
    description: externalId,
  }),
  pix_copy_paste: (externalId: string) => ({
    externalId,
    method: 'pix_copy_paste',
    emv: storeCode(1_234, 'RAILS'),
    description: externalId,
  }),
  internal: (externalId: string) => ({
    externalId,
    method: 'internal',
    email: 'recipient@sandbox.test',
    amount: 2.5,
    description: externalId,
  }),
  crypto: (externalId: string) => ({
    externalId,
    method: 'crypto',
    amount: 60,
    wallet: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  }),
} as const;
export type PayoutRail = keyof typeof RAIL_REQUESTS;

/** A payout started as an API or batch worker of before `workflowVersion` starts it while a deploy rolls out. */
export const startPayoutOfVersion = (
  stack: EngineHarness,
  request: PayoutRequest,
  workflowVersion: PayoutWorkflowVersion,
): Promise<'started' | 'exists'> =>
  startPayoutWorkflow(
    stack.temporal.client,
    { ...payoutInput(request, payoutTiming(stack.config)), workflowVersion },
    stack.config.TEMPORAL_TASK_QUEUE,
  );
