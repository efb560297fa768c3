/**
 * The security module's side of the sandbox, under /shield/ (sandbox/README.md, browser-side 3DS): the script
 * ({shield_script_url}), the environment's public key, the 3DS settings ({shield_settings_url}), the
 * 3DS sessions prepareThreeDS opens and reads, and the challenge page its iframe shows.
 *
 * Browsers call these from the merchant's checkout page, another origin: every answer carries CORS
 * headers for any origin, or only for SANDBOX_SHIELD_ORIGINS when it is set (which then also limits
 * which pages may use the module). A session remembers the origin of the page that opened it: its
 * challenge page may be framed by that origin only (`frame-ancestors`) and posts its message to that
 * origin only. No credentials: the public key names the environment, as the spec's settings call does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type RequestHandler, type Response } from 'express';
import { cardBrand, luhnValid } from '../../../../src/card/card';
import { CARD_CURRENCY_MINOR_UNITS } from '../../../../src/payment-api/schemas/card';
import {
  browserOriginSchema,
  challengeDecisionSchema,
  challengePageQuerySchema,
  SHIELD_MODULE_NAME,
  type CardTokenPayload,
  shieldSettingsQuerySchema,
  threeDSSessionRequestSchema,
  type ShieldSettings,
  type ThreeDSSessionResponse,
} from '../../../../src/payment-api/schemas/security-module';
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
      res.set({
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '600',
      });
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
    ...(session.status === 'CHALLENGE_REQUIRED' && session.challengeDeadline !== null
      ? { challengeTimeoutMs: Math.max(0, session.challengeDeadline - now) }
      : {}),
  };
}

export function shieldRouter(ctx: SandboxContext): Router {
  const allowedOrigins = ctx.config.SANDBOX_SHIELD_ORIGINS;
  const threeDSMode = ctx.config.SANDBOX_SHIELD_THREE_DS;
  const script = readFileSync(SCRIPT_FILE);
  const router = Router();
  router.use('/shield', cors(allowedOrigins));

  /**
   * The card a session is opened for, where this environment picks the 3DS flow by the card (`card-token`, and
   * `off`): from the token the checkout gave prepareThreeDS, else from the page's card the module read. None where the
   * issuer never looks at the card (`spec`), which refuses a checkout's token, so a checkout that encrypted first is caught.
   */
  const sessionCard = ({
    cardToken,
    pageCardToken,
  }: {
    cardToken?: string | undefined;
    pageCardToken?: string | undefined;
  }): CardTokenPayload | undefined => {
    const refuse = (message: string) =>
      providerError('VALIDATION_FAILED', 'The request body is invalid', [{ path: 'cardToken', message }]);
    if (threeDSMode === 'spec') {
      if (cardToken !== undefined)
        throw refuse(
          'is not taken here: prepareThreeDS takes amount, installments and currency, then module.encrypt makes the token (SANDBOX_SHIELD_THREE_DS=spec)',
        );
      return undefined;
    }
    const token = cardToken ?? pageCardToken;
    if (token === undefined) {
      throw refuse(
        "is required: this environment picks the 3DS flow by the card: pass module.encrypt's token, or call prepareThreeDS from the page whose card fields carry the autocomplete names cc-number, cc-name, cc-exp-month, cc-exp-year and cc-csc",
      );
    }
    const card = openCardToken(shieldKeys(ctx.db), token);
    if (!card)
      throw providerError('INVALID_CARD_TOKEN', 'The card token is not a token of this environment', [
        { path: 'cardToken', message: "does not decrypt with this environment's key" },
      ]);
    if (!luhnValid(card.number) || cardBrand(card.number) === 'UNKNOWN') {
      throw providerError('CARD_REFUSED', 'Card refused', [
        { path: 'cardToken', message: 'the card number fails the Luhn check or has no known brand' },
      ]);
    }
    return card;
  };
  const requireKnownKey = (publicKey: string): void => {
    if (!isEnvironmentKey(shieldKeys(ctx.db), publicKey)) {
      throw providerError('NOT_FOUND', 'No environment has this public key', [
        { path: 'publicKey', message: 'is not the public key of this environment (GET /shield/public-key)' },
      ]);
    }
  };
  const requireSession = (sessionId: string): ThreeDSSession => {
    const session = SESSION_ID.test(sessionId) ? findSession(ctx, sessionId) : undefined;
    if (!session) throw providerError('NOT_FOUND', `No 3DS session ${sessionId}`);
    return session;
  };
  /**
   * The origin the challenge page is framed by and posts to: the checkout's, which opened the session
   * (a session opened without an Origin, by a client that is no browser, takes the one the page names).
   * It must be allowed to use the module.
   */
  const checkoutOrigin = (session: ThreeDSSession, named: string, where: 'query' | 'body'): string => {
    if (session.parentOrigin !== null && session.parentOrigin !== named) {
      throw providerError('VALIDATION_FAILED', `The request ${where} is invalid`, [
        { path: 'parentOrigin', message: 'is not the origin of the page that opened this 3DS session' },
      ]);
    }
    if (allowedOrigins !== undefined && !allowedOrigins.includes(named)) {
      throw providerError('VALIDATION_FAILED', `The request ${where} is invalid`, [
        { path: 'parentOrigin', message: 'is not an origin allowed by SANDBOX_SHIELD_ORIGINS' },
      ]);
    }
    return named;
  };
  /** The challenge's pages: framed by the checkout's origin only, never cached. */
  const sendChallengeHtml = (res: Response, status: number, origin: string, html: string): void => {
    res
      .status(status)
      .type('html')
      .set({ 'Cache-Control': 'no-store', 'Content-Security-Policy': `frame-ancestors ${origin}` })
      .send(html);
  };

  router.get('/shield/shield.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'no-cache').send(script);
  });

  // The seed profile, like a real provider, has no such endpoint: the key is configured.
  if (ctx.profile.servesPublicKey) {
    router.get('/shield/public-key', (_req, res) => {
      res.json({ publicKey: shieldKeys(ctx.db).publicKeyPem });
    });
  }

  router.get('/shield/settings', (req, res) => {
    const { publicKey } = parseOrRefuse(shieldSettingsQuerySchema, req.query, 'query');
    requireKnownKey(publicKey);
    const settings: ShieldSettings = {
      environment: 'sandbox',
      moduleName: SHIELD_MODULE_NAME,
      threeDS: {
        enabled: threeDSMode !== 'off',
        version: THREE_DS_VERSION,
        challengeTimeoutMs: ctx.config.SANDBOX_SHIELD_CHALLENGE_TIMEOUT_MS,
      },
      currencies: { ...CARD_CURRENCY_MINOR_UNITS },
    };
    res.json(ctx.profile.shieldSettings(settings));
  });

  router.post('/shield/sessions', acceptJsonBodies, express.json({ limit: '16kb' }), (req, res) => {
    const request = parseOrRefuse(threeDSSessionRequestSchema, req.body ?? {}, 'body');
    requireKnownKey(request.publicKey);
    const card = sessionCard(request);
    const origin = browserOriginSchema.safeParse(req.get('origin'));
    const session = openSession(ctx, {
      amountMinor: request.amount,
      currency: request.currency,
      installments: request.installments,
      card,
      parentOrigin: origin.success ? origin.data : undefined,
    });
    ctx.logger.info('sandbox.three_ds_session_opened', {
      sessionId: session.id,
      status: session.status,
      brand: session.brand,
      forCard: card !== undefined,
    });
    res.json(sessionView(session, ctx.now()));
  });

  router.get('/shield/sessions/:sessionId', (req, res) => {
    res.json(sessionView(requireSession(req.params.sessionId), ctx.now()));
  });

  router.get('/shield/challenge/:sessionId', (req, res) => {
    const session = requireSession(req.params.sessionId);
    const origin = checkoutOrigin(
      session,
      parseOrRefuse(challengePageQuerySchema, req.query, 'query').parentOrigin,
      'query',
    );
    if (session.status === 'CHALLENGE_REQUIRED') sendChallengeHtml(res, 200, origin, challengePage(session, origin));
    else
      sendChallengeHtml(
        res,
        409,
        origin,
        challengeAnsweredPage(session.id, origin, 'This challenge is no longer open.'),
      );
  });

  router.post('/shield/challenge/:sessionId', express.urlencoded({ extended: false, limit: '4kb' }), (req, res) => {
    const session = requireSession(req.params.sessionId);
    const { decision, parentOrigin } = parseOrRefuse(challengeDecisionSchema, req.body ?? {}, 'body');
    const origin = checkoutOrigin(session, parentOrigin, 'body');
    const accepted = decideChallenge(ctx, session.id, decision);
    ctx.logger.info('sandbox.three_ds_challenge_answered', { sessionId: session.id, decision, accepted });
    if (!accepted)
      sendChallengeHtml(
        res,
        409,
        origin,
        challengeAnsweredPage(session.id, origin, 'This challenge is no longer open.'),
      );
    else
      sendChallengeHtml(
        res,
        200,
        origin,
        challengeAnsweredPage(
          session.id,
          origin,
          decision === 'approve' ? 'Payment approved. You can go back to the store.' : 'Payment denied.',
        ),
      );
  });

  return router;
}
