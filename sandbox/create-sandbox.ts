/**
 * Builds a sandbox: the SQLite state, the product registry, the provider routes from the endpoint
 * table, the admin API, and one ticker that runs due settlement jobs and callback deliveries. All
 * durable work is rows with due times, so a new sandbox on the same file resumes where one stopped.
 */
import { sandboxProfile } from './profiles/seed-profile';
import { shieldKeys } from './products/card-payments/shield/card-token';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import express, { type Express } from 'express';
import type { Config } from '../src/config/env';
import { createLogger, type Logger } from '../src/logging/logger';
import { adminRouter } from './admin/admin-routes';
import { createCredentialChecks } from './auth/credentials';
import { createDispatcher } from './callbacks/dispatcher';
import { createOutbox } from './callbacks/outbox';
import type { SandboxContext } from './context';
import { createFaultState, type FaultState } from './faults/fault-state';
import { endpoints } from '../src/payment-api/endpoints';
import { trackAllowedMethods } from '../src/http/allowed-methods';
import { errorHandler, notFoundHandler } from './http/errors';
import { acceptJsonBodies, refuseOtherMethods } from './http/http-refusals';
import { loginRateLimit } from './http/login-rate-limit';
import { sandboxOpenApiDocument } from './http/openapi';
import { providerRouter } from './http/provider-routes';
import { createScheduler, type JobHandler } from './jobs/scheduler';
import { createLedger, type Ledger } from './ledger/ledger';
import type { SandboxProduct } from './products/product';
import { buildRegistry, DEFAULT_PRODUCTS } from './products/registry';
import { createServerHandle } from './server-lifecycle';
import { coreMigrations } from './store/core-migrations';
import { applyMigrations, openDatabase, readOrCreateSetting } from './store/database';
import { createOperationStore } from './store/operations';
import { createUserStore, seedUsers } from './store/users';

export const DEFAULT_TICK_MS = 50;

export interface SandboxOptions {
  config: Config;
  /** SQLite file; ':memory:' for throwaway runs. Default: SANDBOX_DB, else DATA_DIR/sandbox.sqlite. */
  dbPath?: string;
  /** Sandbox clock in Unix ms (tests move it to expire tokens). */
  now?: () => number;
  logger?: Logger;
  products?: readonly SandboxProduct[];
  tickMs?: number;
}

export interface Sandbox {
  app: Express;
  /** Listens on `port` (default SANDBOX_PORT; 0 for any free port) on every interface. */
  start(port?: number, host?: string): Promise<{ url: string; port: number }>;
  /** Stops the ticker, the deliveries in flight, the server, then closes the database. */
  stop(): Promise<void>;
  /** Runs due jobs and starts due callback deliveries now. */
  tick(): void;
  ctx: SandboxContext;
  ledger: Ledger;
  faults: FaultState;
}

export function sandboxDbPath(config: Config): string {
  return config.SANDBOX_DB ?? path.join(config.DATA_DIR, 'sandbox.sqlite');
}

