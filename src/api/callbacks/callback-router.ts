/**
 * The one place provider callbacks come in. For every route: verify the signature over the raw bytes
 * (before any JSON parsing), parse with the contract's schema, map the payload to its workflow, signal it.
 * 401 on a bad or stale signature (and, with PROVIDER_CALLBACK_SIGNATURES=required, on a missing one);
 * 400 on a bad body; 200 once Temporal took the signal (or the payout is already closed: late callbacks
 * change nothing; or the same signed callback was taken already within its 300 s window: a replay,
 * answered without a signal); 202 for an unknown payout, kept for operators with only the fields its
 * schema declares; 503 when Temporal cannot take it, so the provider retries and no callback is lost.
 * The body's Content-Type is not looked at: the signature decides.
 *
 * An unsigned callback taken under `optional` (or any callback under `off`) is an untrusted hint: its
 * route's `untrusted` strips everything but "look now", so it only makes the workflow ask the provider's
 * check; each client address may have UNSIGNED_CALLBACKS_PER_MINUTE of them reach an open operation
 * (unsigned-budget.ts; past it 429 with Retry-After), and of one that names nothing only its ids are kept.
 *
 * A callback is matched by our id when it carries one; else by the provider's id, which the workflow
 * indexed (ProviderTransactionId) once the provider answered it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import express, { Router, type Response } from 'express';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { SignalDefinition } from '@temporalio/common';
import type { Logger } from '../../logging/logger';
import { plainId } from '../../logging/request-context';
import type { CallbackSignaturePolicy, CallbackVerifier } from '../../payment-api/callback-verifier';
import { WEBHOOK_ID_HEADER, type ReplayGuard } from '../../payment-api/webhook-signature';
import { ProviderTransactionId } from '../../temporal/search-attributes';
import { callbacksReceived, callbacksUnmatched } from '../../metrics/engine-metrics';
import { linkToWorkflowTrace } from '../../telemetry/trace-links';
import { fieldNamesOf, readFields, type FieldReaders, type FieldsRead } from '../../infractions/record-reader';
import { CALLBACK_KINDS, type CallbackKind } from '../../payment-api/schemas/callback-fields';
import { ApiError } from '../errors';
import { isTemporalUnavailable, temporalUnavailable } from '../temporal-calls';
import { clientIpKey } from '../../http/rate-limit';
import type { UnmatchedCallbackIds, UnmatchedCallbackStore } from './unmatched-callbacks';
import type { UnsignedBudget, UnsignedClient } from './unsigned-budget';

export interface CallbackTarget<H> {
  /** The workflow of our id, when the callback carries it; else found by `providerId`. */
  workflowId?: string;
  /** The provider's id of the operation, when the callback carries it. */
  providerId?: string;
  signal: SignalDefinition<[H]>;
  hint: H;
  /** The business id, for logs and the unmatched store. */
  reference: string;
}

export interface CallbackRoute<R extends FieldReaders, H> {
  path: string;
  kind: CallbackKind;
  /** How each field the engine reads is read. */
  readers: R;
  /** The provider's names of each field, tried in order (the kind's setting). */
  names: Readonly<Record<keyof R, readonly string[]>>;
  /** The operation the callback names; asked only when one of its kind's `routedBy` fields was read. */
  target(read: FieldsRead<R>, receivedAt: Date): CallbackTarget<H>;
  /** The hint an unsigned callback may give: nothing the workflow could take as an outcome. */
  untrusted(hint: H): H;
  /** The flows (PayoutFlow values) a provider id is looked up among. */
  flows: readonly string[];
}

/** The status of a hint that carries no provider claim (an unsigned callback's, or one whose status could not be read): "look now". */
export const UNVERIFIED = 'UNVERIFIED';

/** The reference an unmatched callback is kept under when none of its ids could be read. */
export const NO_ID = '(no id)';

export interface CallbackRouterDependencies {
  client: Client;
  verifier: CallbackVerifier;
  policy: CallbackSignaturePolicy;
  /** Untrusted hints each client may have reach an open operation a minute (UNSIGNED_CALLBACKS_PER_MINUTE), in this process. */
  unsigned: { perMinute: number; budget: UnsignedBudget };
  unmatched: UnmatchedCallbackStore;
  /** The callbacks this process accepted within the signature window: the same one again is answered without a signal. */
  replays: ReplayGuard;
  logger: Logger;
  now?: () => Date;
}

