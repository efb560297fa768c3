/** Builds an OpenAPI 3.1 document from zod schemas: the schemas that validate are the ones documented. */
import { z } from 'zod';

export interface OperationSpec {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Express style (`/v1/payouts/:externalId`); converted to OpenAPI's `{externalId}`. */
  path: string;
  summary: string;
  security?: string;
  body?: z.ZodType;
  query?: z.ZodType;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

export function openApiDocument(info: { title: string; version: string; description?: string }, securitySchemes: Record<string, object>, operations: OperationSpec[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...op.path.matchAll(/:(\w+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
    const queryParams = op.query
      ? Object.entries((toJsonSchema(op.query, 'input') as { properties?: Record<string, object> }).properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: false, schema }))
      : [];
    paths[path] ??= {};
    paths[path][op.method] = {
      summary: op.summary,
      ...(op.security ? { security: [{ [op.security]: [] }] } : {}),
      ...(pathParams.length + queryParams.length > 0 ? { parameters: [...pathParams, ...queryParams] } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(op.body, 'input') } } } } : {}),
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([status, response]) => [
          status,
          { description: response.description, ...(response.schema ? { content: { 'application/json': { schema: toJsonSchema(response.schema, 'output') } } } : {}) },
        ]),
      ),
    };
  }
  return { openapi: '3.1.0', info, components: { securitySchemes }, paths };
}
