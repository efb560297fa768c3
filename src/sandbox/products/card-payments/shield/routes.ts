/**
 * The security module's side of the sandbox, under /shield/ (docs/assumptions.md §17): the script
 * ({shield_script_url}), the environment's public key, the 3DS settings ({shield_settings_url}), the
 * 3DS sessions prepareThreeDS opens and reads, and the challenge page its iframe shows.
 *
 * Browsers call these from the merchant's checkout page, another origin: every answer carries CORS
 * headers for any origin, or only for SANDBOX_SHIELD_ORIGINS when it is set (which then also limits
 * who may frame the challenge page and receive its message). No credentials: the public key names
 * the environment, as the spec's settings call does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type RequestHandler, type Response } from 'express';
import { cardBrand, luhnValid } from '../../../../card/card';
import { CARD_CURRENCY_MINOR_UNITS } from '../../../../payment-api/schemas/card';
import {
  challengeDecisionSchema,
  challengePageQuerySchema,
  SHIELD_MODULE_NAME,
  shieldSettingsQuerySchema,
  threeDSSessionRequestSchema,
  type ShieldSettings,
  type ThreeDSSessionResponse,
} from '../../../../payment-api/schemas/shield';
import type { SandboxContext } from '../../../context';
import { parseOrRefuse, providerError } from '../../../http/errors';
import { acceptJsonBodies } from '../../../http/http-refusals';
import { challengeAnsweredPage, challengePage } from './challenge-page';
import { isEnvironmentKey, openCardToken, shieldKeys } from './card-token';
import { decideChallenge, findSession, openSession, THREE_DS_VERSION, type ThreeDSSession } from './sessions';

const SCRIPT_FILE = path.join(__dirname, 'shield.js');
const SESSION_ID = /^3ds_[0-9a-f]{32}$/;

/** CORS for the checkout page's origin; a preflight is answered here and goes no further. */
function cors(allowed: readonly string[] | undefined): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    if (allowed === undefined) res.set('Access-Control-Allow-Origin', '*');
    else {
      res.vary('Origin');
      if (origin !== undefined && allowed.includes(origin)) res.set('Access-Control-Allow-Origin', origin);
    }
    if (req.method === 'OPTIONS') {
      res.set({ 'Access-Control-Allow-Methods': 'GET, POST', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' });
      res.status(204).end();
      return;
    }
    next();
  };
}

function sessionView(session: ThreeDSSession, now: number): ThreeDSSessionResponse {
  return {
    sessionId: session.id,
    status: session.status,
    ...(session.status === 'AUTHENTICATED' && session.threeDS ? { threeDS: session.threeDS } : {}),
    ...(session.status === 'CHALLENGE_REQUIRED' && session.challengeDeadline !== null ? { challengeTimeoutMs: Math.max(0, session.challengeDeadline - now) } : {}),
  };
}