export function createSandbox(options: SandboxOptions): Sandbox {
  const { config } = options;
  const now = options.now ?? Date.now;
  const logger = options.logger ?? createLogger({ service: 'sandbox' }, config.LOG_LEVEL);
  const registry = buildRegistry(options.products ?? DEFAULT_PRODUCTS);

  const db = openDatabase(options.dbPath ?? sandboxDbPath(config));
  applyMigrations(db, [...coreMigrations, ...registry.migrations]);
  const ledger = createLedger(db, now);
  const faults = createFaultState();
  const outbox = createOutbox(db, now, config.SANDBOX_CALLBACK_MAX_ATTEMPTS);
  const jobHandlers = new Map<string, JobHandler>();
  const scheduler = createScheduler(db, jobHandlers, now, logger);
  const jwtKey = Buffer.from(
    readOrCreateSetting(db, 'jwt_signing_key', () => randomBytes(32).toString('base64')),
    'base64',
  );

  const profile = sandboxProfile(config.SANDBOX_PROFILE);
  const ctx: SandboxContext = {
    config,
    db,
    users: createUserStore(db),
    operations: createOperationStore(db, now),
    ledger,
    scheduler,
    outbox,
    faults,
    logger,
    now,
    jwtKey,
    profile,
    enqueueCallback: (callback) => outbox.enqueue(profile.callback(callback), faults.decideCallback()),
  };
  for (const [kind, handler] of registry.jobs) jobHandlers.set(kind, (job) => handler(ctx, job));
  seedUsers(db, ledger, config, now);
  for (const product of registry.products) product.onStart?.(ctx);

  const signature = config.SANDBOX_CALLBACK_SIGNATURE ?? (profile.name === 'seed' ? 'none' : 'hmac');
  const dispatcher = createDispatcher({
    outbox,
    faults,
    secrets: config.WEBHOOK_SECRET,
    signature,
    retryBaseMs: config.SANDBOX_CALLBACK_RETRY_BASE_MS,
    now,
    logger,
  });
  const server = createServerHandle();
  let ticker: NodeJS.Timeout | undefined;
  let running = false;

  const tick = (): void => {
    try {
      scheduler.runDue();
      dispatcher.dispatchDue();
    } catch (error) {
      logger.error('sandbox.tick_failed', { error: error instanceof Error ? error : String(error) });
    }
  };
  const loop = (): void => {
    if (!running) return;
    tick();
    ticker = setTimeout(loop, options.tickMs ?? DEFAULT_TICK_MS);
  };
  const wake = (): void => {
    if (running) setImmediate(tick);
  };

  const credentials = createCredentialChecks({ users: ctx.users, jwtKey, adminToken: config.SANDBOX_ADMIN_TOKEN, now });
  const app = express();
  app.disable('x-powered-by');
  // The browser's routes (the card security module, the 3DS challenge form) read their own bodies.
  for (const product of registry.products) {
    const browserRoutes = product.browserRoutes?.(ctx);
    if (browserRoutes) app.use(browserRoutes);
  }
  app.use(acceptJsonBodies, express.json({ limit: '256kb' }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const openApi = sandboxOpenApiDocument(ctx.config.SANDBOX_SHIELD_THREE_DS, ctx.profile.omits);
  app.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  // The core router checks the admin token first, for its own routes and the products' alike.
  app.use(
    '/sandbox',
    adminRouter({
      ctx,
      credentials,
      operationKinds: registry.operationKinds,
      wake,
      releaseHeld: () => server.releaseHeld(),
    }),
    ...registry.products.flatMap((product) => product.adminRoutes?.(ctx) ?? []),
  );
  app.post(endpoints.login.path, loginRateLimit(config.SANDBOX_LOGIN_RATE_LIMIT_PER_MINUTE, logger));
  app.use(providerRouter({ ctx, routes: registry.routes, credentials, connections: server }));
  trackAllowedMethods(app.router);
  app.use(refuseOtherMethods);
  app.use(notFoundHandler);
  app.use(errorHandler(logger));

  return {
    app,
    ctx,
    ledger,
    faults,
    tick,
    async start(port = config.SANDBOX_PORT, host) {
      const bound = await server.listen(app, port, host);
      running = true;
      loop();
      const url = `http://127.0.0.1:${bound}`;
      logger.info('sandbox.started', { url, profile: profile.name });
      // No real provider serves its key: it is configured (PAYMENT_SHIELD_PUBLIC_KEY), so the seed profile says it here.
      if (!profile.servesPublicKey)
        logger.info('sandbox.shield_public_key', { publicKey: shieldKeys(db).publicKeyPem });
      return { url, port: bound };
    },
    async stop() {
      running = false;
      if (ticker) clearTimeout(ticker);
      await dispatcher.stop();
      await server.close();
      if (db.open) db.close();
      logger.info('sandbox.stopped');
    },
  };
}