const SIGNAL_DEADLINE_MS = 5_000;
/** Waits before each visibility lookup of a provider id: well within the provider's webhook timeout. */
const INDEX_LOOKUP_PAUSES_MS = [0, 250, 750, 1_500];

/** Why a callback names no operation: the provider's names the engine looked for (and, when given, the body's own field names, never their values). */
function unroutable(route: CallbackRoute<FieldReaders, unknown>, body: unknown, withFieldNames: boolean): string {
  const { routedBy, setting } = CALLBACK_KINDS[route.kind];
  const lookedFor = routedBy.flatMap((field: string) => route.names[field] ?? []);
  const fields = withFieldNames ? `; its fields: ${fieldNamesOf(body).join(', ') || 'none'}` : '';
  return `no id to route by: none of ${lookedFor.join(', ')} holds one (${setting} names them)${fields}`;
}

/** What a signed callback said that the engine read, under the provider's names (the rest, possibly personal data, is not kept). */
function fieldsRead(read: FieldsRead<FieldReaders>): Record<string, unknown> {
  return Object.fromEntries(Object.values(read).flatMap((found) => (found ? [[found.name, found.value]] : [])));
}

/** Builds a route; the generic keeps each route's schema and hint types tied together. */
export function callbackRoute<R extends FieldReaders, H>(route: CallbackRoute<R, H>): CallbackRoute<R, H> {
  return route;
}

/** Whether the workflow ever existed (a closed one refuses signals as if it did not). */
async function workflowExists(client: Client, workflowId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    if (isTemporalUnavailable(error)) throw temporalUnavailable();
    throw error;
  }
}

/** The workflow (running or closed) indexed under the provider's id among `flows`, if any; none found means unmatched, and the workflow's own polling still finds the outcome. */
async function workflowOfProviderId(client: Client, providerId: string, flows: readonly string[]): Promise<string | undefined> {
  // Only a plain token goes into a visibility query: nothing to escape, nothing to inject.
  const plain = /^[\w.:-]{1,128}$/;
  if (!plain.test(providerId) || !flows.every((flow) => plain.test(flow))) return undefined;
  const query = `${ProviderTransactionId.name} = '${providerId}' AND PayoutFlow IN (${flows.map((flow) => `'${flow}'`).join(', ')})`;
  // Visibility trails the workflow by a moment: a callback right after the provider's answer looks again briefly.
  for (const pauseMs of INDEX_LOOKUP_PAUSES_MS) {
    if (pauseMs > 0) await sleep(pauseMs);
    try {
      for await (const execution of client.workflow.list({ query, pageSize: 1 })) return execution.workflowId;
    } catch (error) {
      if (isTemporalUnavailable(error)) throw temporalUnavailable();
      throw error;
    }
  }
  return undefined;
}

