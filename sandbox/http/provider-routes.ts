/**
 * Mounts the provider's endpoints from the contract's endpoint table: path, method, credential scheme
 * and schemas come from the table, the behaviour from the product registry. One pipeline for all:
 * faults → credentials → validation → handler → the profile's rewrite → response checked against the
 * contract (default profile only) → answer (or, under the timeoutAfterCommit fault, no answer at all).
 * The seed profile's answers are not checked with the engine's schemas: it plays a provider the engine
 * may not read, and leaves unmounted what the spec does not show.
 */
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import { endpoints, ENDPOINT_NAMES, type EndpointDefinition, type EndpointName } from '../../src/payment-api/endpoints';
import type { CredentialChecks } from '../auth/credentials';
import type { SandboxContext } from '../context';
import type { ProductRoutes } from '../products/product';
import type { SandboxUser } from '../store/users';
import { parseOrRefuse, providerError } from './errors';

/** The socket-level faults need the server's help: hanging sockets are destroyed on stop. */
export interface ConnectionControl {
  hang(socket: Socket): void;
  reset(socket: Socket): void;
}

interface ErasedCall {
  ctx: SandboxContext;
  user: SandboxUser | undefined;
  input: unknown;
  params: unknown;
  req: Request;
}
interface ErasedRoute {
  movesMoney?: boolean;
  handle(call: ErasedCall): { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;
}

/** Every route of the table that a product serves, aliases resolved to their target's route. */
export function resolveRoutes(routes: ProductRoutes): { endpoint: EndpointDefinition; route: ErasedRoute }[] {
  const resolved: { endpoint: EndpointDefinition; route: ErasedRoute }[] = [];
  for (const name of ENDPOINT_NAMES) {
    const endpoint: EndpointDefinition = endpoints[name];
    const target = (endpoint.aliasOf ?? name) as EndpointName;
    const route = routes[target] as ErasedRoute | undefined;
    if (route) resolved.push({ endpoint, route });
  }
  return resolved;
}

/**
 * Endpoint 6's credentials are not in the spec: the sandbox plays a provider whose deposit endpoint takes
 * those of CASH_IN_DEPOSIT_AUTH (Bearer by default), so the engine's setting can be tried against it.
 */
function credentialsOf(endpoint: EndpointDefinition, config: SandboxContext['config']): EndpointDefinition['auth'] {
  return endpoint.name === 'createDeposit' ? config.CASH_IN_DEPOSIT_AUTH : endpoint.auth;
}

function authenticate(
  endpoint: EndpointDefinition,
  config: SandboxContext['config'],
  credentials: CredentialChecks,
  req: Request,
): SandboxUser | undefined {
  switch (credentialsOf(endpoint, config)) {
    case 'none':
      return undefined;
    case 'bearer':
      return credentials.bearer(req);
    case 'client-headers':
      return credentials.clientHeaders(req);
  }
}

function readInput(endpoint: EndpointDefinition, req: Request): unknown {
  const schema: z.ZodType | undefined = endpoint.request;
  if (!schema || endpoint.requestIn === 'none') return undefined;
  if (endpoint.requestIn === 'query') return parseOrRefuse(schema, req.query, 'query');
  // No body at all reads as an empty object: zod then names each missing field (a body of another type is a 415 before this).
  return parseOrRefuse(schema, req.body ?? {}, 'body');
}

export function providerRouter(deps: {
  ctx: SandboxContext;
  routes: ProductRoutes;
  credentials: CredentialChecks;
  connections: ConnectionControl;
}): Router {
  const { ctx, credentials, connections } = deps;
  const router = Router();
  for (const { endpoint, route } of resolveRoutes(deps.routes)) {
    if (ctx.profile.omits.includes(endpoint.name as EndpointName)) continue;
    const method = endpoint.method === 'GET' ? 'get' : 'post';
    router[method](endpoint.path, async (req: Request, res: Response) => {
      if (ctx.faults.shouldFailRequest())
        throw providerError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable (sandbox fault: errorRate)');
      const latency = ctx.faults.latencyMs();
      if (latency > 0) await sleep(latency);

      const user = authenticate(endpoint, deps.ctx.config, credentials, req);
      const params = endpoint.params ? parseOrRefuse(endpoint.params, req.params, 'path') : undefined;
      const input = readInput(endpoint, req);
      const result = await route.handle({ ctx, user, input, params, req });
      const body = ctx.profile.response(endpoint.name as EndpointName, result.body, (clientId) =>
        user ? ctx.operations.findForUser(user.id, clientId)?.id : undefined,
      );

      // The default profile keeps to the contract it shares with the engine: an answer the engine cannot read is a sandbox bug.
      const checked = ctx.profile.checksAnswers ? endpoint.response.safeParse(body) : { success: true as const };
      if (!checked.success) {
        // A sandbox answer outside the contract is a sandbox bug: fail loudly rather than teach clients a wrong shape.
        ctx.logger.error('sandbox.response_contract_violation', {
          endpoint: endpoint.name,
          issues: checked.error.issues.map((issue) => issue.path.join('.')),
        });
        throw providerError('INTERNAL_ERROR', `Sandbox response of ${endpoint.name} does not match the contract`);
      }
      const status = result.status ?? 200;
      if (status < 300) {
        const mode = ctx.faults.takeTimeoutAfterCommit({ path: req.path, movesMoney: route.movesMoney === true });
        if (mode) {
          ctx.logger.info('sandbox.fault_timeout_after_commit', { endpoint: endpoint.name, mode });
          if (mode === 'reset') connections.reset(req.socket);
          else connections.hang(req.socket);
          return;
        }
      }
      res.status(status).json(body);
    });
  }
  return router;
}
