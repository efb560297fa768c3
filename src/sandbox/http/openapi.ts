/**
 * GET /openapi.json: generated from the contract's endpoint table, so every path and alias the client
 * knows is documented with the very schemas that validate it.
 */
import { endpoints, ENDPOINT_NAMES, type EndpointDefinition } from '../../payment-api/endpoints';
import { providerErrorSchema } from '../../payment-api/schemas/errors';
import { openApiDocument, type OperationSpec } from '../../openapi/document';

const ERROR_RESPONSES = {
  400: { description: 'VALIDATION_FAILED or MALFORMED_JSON', schema: providerErrorSchema },
  401: { description: 'UNAUTHORIZED or TOKEN_EXPIRED', schema: providerErrorSchema },
  422: { description: 'Business rule refused the request', schema: providerErrorSchema },
  503: { description: 'SERVICE_UNAVAILABLE', schema: providerErrorSchema },
};

function operationOf(endpoint: EndpointDefinition): OperationSpec {
  const security = endpoint.auth === 'bearer' ? 'bearerAuth' : endpoint.auth === 'client-headers' ? 'clientId' : undefined;
  return {
    method: endpoint.method === 'GET' ? 'get' : 'post',
    path: endpoint.path,
    summary: endpoint.aliasOf ? `${endpoint.summary} (alias of ${endpoints[endpoint.aliasOf as keyof typeof endpoints].path})` : endpoint.summary,
    ...(security ? { security } : {}),
    ...(endpoint.request && endpoint.requestIn === 'body' ? { body: endpoint.request } : {}),
    ...(endpoint.request && endpoint.requestIn === 'query' ? { query: endpoint.request } : {}),
    responses: { 200: { description: 'Success', schema: endpoint.response }, ...ERROR_RESPONSES },
  };
}

export function sandboxOpenApiDocument(): ReturnType<typeof openApiDocument> {
  const list: EndpointDefinition[] = ENDPOINT_NAMES.map((name) => endpoints[name]);
  const document = openApiDocument(
    {
      title: 'Payment service (sandbox)',
      version: '1.0.0',
      description: 'The provider interface as the sandbox serves it. Gaps in the spec are decided in docs/assumptions.md.',
    },
    {
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      clientId: { type: 'apiKey', in: 'header', name: 'ci' },
      clientSecret: { type: 'apiKey', in: 'header', name: 'cs' },
    },
    list.map(operationOf),
  );
  // The credential-header scheme needs both headers at once: one requirement naming both schemes.
  for (const endpoint of list) {
    if (endpoint.auth !== 'client-headers') continue;
    const operation = document.paths[endpoint.path.replace(/:(\w+)/g, '{$1}')]?.[endpoint.method.toLowerCase()] as { security?: unknown } | undefined;
    if (operation) operation.security = [{ clientId: [], clientSecret: [] }];
  }
  return document;
}
