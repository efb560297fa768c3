/**
 * The engine API alone, in-process on a free port: its real routers on the shared Temporal dev server,
 * no worker and no sandbox. For what the HTTP surface answers before any workflow runs.
 */
import type { Server } from 'node:http';
import type { Client } from '@temporalio/client';
import type { Config } from '../../src/config/env';
import { engineApp, openEngine } from '../../src/engine/engine';
import { createLogger } from '../../src/logging/logger';
import { startMetricsServer } from '../../src/metrics/metrics-http';
import { freePort } from '../../src/net/free-port';
import {
  signWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/payment-api/webhook-signature';
import { connectClient } from '../../src/temporal/connection';
import { testConfig } from './temporal';

export interface EngineApi {
  config: Config;
  url: string;
  /** The API's Temporal client (the engine's data converter). */
  temporal: Client;
  /** The API's `/metrics`, on a port of its own. */
  metricsUrl: string;
  /** The first configured API key. */
  apiKey: string;
  fetch(path: string, init?: RequestInit & { apiKey?: string | null }): Promise<Response>;
  /** POSTs `body` to a callback route, signed as the provider signs it, now (or `laterSeconds` from now: a retry signed again). */
  sendCallback(path: string, body: string, eventId?: string, laterSeconds?: number): Promise<Response>;
  close(): Promise<void>;
}

/** A PIX-key payout of R$ 10.00 for `externalId` POSTed to the API, and taken (202). */
export async function postPayoutTo(api: EngineApi, externalId: string): Promise<void> {
  const accepted = await api.fetch('/v1/payouts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ externalId, amount: 10, pixKey: '52998224725', keyType: 'CPF' }),
  });
  expect(accepted.status).toBe(202);
}

/** `logs`: every line the API writes, at debug level (default: none kept). */
export async function startEngineApi(
  overrides: Record<string, string> = {},
  options: { logs?: (line: string) => void } = {},
): Promise<EngineApi> {
  const config = testConfig({ LOG_LEVEL: 'error', ...overrides });
  const logger = options.logs
    ? createLogger({ service: 'engine-api' }, 'debug', options.logs)
    : createLogger({ test: 'engine-api' }, 'error', () => undefined);
  const temporal = await connectClient(config);
  const engine = await openEngine(config, logger, temporal.client);
  const app = engineApp(engine, { readiness: {} });
  const port = await freePort();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(port, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${port}`;
  const metrics = await startMetricsServer({ host: '127.0.0.1', port: 0 });
  const apiKey = config.ENGINE_API_KEYS[0]?.secret ?? '';
  return {
    config,
    url,
    temporal: temporal.client,
    metricsUrl: `http://127.0.0.1:${metrics.port}/metrics`,
    apiKey,
    fetch(path, init = {}) {
      const { apiKey: key = apiKey, headers, ...rest } = init;
      return fetch(url + path, {
        ...rest,
        headers: {
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
          ...(headers as Record<string, string> | undefined),
        },
      });
    },
    sendCallback(path, body, eventId, laterSeconds = 0) {
      const signed = signWebhook(config.WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000) + laterSeconds);
      return fetch(url + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_TIMESTAMP_HEADER]: signed.timestamp,
          [WEBHOOK_SIGNATURE_HEADER]: signed.signature,
          ...(eventId ? { [WEBHOOK_ID_HEADER]: eventId } : {}),
        },
        body,
      });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await metrics.close();
      await temporal.close();
      await engine.close();
    },
  };
}
