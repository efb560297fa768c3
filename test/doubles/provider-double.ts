/**
 * A second implementation of the payment service, written from the interface document
 * (spec/payment-service-interface.md) alone, to run the engine against a provider that no code of ours
 * feeds. It imports nothing from src/, sandbox/, workflows/ or activities/ (lint forbids it), never checks
 * its answers with the engine's schemas, and keeps its state in memory. Where the document shows a shape,
 * the double answers exactly it; where the document says "not shown", the double chooses, and each choice
 * below differs on purpose from the sandbox's:
 *
 * - Callbacks are unsigned (no X-Service-Webhook-* headers), sent once, never retried. A withdrawal's or
 *   copy-and-paste payment's final status: `{ "id": <the double's transactionId>, "state": "COMPLETO"|"FALHA",
 *   "motivo"?: "..." }`; a charge's: `{ "id", "state": "COMPLETO"|"EXPIRADO", "valor" }`. The card callback is
 *   the document's PAYMENT_UPDATED payload, with the `externalReference` echo.
 * - Nothing is de-duplicated: a second POST with the same external_id, cash-in transactionId or card
 *   externalReference makes a second operation and moves money again.
 * - Endpoint 3 answers `{ "data": { "id", "status", "amount" } }` (endpoint 2's envelope), nothing else: no
 *   externalReference, no installmentCount (PENDING, then COMPLETED).
 * - Endpoint 5 takes `{ "payload": <EMV>, "value"?: <reais>, "reference"?: <client id>, "notifyUrl"?: <url> }`
 *   and answers `{ "message", "data": { "transactionId", "status": "PROCESSING", "amount", "fee", "total" } }`;
 *   the withdrawal's fee (R$ 0,75 + 2 %) applies at request time (rule 5).
 * - Endpoint 6 (deposit) is not served.
 * - Endpoint 7: `{ "infracoes": [ { "infraction_id", "transacao_id", "situacao", "valor", "motivo_abertura",
 *   "aberta_em", "prazo_defesa" } ], "pagina", "por_pagina" }`, at most 25 a page whatever perPage asks, no totals.
 * - Endpoint 8 takes `analise` CONCORDO (agrees with the claim) or DISCORDO (contests it), and answers
 *   `{ "message" }` alone; the infraction stays WAITING_PSP until the test resolves it.
 * - Endpoint 9 finds an operation by the id it was created with or the one the double answered (rule 2),
 *   the latest when a client id was used twice. transactionType: SAQUE, PAGAMENTO, TRANSFERENCIA, DEPOSITO;
 *   transactionMethod: PIX or INTERNO. A charge nobody paid within its lifetime is EXPIRADO.
 * - Endpoint 10 answers the double's own transactionId and a static code (with the amount and a txid of its own).
 * - Endpoint 11 refuses an e-mail that is not one of its users (rule 3) with 404 and a message; a transfer is
 *   done (COMPLETO) when answered. Users: maria@double.test, joao@double.test.
 * - Endpoint 12: withdrawal_rate is a fraction (0.02), rate_fixed is in USDT. There is no endpoint that
 *   creates a crypto withdrawal (rule 6: not shown), so endpoint 13 finds nothing.
 * - Errors: the HTTP status and `{ "message" }` (Portuguese), never a code: 400 for a request it refuses, 401
 *   for credentials, 403 for an unknown public key, 404 for what does not exist, 409 for a state that forbids it.
 * - Login tokens are HS256 JWTs with `exp` 15 minutes after issue (unless told otherwise).
 * - The browser side: the script at /browser/security-module.js ({shield_script_url}), settings at
 *   /browser/3ds-settings ({shield_settings_url}) answering `{ "publicKey", "threeDSecure": { "active",
 *   "version" }, "maxInstallments" }` (no currency list). The public key is an opaque `pk_test_…` string, not a
 *   PEM. The module takes the document's arguments one by one: prepareThreeDS(amountInCents, installments,
 *   currency) and encrypt(number, holderName, expMonth, expYear, cvv). Card 4916000000000070 asks for the
 *   issuer's challenge (inside encrypt, after prepareThreeDS opened a session); every other valid card is
 *   frictionless, and without 3DS data is charged too.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { DoubleAuth, refuse, type Credentials } from './double-auth';
import { browserRoutes, BrowserState, SCRIPT_PATH, SETTINGS_PATH } from './double-browser';
import { cardRoutes } from './double-cards';
import { cashInRoutes } from './double-cash-in';
import { CONTROL_PREFIX, controlRoutes } from './double-control';
import { cryptoRoutes } from './double-crypto';
import { medRoutes } from './double-med';
import { pixOutRoutes } from './double-pix-out';
import { DoubleState, opaque } from './double-state';

export interface ProviderDoubleOptions {
  credentials?: Credentials;
  tokenLifetimeSeconds?: number;
  /** How long after endpoint 2 a card payment completes. */
  cardSettleMs?: number;
  /** How long a charge stays payable. */
  chargeLifetimeMs?: number;
}

export interface ProviderDouble {
  /** {base_url}. */
  url: string;
  credentials: Credentials;
  /** The environment's fixed public key for 3DS. */
  publicKey: string;
  /** {shield_script_url} and {shield_settings_url}. */
  scriptUrl: string;
  settingsUrl: string;
  close(): Promise<void>;
}

export async function startProviderDouble(options: ProviderDoubleOptions = {}): Promise<ProviderDouble> {
  const credentials = options.credentials ?? { clientId: `client_${opaque(4)}`, clientSecret: opaque(16) };
  const publicKey = `pk_test_${opaque(16)}`;
  const state = new DoubleState();
  const now = () => state.now();
  const auth = new DoubleAuth(credentials, options.tokenLifetimeSeconds ?? 900, now);
  const browser = new BrowserState(now);
  const timers = new Set<NodeJS.Timeout>();
  const cardSettleMs = options.cardSettleMs ?? 300;
  const cardTimer = {
    schedule(run: () => void) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, cardSettleMs);
      timers.add(timer);
    },
  };

  const app = express();
  app.disable('x-powered-by');
  app.use((req, _res, next) => {
    if (!req.path.startsWith(CONTROL_PREFIX))
      state.requests.push({ method: req.method, path: req.path, at: state.nowIso() });
    next();
  });
  app.use(express.json({ limit: '64kb' }));
  app.post('/api/auth/login', auth.login);
  app.use(pixOutRoutes(state, auth));
  app.use(cashInRoutes(state, auth, options.chargeLifetimeMs ?? 3_600_000));
  app.use(cardRoutes(state, browser, auth, cardTimer));
  app.use(medRoutes(state, auth));
  app.use(cryptoRoutes(auth));
  app.use(browserRoutes(browser, publicKey, now));
  app.use(controlRoutes(state));
  app.use((_req: express.Request, res: express.Response) => refuse(res, 404, 'rota não encontrada'));
  // A body that is not JSON or too large (body-parser's 4xx), or a fault of the double itself: its error shape, never Express's page.
  app.use((error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
    error.status !== undefined && error.status < 500
      ? refuse(res, error.status, 'corpo da requisição inválido')
      : refuse(res, 500, 'erro interno'),
  );

  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    credentials,
    publicKey,
    scriptUrl: url + SCRIPT_PATH,
    settingsUrl: url + SETTINGS_PATH,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