export function callbackRouter(deps: CallbackRouterDependencies, routes: CallbackRoute<FieldReaders, unknown>[]): Router {
  const router = Router();
  const now = deps.now ?? (() => new Date());
  for (const route of routes) {
    const { routedBy } = CALLBACK_KINDS[route.kind];

    /** Signals the workflow; 'closed' when it ended (late callbacks change nothing), 'absent' when it never existed. */
    async function signalWorkflow<H>(workflowId: string, signal: SignalDefinition<[H]>, hint: H, log: Logger): Promise<'signalled' | 'closed' | 'absent'> {
      try {
        // Within the provider's own webhook timeout: better a quick 503 (it retries) than a hung request.
        await deps.client.withDeadline(Date.now() + SIGNAL_DEADLINE_MS, () => deps.client.workflow.getHandle(workflowId).signal(signal, hint));
        log.info('callback.signalled', { workflowId });
        await linkToWorkflowTrace(deps.client, workflowId);
        return 'signalled';
      } catch (error) {
        if (isTemporalUnavailable(error)) {
          log.error('callback.temporal_unavailable', { workflowId });
          throw temporalUnavailable();
        }
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
      if (!(await workflowExists(deps.client, workflowId))) return 'absent';
      log.info('callback.after_close', { workflowId });
      return 'closed';
    }

    /**
     * A callback whose signature is good (or an allowed unsigned hint, from `client`) and which is new: parsed,
     * then signalled to its workflow (or kept as unmatched).
     */
    async function take(rawBody: Buffer, receivedAt: Date, eventId: string | undefined, client: UnsignedClient | undefined, log: Logger, res: Response): Promise<void> {
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new ApiError(400, 'MALFORMED_JSON', 'The callback body is not valid JSON');
      }
      const read = readFields(json, route.readers, route.names);
      if (!routedBy.some((field: string) => read[field] !== undefined)) {
        const problem = unroutable(route, json, !client);
        log.warn('callback.unroutable', { problem: unroutable(route, json, true) });
        await keepUnmatched({ receivedAt, route: route.path, reference: NO_ID, problem, ...(eventId ? { eventId } : {}) }, client, read, log, res);
        return;
      }
      const named = route.target(read, receivedAt);
      if (client && !deps.unsigned.budget.allows(client)) {
        log.warn('callback.unsigned_rate_limited');
        res.set('Retry-After', '60');
        throw new ApiError(429, 'RATE_LIMITED', `More than ${deps.unsigned.perMinute} unsigned callbacks a minute from this address`);
      }
      const hint = client ? route.untrusted(named.hint) : named.hint;
      // Our id first; then the provider's id, which the workflow indexed once the provider answered it.
      let delivery: 'signalled' | 'closed' | 'absent' = named.workflowId === undefined ? 'absent' : await signalWorkflow(named.workflowId, named.signal, hint, log);
      if (delivery === 'absent' && named.providerId !== undefined) {
        const found = await workflowOfProviderId(deps.client, named.providerId, route.flows);
        if (found !== undefined) delivery = await signalWorkflow(found, named.signal, hint, log);
      }
      if (client) {
        if (delivery === 'signalled') deps.unsigned.budget.charge(client);
        log.info('callback.untrusted_hint', { delivery });
      }
      if (delivery !== 'absent') {
        res.status(200).json(delivery === 'signalled' ? { received: true } : { received: true, note: 'already final' });
        return;
      }
      const ids = { receivedAt, route: route.path, reference: named.reference, ...(eventId ? { eventId } : {}), ...(named.providerId ? { providerId: named.providerId } : {}) };
      await keepUnmatched(ids, client, read, log, res);
    }

    /** Kept for operators, answered 202: of an unsigned callback only its ids, of a signed one what the engine read of it. */
    async function keepUnmatched(ids: UnmatchedCallbackIds, client: UnsignedClient | undefined, read: FieldsRead<FieldReaders>, log: Logger, res: Response): Promise<void> {
      const kept = await deps.unmatched.add(client ? { ...ids, signed: false } : { ...ids, signed: true, payload: fieldsRead(read) });
      callbacksUnmatched.inc({ route: route.path });
      if (kept) log.warn('callback.unmatched', { reference: ids.reference, signed: !client });
      else log.info('callback.unmatched_again', { reference: ids.reference, signed: !client });
      res.status(202).json({ received: true, matched: false });
    }

    router.post(route.path, express.raw({ type: () => true, limit: '256kb' }), async (req, res) => {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const receivedAt = now();
      // Read before the signature is checked: only a plain token may reach the logger (or, later, the store).
      const eventId = plainId(req.get(WEBHOOK_ID_HEADER));
      const log = deps.logger.child({ route: route.path, eventId });
      const nowSeconds = Math.floor(receivedAt.getTime() / 1000);
      const verdict = deps.policy === 'off' ? { kind: 'unsigned' as const } : deps.verifier.verify({ rawBody, header: (name) => req.get(name), nowSeconds });
      if (verdict.kind === 'refused' || (verdict.kind === 'unsigned' && deps.policy === 'required')) {
        const reason = verdict.kind === 'refused' ? verdict.reason : 'missing-headers';
        callbacksReceived.inc({ route: route.path, verification: 'rejected' });
        log.warn('callback.rejected', { reason });
        throw new ApiError(401, 'INVALID_SIGNATURE', `Callback signature rejected: ${reason}`);
      }
      callbacksReceived.inc({ route: route.path, verification: verdict.kind === 'verified' ? 'verified' : 'unsigned' });
      if (verdict.kind === 'unsigned') {
        await take(rawBody, receivedAt, eventId, { address: req.ip ?? req.socket.remoteAddress ?? '', key: clientIpKey(req) }, log, res);
        return;
      }
      const signed = verdict.signed;
      if (!deps.replays.claim(signed, nowSeconds)) {
        // Taken already (or being taken): answered as received, so the sender stops, and nothing is signalled again.
        log.warn('callback.replayed');
        res.status(200).json({ received: true, note: 'replay' });
        return;
      }
      try {
        await take(rawBody, receivedAt, eventId, undefined, log, res);
      } catch (error) {
        // Not taken: the same bytes sent again (a provider's retry) must be taken then.
        deps.replays.release(signed);
        throw error;
      }
    });
  }
  return router;
}
