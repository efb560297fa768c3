/**
 * 405 Method Not Allowed with an `Allow` header, for Express apps. Express answers 404 when a path
 * exists under other methods; a client then cannot tell a typo in the path from a wrong method.
 *
 * `trackAllowedMethods(app.router)` walks the registered routes once the app is built and appends,
 * to each router, a catch-all for every route path that notes the methods that path has. Matching is
 * Express's own, so parameters and mount paths behave exactly as for the real routes. A request that
 * reaches the end of the app with noted methods gets the 405 from `methodNotAllowed` (an OPTIONS gets
 * 200 and the same `Allow`); one without is a genuine 404.
 */
import type { Request, RequestHandler, Router } from 'express';

/** Per request, the methods of each route path that matched it, by how many parameters that path has. */
const allowedByRequest = new WeakMap<Request, Map<number, Set<string>>>();

interface RouteLayer {
  route?: { path: unknown; stack: { method?: string }[] };
  handle: unknown;
}

function isRouter(handle: unknown): handle is Router {
  return typeof handle === 'function' && Array.isArray((handle as { stack?: unknown }).stack);
}

function parameterCount(path: string): number {
  return (path.match(/[:*]/g) ?? []).length;
}

function noteAllowed(path: string, methods: readonly string[]): RequestHandler {
  const parameters = parameterCount(path);
  return (req, _res, next) => {
    const byParameters = allowedByRequest.get(req) ?? new Map<number, Set<string>>();
    const allowed = byParameters.get(parameters) ?? new Set<string>();
    for (const method of methods) allowed.add(method);
    byParameters.set(parameters, allowed);
    allowedByRequest.set(req, byParameters);
    next();
  };
}

/**
 * The methods of the most specific paths that matched: `/v1/payouts/preview` is its own resource, not
 * the payout `preview` that `/v1/payouts/:externalId` would also match.
 */
function allowedMethods(req: Request): string[] {
  const byParameters = allowedByRequest.get(req);
  if (!byParameters || byParameters.size === 0) return [];
  return [...(byParameters.get(Math.min(...byParameters.keys())) ?? [])].sort();
}

/** Appends the catch-alls to `router` and to every router mounted in it. Call once, after every route. */
export function trackAllowedMethods(router: Router): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const layer of router.stack as RouteLayer[]) {
    if (isRouter(layer.handle)) trackAllowedMethods(layer.handle);
    if (!layer.route || typeof layer.route.path !== 'string') continue;
    const methods = methodsByPath.get(layer.route.path) ?? new Set<string>();
    for (const { method } of layer.route.stack) if (method) methods.add(method.toUpperCase());
    methodsByPath.set(layer.route.path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    // A GET route serves HEAD too (Express does that by itself).
    if (methods.has('GET')) methods.add('HEAD');
    router.all(path, noteAllowed(path, [...methods]));
  }
  // Each router would otherwise answer an OPTIONS itself, listing every method of every path that matched.
  router.use(answerOptions);
}

const answerOptions: RequestHandler = (req, res, next) => {
  const allowed = allowedMethods(req);
  if (req.method !== 'OPTIONS' || allowed.length === 0) {
    next();
    return;
  }
  res.set('Allow', allowed.join(', '));
  res.type('text/plain').send(allowed.join(', '));
};

/**
 * Mount after every route. A path with other methods: `Allow`, and `refuse(...)` to the error handler
 * (or 200 to an OPTIONS). A path with no method at all passes on to the 404.
 */
export function methodNotAllowed(
  refuse: (method: string, path: string, allowed: readonly string[]) => Error,
): RequestHandler {
  return (req, res, next) => {
    const allowed = allowedMethods(req);
    // The method is among them when its route handed the request on (middleware such as a limiter): not a 405.
    if (allowed.length === 0 || allowed.includes(req.method)) {
      next();
      return;
    }
    res.set('Allow', allowed.join(', '));
    // As Express answers an OPTIONS itself when nothing else does: 200, the list as the body.
    if (req.method === 'OPTIONS') res.type('text/plain').send(allowed.join(', '));
    else next(refuse(req.method, req.path, allowed));
  };
}
