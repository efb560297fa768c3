/**
 * The Temporal CLI reads the engine's workflows through the codec endpoint, as the README tells an
 * operator to: `temporal workflow show` (decode) and `temporal workflow query` (encode of an empty
 * argument list, which the CLI sends as `{}`, then decode of the answer).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { temporalCliPath } from '../../tools/temporal/binaries';
import { payoutWorkflowId } from '../../src/contracts/payout';
import { startEngineHarness, type EngineHarness } from '../helpers/engine-harness';
import { newExternalId, postPayout, waitForPayout } from '../helpers/payouts';

let stack: EngineHarness;
beforeAll(async () => {
  stack = await startEngineHarness();
});
afterAll(() => stack?.close());

async function temporalCli(...args: string[]): Promise<string> {
  const codec = [
    '--codec-endpoint',
    `${stack.apiUrl}/codec`,
    '--codec-auth',
    `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret ?? ''}`,
  ];
  const { stdout } = await promisify(execFile)(
    temporalCliPath(),
    [...args, '--address', stack.config.TEMPORAL_ADDRESS, ...codec],
    { timeout: 30_000 },
  );
  return stdout;
}

test('temporal workflow query and workflow show decode a payout through the codec endpoint', async () => {
  const externalId = newExternalId('codec-cli');
  await postPayout(stack, { externalId, amount: 12.5, pixKey: 'ana@example.com', keyType: 'EMAIL' });
  await waitForPayout(stack, externalId, ['COMPLETED']);

  const answer = JSON.parse(
    await temporalCli(
      'workflow',
      'query',
      '--workflow-id',
      payoutWorkflowId(externalId),
      '--name',
      'status',
      '--output',
      'json',
    ),
  ) as { queryResult: unknown[] };
  expect(answer.queryResult[0]).toMatchObject({ externalId, state: 'COMPLETED', amountCents: 1250 });

  // The history's result, decrypted: stored encrypted, it reads as plain JSON only through the codec.
  const history = await temporalCli('workflow', 'show', '--workflow-id', payoutWorkflowId(externalId));
  expect(history).toMatch(/ResultEncoding\s+json\/plain/);
  expect(history).toContain(`"externalId":"${externalId}"`);
  expect(history).toContain('"state":"COMPLETED"');
});

test('an empty payload list may be sent as {} (protobuf JSON omits empty arrays)', async () => {
  const decoded = await fetch(`${stack.apiUrl}/codec/decode`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${stack.config.ENGINE_API_KEYS[0]?.secret ?? ''}`,
    },
    body: '{}',
  });
  expect(decoded.status).toBe(200);
  expect(await decoded.json()).toEqual({ payloads: [] });
});
