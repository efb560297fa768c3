/**
 * The one place provider callbacks come in. For every route: verify the signature over the raw bytes
 * (before any JSON parsing), parse with the contract's schema, map the payload to its workflow, signal it.
 * 401 on a bad or stale signature; 400 on a bad body; 200 once Temporal took the signal (or the payout
 * is already closed: late callbacks change nothing; or the same signed callback was taken already within
 * its 300 s window: a replay, answered without a signal); 202 for an unknown payout, kept for operators
 * with only the fields its schema declares; 503 when Temporal cannot take it, so the provider retries
 * and no callback is lost. The body's Content-Type is not looked at: the signature decides.
 */
import express, { Router, type Response } from 'express';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { SignalDefinition } from '@temporalio/common';
import { z } from 'zod';
import type { Logger } from '../../logging/logger';
import { plainId } from '../../logging/request-context';
import { verifyWebhook, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, type ReplayGuard, type SignedRequest } from '../../payment-api/webhook-signature';
import { callbacksReceived, callbacksUnmatched } from '../../metrics/engine-metrics';
import { linkToWorkflowTrace } from '../../telemetry/trace-links';
import { zodIssues } from '../../validation/issues';
import { ApiError } from '../errors';
import { isTemporalUnavailable, temporalUnavailable } from '../temporal-calls';
import type { UnmatchedCallbackStore } from './unmatched-callbacks';

export interface CallbackTarget<H> {
  workflowId: string;
  signal: SignalDefinition<[H]>;
  hint: H;
  /** The business id, for logs and the unmatched store. */
  reference: string;
}

export interface CallbackRoute<S extends z.ZodType, H> {
  path: string;
  schema: S;
  target(payload: z.output<S>, receivedAt: Date): CallbackTarget<H>;
}

export interface CallbackRouterDependencies {
  client: Client;
  secrets: readonly string[];
  unmatched: UnmatchedCallbackStore;
  /** The callbacks this process accepted within the signature window: the same one again is answered without a signal. */
  replays: ReplayGuard;
  logger: Logger;
  now?: () => Date;
}

const SIGNAL_DEADLINE_MS = 5_000;

/**
 * The keys an object schema declares, through the wrappers the contract uses (`z.preprocess` of
 * `acceptSpellings` is a pipe); undefined for any other schema.
 */
export function declaredKeys(schema: z.ZodType): readonly string[] | undefined {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return declaredKeys(schema.out as z.ZodType) ?? declaredKeys(schema.in as z.ZodType);
  return undefined;
}

/** What the contract declares of a payload: unknown fields (read for routing, possibly personal data) are not kept. */
function declaredFields(keys: readonly string[], payload: unknown): Record<string, unknown> {
  const record = payload as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]));
}

/** Builds a route; the generic keeps each route's schema and hint types tied together. */
export function callbackRoute<S extends z.ZodType, H>(route: CallbackRoute<S, H>): CallbackRoute<S, H> {
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

export function callbackRouter(deps: CallbackRouterDependencies, routes: CallbackRoute<z.ZodType, unknown>[]): Router {
  const router = Router();
  const now = deps.now ?? (() => new Date());
  for (const route of routes) {
    const declared = declaredKeys(route.schema);
    if (!declared) throw new Error(`callback route ${route.path}: its schema must be an object schema`);
    const keys = declared;

    /** A callback whose signature is good and which is new: parsed, then signalled to its workflow (or kept as unmatched). */
    async function take(rawBody: Buffer, receivedAt: Date, eventId: string | undefined, log: Logger, res: Response): Promise<void> {
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new ApiError(400, 'MALFORMED_JSON', 'The callback body is not valid JSON');
      }
      const parsed = route.schema.safeParse(json);
      if (!parsed.success) {
        log.warn('callback.invalid', { issues: zodIssues(parsed.error) });
        throw new ApiError(400, 'VALIDATION_FAILED', 'The callback body is invalid', zodIssues(parsed.error));
      }
      const target = route.target(parsed.data, receivedAt);
      try {
        // Within the provider's own webhook timeout: better a quick 503 (it retries) than a hung request.
        await deps.client.withDeadline(Date.now() + SIGNAL_DEADLINE_MS, () => deps.client.workflow.getHandle(target.workflowId).signal(target.signal, target.hint));
        log.info('callback.signalled', { workflowId: target.workflowId });
        await linkToWorkflowTrace(deps.client, target.workflowId);
        res.status(200).json({ received: true });
        return;
      } catch (error) {
        if (isTemporalUnavailable(error)) {
          log.error('callback.temporal_unavailable', { workflowId: target.workflowId });
          throw temporalUnavailable();
        }
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
      if (await workflowExists(deps.client, target.workflowId)) {
        log.info('callback.after_close', { workflowId: target.workflowId });
        res.status(200).json({ received: true, note: 'already final' });
        return;
      }
      const kept = deps.unmatched.add({ receivedAt: receivedAt.toISOString(), route: route.path, ...(eventId ? { eventId } : {}), reference: target.reference, payload: declaredFields(keys, parsed.data) });
      callbacksUnmatched.inc({ route: route.path });
      if (kept) log.warn('callback.unmatched', { reference: target.reference });
      else log.info('callback.unmatched_again', { reference: target.reference });
      res.status(202).json({ received: true, matched: false });
    }

    router.post(route.path, express.raw({ type: () => true, limit: '256kb' }), async (req, res) => {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const receivedAt = now();
      // Read before the signature is checked: only a plain token may reach the logger (or, later, the store).
      const eventId = plainId(req.get(WEBHOOK_ID_HEADER));
      const log = deps.logger.child({ route: route.path, eventId });
      const signed: SignedRequest = { timestampHeader: req.get(WEBHOOK_TIMESTAMP_HEADER), signatureHeader: req.get(WEBHOOK_SIGNATURE_HEADER) };
      const nowSeconds = Math.floor(receivedAt.getTime() / 1000);
      const verification = verifyWebhook({ secrets: [...deps.secrets], rawBody, ...signed, nowSeconds });
      callbacksReceived.inc({ route: route.path, verification: verification.ok ? 'verified' : 'rejected' });
      if (!verification.ok) {
        log.warn('callback.rejected', { reason: verification.reason });
        throw new ApiError(401, 'INVALID_SIGNATURE', `Callback signature rejected: ${verification.reason}`);
      }
      if (!deps.replays.claim(signed, nowSeconds)) {
        // Taken already (or being taken): answered as received, so the sender stops, and nothing is signalled again.
        log.warn('callback.replayed');
        res.status(200).json({ received: true, note: 'replay' });
        return;
      }
      try {
        await take(rawBody, receivedAt, eventId, log, res);
      } catch (error) {
        // Not taken: the same bytes sent again (a provider's retry) must be taken then.
        deps.replays.release(signed);
        throw error;
      }
    });
  }
  return router;
}
