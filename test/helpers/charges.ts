/** What charge tests keep doing at the engine and the sandbox: create a charge, pay it, read the provider's record of it. */
import type { ChargeResponse } from '../../src/api/charges/schemas';
import type { EngineHarness } from './engine-harness';
import { waitForStatus } from './wait-for-status';

export const PAYER = { name: 'Ana Souza', document: '529.982.247-25' };

/** The merchant creates the charge through the engine (asserting it is created); the engine's answer. */
export async function createCharge(stack: EngineHarness, externalId: string, amount: number): Promise<ChargeResponse> {
  const created = await stack.api<ChargeResponse>('POST', '/v1/charges', { externalId, amount, payer: PAYER });
  expect(created.status).toBe(201);
  return created.body;
}

export const waitForCharge = (
  stack: EngineHarness,
  externalId: string,
  statuses: string[],
  timeoutMs?: number,
): Promise<ChargeResponse> =>
  waitForStatus(stack, `charge ${externalId}`, `/v1/charges/${externalId}`, statuses, timeoutMs);

/** The payer pays the code the provider made for `reference` (the charge's externalId, or a derived one). */
export async function payCashIn(stack: EngineHarness, reference: string): Promise<void> {
  expect((await stack.admin('POST', `/sandbox/cash-ins/${reference}/pay`, { payerName: PAYER.name })).status).toBe(200);
}

/** The provider creates the next charge and its answer never comes back: the connection is reset, or hangs. */
export async function loseNextChargeCreationAnswer(stack: EngineHarness, mode: 'reset' | 'hang'): Promise<void> {
  expect(
    (
      await stack.admin('PUT', '/sandbox/faults', {
        timeoutAfterCommit: { count: 1, mode, paths: ['/api/transactions/create'] },
      })
    ).status,
  ).toBe(200);
}

export interface SandboxOperation {
  transactionId: string;
  externalId: string | null;
  status: string;
  details: { qrcode?: string };
}

/** The sandbox's operations made under `reference`. */
export async function operationsOf(stack: EngineHarness, reference: string): Promise<SandboxOperation[]> {
  return (
    await stack.admin<{ operations: SandboxOperation[] }>(
      'GET',
      `/sandbox/operations?externalId=${encodeURIComponent(reference)}`,
    )
  ).body.operations;
}

/** The provider settles the first operation made under `reference` as `outcome` says; the sandbox's answer status. */
export async function forceOutcome(
  stack: EngineHarness,
  reference: string,
  outcome: { status: 'COMPLETED' | 'FAILED'; reason?: string },
): Promise<number> {
  const [operation] = await operationsOf(stack, reference);
  return (await stack.admin('POST', `/sandbox/operations/${operation?.transactionId ?? ''}/outcome`, outcome)).status;
}
