/**
 * What makes the double worth running the engine against: nothing of ours feeds it (the lint rule on
 * test/doubles/ refuses every import from the engine, the sandbox, their schemas and the test helpers), and
 * it de-duplicates nothing (so one operation counted there is one request the engine made).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Linter } from 'eslint';
import { startProviderDouble } from '../doubles/provider-double';
import { DoubleControl } from '../doubles/double-control-client';
import { forThisFile } from '../helpers/for-this-file';

const root = path.join(__dirname, '..', '..');

test('lint refuses a double file importing the engine, the sandbox, a workflow, an activity, a test helper or zod', () => {
  // The repository's own configuration for a file of the double (ESLint's loader cannot run inside jest's VM: asked of its CLI).
  const printed = execFileSync(
    path.join(root, 'node_modules', '.bin', 'eslint'),
    ['--print-config', 'test/doubles/provider-double.ts'],
    { cwd: root, encoding: 'utf8' },
  );
  const rule = (JSON.parse(printed) as { rules: Linter.RulesRecord }).rules['no-restricted-imports'];
  expect(rule).toBeDefined();
  const imports = [
    '../../src/money/centavos',
    '../../sandbox',
    '../../workflows/payouts/payout',
    '../../activities/payout-activities',
    '../helpers/http',
    'zod',
  ];
  const code =
    imports.map((source, index) => `import m${index} from '${source}';`).join('\n') +
    "\nimport express from 'express';\nimport { state } from './double-state';\n";
  const messages = new Linter({ configType: 'flat' }).verify(
    code,
    [{ languageOptions: { sourceType: 'module' }, rules: { 'no-restricted-imports': rule ?? 'off' } }],
    'test/doubles/probe.js',
  );
  expect(messages.map((message) => message.line)).toEqual(imports.map((_source, index) => index + 1));
});

describe('the double itself', () => {
  const double = forThisFile(() => startProviderDouble());

  test('a second withdrawal with the same external_id is a second operation: money moves twice', async () => {
    const login = await fetch(`${double.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: double.credentials.clientId, client_secret: double.credentials.clientSecret }),
    });
    const { token } = (await login.json()) as { token: string };
    const withdraw = () =>
      fetch(`${double.url}/api/withdrawals/withdraw`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          amount: 5,
          external_id: 'same-id',
          pix_key: '52998224725',
          key_type: 'CPF',
          clientCallbackUrl: 'http://127.0.0.1:9/cb',
        }),
      }).then((response) => response.json() as Promise<{ transactionId: string }>);
    const [first, second] = [await withdraw(), await withdraw()];
    expect(first.transactionId).not.toBe(second.transactionId);
    expect(await new DoubleControl(double.url).operations({ clientId: 'same-id' })).toHaveLength(2);
  });
});
