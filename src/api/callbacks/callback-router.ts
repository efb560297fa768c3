/**
 * The one place provider callbacks come in. For every route: verify the signature over the raw bytes
 * (verify-callback.ts), read the fields it names (parse-callback.ts), find the operation it names and signal its
 * workflow (deliver-callback.ts); here, what joins them: replays, the unsigned budget, the unmatched store.
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
import express, { Router, type Response } from 'express';
import type { Client } from '@temporalio/client';
import type { Logger } from '../../logging/logger';
import { plainId } from '../../logging/request-context';
import type { CallbackSignaturePolicy, CallbackVerifier } from '../../payment-api/callback-verifier';
import { WEBHOOK_ID_HEADER, type ReplayGuard } from '../../payment-api/webhook-signature';
import { callbacksUnmatched } from '../../metrics/engine-metrics';
import type { FieldReaders, FieldsRead } from '../../infractions/record-reader';
import { ApiError } from '../errors';
import { clientIpKey } from '../../http/rate-limit';
import type { CallbackRoute } from './callback-route';
import { deliverCallback } from './deliver-callback';
import { fieldsRead, parseCallback, unroutable } from './parse-callback';
import type { UnmatchedCallbackIds, UnmatchedCallbackStore } from './unmatched-callbacks';
import type { UnsignedBudget, UnsignedClient } from './unsigned-budget';
import { verifyCallback } from './verify-callback';

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
  /** How long a callback waits for its workflow to accept it as an update before it is signalled (PROVIDER_CALLBACK_UPDATE_DEADLINE_MS). */
  updateDeadlineMs: number;
  logger: Logger;
  now?: () => Date;
}

export function callbackRouter(
  deps: CallbackRouterDependencies,
  routes: CallbackRoute<FieldReaders, unknown>[],
): Router {
  const router = Router();
  const now = deps.now ?? (() => new Date());
  for (const route of routes) {
    /**
     * A callback whose signature is good (or an allowed unsigned hint, from `client`) and which is new: parsed,
     * then signalled to its workflow (or kept as unmatched).
     */
    async function take(
      rawBody: Buffer,
      receivedAt: Date,
      eventId: string | undefined,
      client: UnsignedClient | undefined,
      log: Logger,
      res: Response,
    ): Promise<void> {
      const parsed = parseCallback(route, rawBody);
      if (parsed.kind === 'unroutable') {
        log.warn('callback.unroutable', { problem: unroutable(route, parsed.json, true) });
        const problem = unroutable(route, parsed.json, !client);
        await keepUnmatched(
          { receivedAt, route: route.path, reference: NO_ID, problem, ...(eventId ? { eventId } : {}) },
          client,
          parsed.read,
          log,
          res,
        );
        return;
      }
      const named = route.target(parsed.read, receivedAt);
      if (client && !deps.unsigned.budget.allows(client)) {
        log.warn('callback.unsigned_rate_limited');
        res.set('Retry-After', '60');
        throw new ApiError(
          429,
          'RATE_LIMITED',
          `More than ${deps.unsigned.perMinute} unsigned callbacks a minute from this address`,
        );
      }
      const delivery = await deliverCallback(
        deps.client,
        named,
        client ? route.untrusted(named.hint) : named.hint,
        route.flows,
        log,
        deps.updateDeadlineMs,
      );
      if (client) {
        if (delivery === 'signalled') deps.unsigned.budget.charge(client);
        log.info('callback.untrusted_hint', { delivery });
      }
      if (delivery !== 'absent') {
        res.status(200).json(delivery === 'signalled' ? { received: true } : { received: true, note: 'already final' });
        return;
      }
      const ids = {
        receivedAt,
        route: route.path,
        reference: named.reference,
        ...(eventId ? { eventId } : {}),
        ...(named.providerId ? { providerId: named.providerId } : {}),
      };
      await keepUnmatched(ids, client, parsed.read, log, res);
    }

    /** Kept for operators, answered 202: of an unsigned callback only its ids, of a signed one what the engine read of it. */
    async function keepUnmatched(
      ids: UnmatchedCallbackIds,
      client: UnsignedClient | undefined,
      read: FieldsRead<FieldReaders>,
      log: Logger,
      res: Response,
    ): Promise<void> {
      const kept = await deps.unmatched.add(
        client ? { ...ids, signed: false } : { ...ids, signed: true, payload: fieldsRead(read) },
      );
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
      const verdict = verifyCallback(deps, { rawBody, req, nowSeconds, route: route.path }, log);
      if (verdict.kind === 'unsigned') {
        await take(
          rawBody,
          receivedAt,
          eventId,
          { address: req.ip ?? req.socket.remoteAddress ?? '', key: clientIpKey(req) },
          log,
          res,
        );
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
