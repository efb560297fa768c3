/**
 * The OpenAPI documents the engine and the sandbox serve (`GET /openapi.json`), linted by Redocly's CLI
 * with its recommended rules (redocly.yaml): what generators and validators of the ecosystem expect
 * (operationIds, servers, security schemes, examples that fit their schemas). No error, and no warning
 * but the one these probes cannot help: /healthz and the shield's public key have no 4xx answer (/readyz has
 * its 429: it is limited per client address).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { sandboxOpenApiDocument } from '../../sandbox/http/openapi';
import { engineOpenApi } from '../../src/api/openapi-document';

const root = path.join(__dirname, '..', '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const reportSchema = z.object({
  totals: z.object({ errors: z.number(), warnings: z.number() }),
  problems: z.array(
    z.object({
      ruleId: z.string(),
      severity: z.string(),
      message: z.string(),
      location: z.array(z.object({ pointer: z.string() })),
    }),
  ),
});

async function lint(name: string, document: object, config = 'redocly.yaml'): Promise<z.infer<typeof reportSchema>> {
  const file = path.join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  const cli = path.join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  // Exit status 1 when there are errors: the report is read either way.
  const run = await promisify(execFile)(
    process.execPath,
    [cli, 'lint', file, '--format=json', `--config=${path.join(root, config)}`],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return reportSchema.parse(JSON.parse(run.stdout));
}

test.each([
  ['engine', engineOpenApi(), ['#/paths/~1healthz/get/responses'], 'redocly-engine.yaml'],
  ['sandbox', sandboxOpenApiDocument(), ['#/paths/~1shield~1public-key/get/responses'], 'redocly.yaml'],
  [
    'sandbox (SANDBOX_SHIELD_THREE_DS=spec)',
    sandboxOpenApiDocument('spec'),
    ['#/paths/~1shield~1public-key/get/responses'],
    'redocly.yaml',
  ],
] as const)(
  "the %s's document passes Redocly's recommended rules (the engine's: with a description and a declared tag on every operation)",
  async (name, document, probes, config) => {
    const report = await lint(name, document, config);
    const problems = report.problems.map(
      (problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ''}: ${problem.message}`,
    );
    expect(problems).toEqual(
      probes.map(
        (pointer) => `warn operation-4xx-response ${pointer}: Operation must have at least one \`4XX\` response.`,
      ),
    );
  },
  60_000,
);

test('every operation has a unique operationId; servers and the bearer scheme are declared', () => {
  for (const document of [engineOpenApi(), sandboxOpenApiDocument()]) {
    const operations = Object.values(document.paths).flatMap(
      (methods) => Object.values(methods) as { operationId?: string }[],
    );
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.servers.length).toBeGreaterThan(0);
  }
  expect(engineOpenApi().components.securitySchemes).toEqual({
    apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
  });
});

test('shared shapes are named components/schemas, referred to by $ref, so generated types have names', () => {
  const engine = engineOpenApi();
  expect(Object.keys(engine.components.schemas)).toEqual(
    expect.arrayContaining([
      'Payout',
      'Charge',
      'CardPayment',
      'Infraction',
      'Batch',
      'Problem',
      'MerchantEvent',
      'PayoutRequest',
    ]),
  );
  expect(engine.paths['/v1/payouts/{externalId}']?.get).toMatchObject({
    responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Payout' } } } } },
  });
  const text = JSON.stringify([engine, sandboxOpenApiDocument()]);
  expect(text).not.toContain('$defs');
  expect(Object.keys(sandboxOpenApiDocument().components.schemas)).toEqual(
    expect.arrayContaining(['ProviderError', 'ThreeDSSession']),
  );
});

test("the sandbox's document names every request body and success answer, declares its credentials, and answers amounts without a floating multipleOf", () => {
  const sandbox = sandboxOpenApiDocument();
  const named = /^#\/components\/schemas\/[A-Z][A-Za-z]+$/;
  type JsonBody = { content?: Record<string, { schema?: { $ref?: string } }> } | undefined;
  const refOf = (body: JsonBody): string | undefined => body?.content?.['application/json']?.schema?.$ref;
  const operations = Object.values(sandbox.paths).flatMap(
    (methods) =>
      Object.values(methods) as { operationId: string; requestBody?: JsonBody; responses: Record<string, JsonBody> }[],
  );
  for (const { operationId, requestBody, responses } of operations) {
    expect({ operationId, answer: refOf(responses[200]) }).toEqual({
      operationId,
      answer: expect.stringMatching(named) as unknown,
    });
    if (requestBody)
      expect({ operationId, body: refOf(requestBody) }).toEqual({
        operationId,
        body: expect.stringMatching(named) as unknown,
      });
  }
  expect(Object.keys(sandbox.components.schemas)).toEqual(
    expect.arrayContaining([
      'LoginRequest',
      'WithdrawalRequest',
      'WithdrawalResponse',
      'PixCashInRequest',
      'TransactionCheckResponse',
      'ProviderCardPaymentRequest',
      'CryptoWithdrawalRequest',
      'InfractionListResponse',
    ]),
  );
  expect(sandbox.components.securitySchemes).toEqual({
    bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    clientId: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'ci' }),
    clientSecret: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'cs' }),
  });
  // The 3DS session's body as the running shield takes it: the card required (the checkout's token, or the one the
  // module made of the page's card), or (spec) the checkout's token not taken at all.
  const sessionBody = (mode: 'card-token' | 'spec' | 'off', name: string): unknown =>
    sandboxOpenApiDocument(mode).components.schemas[name];
  const withCard = {
    anyOf: [
      expect.objectContaining({ required: expect.arrayContaining(['cardToken']) as unknown }),
      expect.objectContaining({ required: expect.arrayContaining(['pageCardToken']) as unknown }),
    ],
  };
  expect(sessionBody('card-token', 'ThreeDSSessionRequest')).toMatchObject(withCard);
  expect(sessionBody('off', 'ThreeDSSessionRequest')).toMatchObject(withCard);
  expect(sessionBody('spec', 'ThreeDSSessionSpecRequest')).toMatchObject({
    additionalProperties: false,
    properties: expect.not.objectContaining({ cardToken: expect.anything() as unknown }) as unknown,
  });
  // What the sandbox answers (a decimal such as 10.13) is valid for a validator that divides binary floats.
  const answers = Object.entries(sandbox.components.schemas).filter(([name]) => !name.endsWith('Request'));
  expect(answers.filter(([, schema]) => JSON.stringify(schema).includes('multipleOf')).map(([name]) => name)).toEqual(
    [],
  );
});
