/**
 * `npm run fuzz` in CI, with few examples: schemathesis with every check against the engine's and the
 * sandbox's OpenAPI documents, on a stack of their own (Temporal dev server, sandbox, worker, engine API):
 * not the suite's shared server, whose workflows other tests encrypted with their own key and whose
 * workers are gone (schemathesis follows the infraction list to them). schemathesis comes from `npm run fuzz:install` (.ci/run): when it is missing this
 * fails, it never skips.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { z } from 'zod';
import { fuzzSummary, runFuzz } from '../../tools/fuzz/fuzz-run';
import { runSchemathesis } from '../../tools/fuzz/run-schemathesis';
import { resolveSchemathesis } from '../../tools/fuzz/schemathesis';
import { openApiDocument } from '../../src/openapi/document';

const st = resolveSchemathesis({ install: false });
const reportDir = (): string => mkdtempSync(path.join(os.tmpdir(), 'payout-fuzz-test-'));

test('both OpenAPI documents hold against their servers: no check fails, no 5xx', async () => {
  const results = await runFuzz(st, { maxExamples: 5, seed: 20261123, reportDir: reportDir() });
  const verdicts = results.map(({ target, report }) => ({ target, failures: report.failures, errors: report.errors }));
  expect({ verdicts, summary: fuzzSummary(results) }).toEqual({
    verdicts: [
      { target: 'engine', failures: [], errors: [] },
      { target: 'engine-read-only', failures: [], errors: [] },
      { target: 'sandbox', failures: [], errors: [] },
    ],
    summary: expect.any(String) as unknown,
  });
  for (const { report } of results) expect(report.test_cases.generated).toBeGreaterThan(100);
}, 900_000);

test('a server that answers what its document does not promise fails the run', async () => {
  const document = openApiDocument({
    info: { title: 'thing', version: '1', license: { name: 'none' } },
    servers: [],
    securitySchemes: {},
    operations: [
      {
        id: 'getThing',
        method: 'get',
        path: '/things/:id',
        summary: 'A thing',
        params: z.object({ id: z.string().regex(/^\d{1,6}$/) }),
        responses: { 200: { description: 'The thing', schema: z.object({ name: z.string() }).strict() } },
      },
    ],
  });
  const app = express();
  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  // Documented: 200 with a name. Answered: a body without one, and 500 for any id longer than one digit.
  app.get('/things/:id', (req, res) => {
    if (req.params.id.length > 1) res.status(500).json({ error: 'boom' });
    else res.json({ title: 'no name' });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  try {
    const { port } = server.address() as AddressInfo;
    const result = await runSchemathesis(
      st,
      { name: 'liar', schemaUrl: `http://127.0.0.1:${port}/openapi.json`, headers: {} },
      { maxExamples: 5, seed: 1, reportDir: reportDir() },
    );
    expect(result.passed).toBe(false);
    expect(result.report.failures.map((failure) => failure.title)).toEqual(
      expect.arrayContaining(['Server error', 'Response violates schema']),
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}, 120_000);
