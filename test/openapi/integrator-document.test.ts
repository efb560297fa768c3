/**
 * The engine's document as an integrator reads it: every operation under a declared lifecycle tag with a description,
 * every answer with the headers the engine sends (X-Request-Id always; RateLimit on limited routes; Retry-After on 429
 * and on a 503 problem), every time `format: date-time`, and every merchant event's payload under webhooks.
 */
import { engineOpenApi } from '../../src/api/openapi-document';
import { MERCHANT_EVENT_TYPES } from '../../src/merchant-events/merchant-event';

const document = engineOpenApi();
type Response = { headers?: Record<string, { $ref?: string }>; content?: Record<string, unknown> };
type Operation = { operationId: string; tags?: string[]; description?: string; responses: Record<string, Response> };
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.values(methods as Record<string, Operation>).map((op) => ({ path, op })),
);
const headerNames = (response: Response): string[] => Object.keys(response.headers ?? {});

test('every operation has one declared tag and a description', () => {
  const declared = new Set((document.tags ?? []).map((tag) => tag.name));
  const untold = operations
    .filter(({ op }) => op.tags?.length !== 1 || !declared.has(op.tags[0] ?? '') || !op.description?.trim())
    .map(({ op }) => op.operationId);
  expect(untold).toEqual([]);
  expect(operations.length).toBeGreaterThanOrEqual(44);
});

test('every answer states the headers the engine sends with it', () => {
  for (const { path, op } of operations) {
    for (const [status, response] of Object.entries(op.responses)) {
      const where = `${op.operationId} ${status}`;
      expect({ where, requestId: headerNames(response).includes('X-Request-Id') }).toEqual({ where, requestId: true });
      if (path !== '/healthz')
        expect({ where, headers: headerNames(response) }).toEqual({
          where,
          headers: expect.arrayContaining(['RateLimit', 'RateLimit-Policy']) as unknown,
        });
      const problem = response.content?.['application/problem+json'] !== undefined;
      if (status === '429' || (status === '503' && problem))
        expect({ where, headers: headerNames(response) }).toEqual({
          where,
          headers: expect.arrayContaining(['Retry-After']) as unknown,
        });
    }
  }
});

test('every time the engine answers or sends is format: date-time', () => {
  const untyped: string[] = [];
  const walk = (value: unknown, where: string): void => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${where}/${index}`));
    if (value === null || typeof value !== 'object') return;
    const properties =
      (value as { properties?: Record<string, { type?: unknown; format?: unknown; $ref?: unknown }> }).properties ?? {};
    for (const [name, property] of Object.entries(properties)) {
      if (/(At|^at|^since|^deadline)$/.test(name) && property.$ref === undefined && property.format !== 'date-time')
        untyped.push(`${where}/${name}`);
    }
    for (const [key, inner] of Object.entries(value)) walk(inner, `${where}/${key}`);
  };
  walk({ components: document.components, paths: document.paths, webhooks: document.webhooks }, '#');
  expect(untyped).toEqual([]);
});

test('webhooks: every merchant event type, its payload typed by the object it is about', () => {
  const webhooks = (document.webhooks ?? {}) as Record<
    string,
    { post?: { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } } }
  >;
  expect(Object.keys(webhooks).sort()).toEqual([...MERCHANT_EVENT_TYPES].sort());
  for (const type of MERCHANT_EVENT_TYPES) {
    const payload = webhooks[type]?.post?.requestBody?.content?.['application/json']?.schema;
    expect({ type, payload }).toEqual({
      type,
      payload: expect.objectContaining({
        properties: expect.objectContaining({
          type: { type: 'string', const: type },
          data: { $ref: expect.stringMatching(/EventData$/) as unknown },
        }) as unknown,
      }) as unknown,
    });
  }
});
