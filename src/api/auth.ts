/**
 * Who may call what. Every request under /v1 presents an API key (401 without a valid one); every operation
 * needs the one scope its OpenAPI security requirement names (`keyed(scope, …)` in src/api/<flow>/openapi.ts),
 * checked before its route runs: 403 naming that scope, with RFC 6750's `WWW-Authenticate: Bearer
 * error="insufficient_scope"`. The codec's routes ask the same of the `codec` scope (codec-routes.ts).
 *
 * The checks are Express routes on the operations' own paths, in a router mounted before the feature routers:
 * Express's matching (case, trailing slash, parameters) decides for both, so a check cannot miss the route it
 * guards; and `undeclaredRoutes` finds a route under /v1 that no operation declares, which the API refuses to
 * start with (app.ts).
 */
import { Router, type Request, type RequestHandler } from 'express';
import { apiKeyScopeSchema, type ApiKey, type ApiKeyScope } from '../config/api-keys';
import { bearerToken, holderOfSecret } from '../http/bearer-auth';
import type { OperationSpec } from '../openapi/document';
import { ApiError } from './errors';
import { API_KEY_SCHEME } from './openapi-helpers';

const presentedKeys = new WeakMap<Request, ApiKey>();

const unauthorized = (): ApiError =>
  new ApiError(401, 'UNAUTHORIZED', 'Missing or invalid API key: send Authorization: Bearer <key>');

/** The key the request presents, kept for the scope checks that follow; `refusal` when none is valid. */
export function requireApiKey(keys: readonly ApiKey[], refusal: () => ApiError = unauthorized): RequestHandler {
  return (req, _res, next) => {
    const key = holderOfSecret(keys, (candidate) => candidate.secret, bearerToken(req));
    if (key) presentedKeys.set(req, key);
    next(key ? undefined : refusal());
  };
}

export function requireScope(scope: ApiKeyScope): RequestHandler {
  return (req, res, next) => {
    const key = presentedKeys.get(req);
    if (!key) {
      next(unauthorized());
      return;
    }
    if (key.scopes.includes(scope)) {
      next();
      return;
    }
    res.set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${scope}"`);
    next(new ApiError(403, 'INSUFFICIENT_SCOPE', `This API key lacks the scope ${scope}, which this operation needs`));
  };
}

export interface ScopedRoute {
  method: OperationSpec['method'];
  path: string;
  scope: ApiKeyScope;
}

/** The operations behind an API key, each with the scope its security requirement names (exactly one). */
export function scopedRoutes(operations: readonly OperationSpec[]): ScopedRoute[] {
  return operations.flatMap((op) => {
    const scopes = (op.security ?? []).flatMap((requirement) => requirement[API_KEY_SCHEME] ?? []);
    const keyed = (op.security ?? []).some((requirement) => API_KEY_SCHEME in requirement);
    if (!keyed) return [];
    if (scopes.length !== 1)
      throw new Error(`${op.id}: an operation behind an API key names exactly one scope, not ${scopes.length}`);
    return [{ method: op.method, path: op.path, scope: apiKeyScopeSchema.parse(scopes[0]) }];
  });
}

const parameterCount = (path: string): number => (path.match(/:/g) ?? []).length;

/**
 * A route per operation that checks its scope, then leaves this router (`next('router')`), so only the
 * first that matches decides: the fewest parameters first, as the feature routes are registered
 * (`/v1/payouts/quote` before `/v1/payouts/:externalId`).
 */
export function scopeChecks(routes: readonly ScopedRoute[]): Router {
  const router = Router();
  const leave: RequestHandler = (_req, _res, next) => next('router');
  for (const { method, path, scope } of [...routes].sort((a, b) => parameterCount(a.path) - parameterCount(b.path)))
    router[method](path, requireScope(scope), leave);
  return router;
}

interface RouteLayer {
  route?: { path: unknown; stack: { method?: string }[] };
  handle: unknown;
}

function routesOf(router: Router): { method: string; path: string }[] {
  return (router.stack as RouteLayer[]).flatMap((layer) => {
    const nested =
      typeof layer.handle === 'function' && Array.isArray((layer.handle as { stack?: unknown }).stack)
        ? routesOf(layer.handle as Router)
        : [];
    const path = layer.route?.path;
    const own =
      typeof path === 'string'
        ? (layer.route?.stack ?? []).flatMap(({ method }) => (method ? [{ method, path }] : []))
        : [];
    return [...own, ...nested];
  });
}

/** `METHOD path` of each route under /v1 of `routers` that no operation declares with its scope. */
export function undeclaredRoutes(routers: readonly Router[], routes: readonly ScopedRoute[]): string[] {
  const declared = new Set(routes.map(({ method, path }) => `${method.toUpperCase()} ${path}`));
  const served = routers.flatMap(routesOf).filter(({ path }) => path === '/v1' || path.startsWith('/v1/'));
  return [...new Set(served.map(({ method, path }) => `${method.toUpperCase()} ${path}`))].filter(
    (route) => !declared.has(route),
  );
}
