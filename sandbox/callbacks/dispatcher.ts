/**
 * Delivers outbox rows: signed over the exact bytes sent, one event id across retries, a timeout per
 * attempt, exponential backoff with jitter, every attempt recorded. At-least-once: a delivery cut
 * short by a stop is not recorded and goes out again after the restart.
 */
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import type { Logger } from '../../src/logging/logger';
import { networkErrorCode } from '../../src/net/network-error-code';
import {
  signWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/payment-api/webhook-signature';
import type { FaultState } from '../faults/fault-state';
import type { CallbackRecord, Outbox } from './outbox';

/** docs/assumptions.md §5.3: a 2xx within 10 s; backoff capped at 5 minutes. */
export const CALLBACK_ATTEMPT_TIMEOUT_MS = 10_000;
export const CALLBACK_MAX_BACKOFF_MS = 300_000;

export interface DispatcherOptions {
  outbox: Outbox;
  faults: FaultState;
  secrets: readonly string[];
  /** `hmac`: the documented scheme; `none`: no signature headers; `alt`: a scheme of another provider (sha256=, over the body alone). */
  signature?: 'hmac' | 'none' | 'alt';
  retryBaseMs: number;
  now: () => number;
  logger: Logger;
  random?: () => number;
}

export interface Dispatcher {
  /** Starts the deliveries that are due; never waits for them. */
  dispatchDue(): void;
  /** Aborts what is in flight (not recorded, so it is retried after a restart) and waits for it. */
  stop(): Promise<void>;
}

/** base × 2^(n-1), capped, then ±25 % jitter so that many failed callbacks do not retry in lockstep. */
export function backoffMs(baseMs: number, attempt: number, random: () => number): number {
  const exponential = Math.min(CALLBACK_MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (0.75 + random() * 0.5));
}

class StoppedError extends Error {}

/** The system code when there is one (ECONNREFUSED, ...), the error's message otherwise. */
function describeNetworkError(error: unknown): string {
  return networkErrorCode(error) ?? (error instanceof Error ? error.message : String(error));
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { outbox, logger, now } = options;
  const random = options.random ?? Math.random;
  const inFlight = new Map<string, Promise<void>>();
  const stopping = new AbortController();

  function signatureHeaders(body: string, at: number): Record<string, string> {
    const scheme = options.signature ?? 'hmac';
    if (scheme === 'none') return {};
    const timestamp = String(Math.floor(at / 1000));
    if (scheme === 'alt') {
      const secret = options.secrets[0] ?? '';
      return {
        [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
        [WEBHOOK_SIGNATURE_HEADER]: `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`,
      };
    }
    const signed = signWebhook(options.secrets, body, Number(timestamp));
    return { [WEBHOOK_TIMESTAMP_HEADER]: signed.timestamp, [WEBHOOK_SIGNATURE_HEADER]: signed.signature };
  }

  async function post(
    record: CallbackRecord,
  ): Promise<{ statusCode: number | null; error: string | null; durationMs: number; at: number }> {
    const at = now();
    const started = Date.now();
    try {
      // undici's request rather than fetch: no redirects followed, a third of the CPU per delivery.
      const response = await request(record.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_ID_HEADER]: record.id,
          ...signatureHeaders(record.body, at),
        },
        body: record.body,
        signal: AbortSignal.any([AbortSignal.timeout(CALLBACK_ATTEMPT_TIMEOUT_MS), stopping.signal]),
      });
      await response.body.dump().catch(() => undefined);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        statusCode: response.statusCode,
        error: ok ? null : `HTTP ${response.statusCode}`,
        durationMs: Date.now() - started,
        at,
      };
    } catch (error) {
      if (stopping.signal.aborted) throw new StoppedError();
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      const message = timedOut ? `no answer within ${CALLBACK_ATTEMPT_TIMEOUT_MS} ms` : describeNetworkError(error);
      return { statusCode: null, error: message, durationMs: Date.now() - started, at };
    }
  }

  async function deliver(record: CallbackRecord): Promise<void> {
    let copies = record.extraCopies;
    let attempts = record.attempts;
    let delivered = record.status === 'delivered';
    for (;;) {
      const result = await post(record);
      attempts += 1;
      const ok = result.error === null;
      if (ok) {
        const duplicate = copies > 0;
        if (duplicate) copies -= 1;
        delivered = true;
        outbox.recordAttempt(record.id, result, { status: 'delivered', extraCopies: copies });
        logger.info('sandbox.callback_delivered', {
          callbackId: record.id,
          operationId: record.operationId,
          type: record.type,
          attempt: attempts,
          duplicate,
        });
        if (duplicate) continue;
        return;
      }
      if (delivered) {
        // A failed duplicate copy does not undo the delivery that already happened.
        outbox.recordAttempt(record.id, result, { status: 'delivered', extraCopies: 0 });
        return;
      }
      const exhausted = attempts >= record.maxAttempts;
      const nextAttemptAt = now() + backoffMs(options.retryBaseMs, attempts, random);
      outbox.recordAttempt(record.id, result, exhausted ? { status: 'failed' } : { status: 'pending', nextAttemptAt });
      logger.warn(exhausted ? 'sandbox.callback_failed' : 'sandbox.callback_retry', {
        callbackId: record.id,
        operationId: record.operationId,
        attempt: attempts,
        statusCode: result.statusCode,
        error: result.error,
      });
      return;
    }
  }

  function track(ids: string[], run: () => Promise<void>): void {
    const promise = run()
      .catch((error: unknown) => {
        if (!(error instanceof StoppedError))
          logger.error('sandbox.callback_dispatch_error', { error: error instanceof Error ? error : String(error) });
      })
      .finally(() => {
        for (const id of ids) inFlight.delete(id);
      });
    for (const id of ids) inFlight.set(id, promise);
  }

  /** Held callbacks (reorder fault) go out newest first, one after the other, once the window is quiet. */
  function releaseHeld(): void {
    const held = outbox.held().filter((record) => !inFlight.has(record.id));
    const newest = held[0];
    if (!newest || newest.createdAt + options.faults.reorderWindowMs() > now()) return;
    track(
      held.map((record) => record.id),
      async () => {
        for (const record of held) await deliver(record);
      },
    );
  }

  return {
    dispatchDue() {
      if (stopping.signal.aborted) return;
      releaseHeld();
      for (const record of outbox.due(now(), 50)) {
        if (inFlight.has(record.id)) continue;
        track([record.id], () => deliver(record));
      }
    },
    async stop() {
      stopping.abort();
      await Promise.allSettled([...new Set(inFlight.values())]);
    },
  };
}