export function shieldRouter(ctx: SandboxContext): Router {
  const allowedOrigins = ctx.config.SANDBOX_SHIELD_ORIGINS;
  const script = readFileSync(SCRIPT_FILE);
  const router = Router();
  router.use('/shield', cors(allowedOrigins));

  const requireKnownKey = (publicKey: string): void => {
    if (!isEnvironmentKey(shieldKeys(ctx.db), publicKey)) {
      throw providerError('NOT_FOUND', 'No environment has this public key', [{ path: 'publicKey', message: 'is not the public key of this environment (GET /shield/public-key)' }]);
    }
  };
  const requireSession = (sessionId: string): ThreeDSSession => {
    const session = SESSION_ID.test(sessionId) ? findSession(ctx, sessionId) : undefined;
    if (!session) throw providerError('NOT_FOUND', `No 3DS session ${sessionId}`);
    return session;
  };
  /** The origin the challenge page will post to must be one allowed to use the module. */
  const requireParentOrigin = (parentOrigin: string): void => {
    if (allowedOrigins !== undefined && !allowedOrigins.includes(parentOrigin)) {
      throw providerError('VALIDATION_FAILED', 'The request query is invalid', [{ path: 'parentOrigin', message: 'is not an origin allowed by SANDBOX_SHIELD_ORIGINS' }]);
    }
  };
  const sendHtml = (res: Response, status: number, html: string): void => {
    if (allowedOrigins !== undefined) res.set('Content-Security-Policy', `frame-ancestors 'self' ${allowedOrigins.join(' ')}`);
    res.status(status).type('html').set('Cache-Control', 'no-store').send(html);
  };

  router.get('/shield/shield.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'no-cache').send(script);
  });

  router.get('/shield/public-key', (_req, res) => {
    res.json({ publicKey: shieldKeys(ctx.db).publicKeyPem });
  });

  router.get('/shield/settings', (req, res) => {
    const { publicKey } = parseOrRefuse(shieldSettingsQuerySchema, req.query, 'query');
    requireKnownKey(publicKey);
    const settings: ShieldSettings = {
      environment: 'sandbox',
      moduleName: SHIELD_MODULE_NAME,
      threeDS: { enabled: true, version: THREE_DS_VERSION, challengeTimeoutMs: ctx.config.SANDBOX_SHIELD_CHALLENGE_TIMEOUT_MS },
      currencies: { ...CARD_CURRENCY_MINOR_UNITS },
    };
    res.json(settings);
  });

  router.post('/shield/sessions', acceptJsonBodies, express.json({ limit: '16kb' }), (req, res) => {
    const request = parseOrRefuse(threeDSSessionRequestSchema, req.body ?? {}, 'body');
    requireKnownKey(request.publicKey);
    const card = openCardToken(shieldKeys(ctx.db), request.cardToken);
    if (!card) throw providerError('INVALID_CARD_TOKEN', 'The card token is not a token of this environment', [{ path: 'cardToken', message: "does not decrypt with this environment's key" }]);
    if (!luhnValid(card.number) || cardBrand(card.number) === 'UNKNOWN') {
      throw providerError('CARD_REFUSED', 'Card refused', [{ path: 'cardToken', message: 'the card number fails the Luhn check or has no known brand' }]);
    }
    const session = openSession(ctx, { amountMinor: request.amount, currency: request.currency, installments: request.installments, card });
    ctx.logger.info('sandbox.three_ds_session_opened', { sessionId: session.id, status: session.status, brand: session.brand });
    res.json(sessionView(session, ctx.now()));
  });

  router.get('/shield/sessions/:sessionId', (req, res) => {
    res.json(sessionView(requireSession(req.params.sessionId), ctx.now()));
  });

  router.get('/shield/challenge/:sessionId', (req, res) => {
    const session = requireSession(req.params.sessionId);
    const { parentOrigin } = parseOrRefuse(challengePageQuerySchema, req.query, 'query');
    requireParentOrigin(parentOrigin);
    if (session.status === 'CHALLENGE_REQUIRED') sendHtml(res, 200, challengePage(session, parentOrigin));
    else sendHtml(res, 409, challengeAnsweredPage(session.id, parentOrigin, 'This challenge is no longer open.'));
  });

  router.post('/shield/challenge/:sessionId', express.urlencoded({ extended: false, limit: '4kb' }), (req, res) => {
    const session = requireSession(req.params.sessionId);
    const { decision, parentOrigin } = parseOrRefuse(challengeDecisionSchema, req.body ?? {}, 'body');
    requireParentOrigin(parentOrigin);
    const accepted = decideChallenge(ctx, session.id, decision);
    ctx.logger.info('sandbox.three_ds_challenge_answered', { sessionId: session.id, decision, accepted });
    if (!accepted) sendHtml(res, 409, challengeAnsweredPage(session.id, parentOrigin, 'This challenge is no longer open.'));
    else sendHtml(res, 200, challengeAnsweredPage(session.id, parentOrigin, decision === 'approve' ? 'Payment approved. You can go back to the store.' : 'Payment denied.'));
  });

  return router;
}
