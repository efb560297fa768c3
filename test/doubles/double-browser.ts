/**
 * What the buyer's browser reaches: the security module ({shield_script_url}), the 3DS settings
 * ({shield_settings_url}), and what the module itself calls (3DS sessions, card tokens, the issuer's challenge
 * page). Open to every origin (CORS), as a provider's browser endpoints are.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { refuse } from './double-auth';
import { opaque } from './double-state';

export const SCRIPT_PATH = '/browser/security-module.js';
export const SETTINGS_PATH = '/browser/3ds-settings';
/** The card whose issuer asks the buyer to confirm (a challenge); every other valid card is frictionless. */
export const CHALLENGE_CARD = '4916000000000070';
const CHALLENGE_LIFETIME_MS = 120_000;
const MAX_INSTALLMENTS = 12;

type ChallengeStatus = 'PENDENTE' | 'APROVADO' | 'RECUSADO' | 'EXPIRADO';

interface ThreeDSSession {
  threeDS: { cavv: string; xid: string; eci: string; version: string; referenceId: string };
}

interface CardToken {
  number: string;
  sessionId?: string;
  challengeId?: string;
}

interface Challenge {
  status: ChallengeStatus;
  expiresAtMs: number;
}

/** Sessions, tokens and challenges the browser side made; endpoint 2 reads them. */
export class BrowserState {
  readonly sessions = new Map<string, ThreeDSSession>();
  readonly tokens = new Map<string, CardToken>();
  readonly challenges = new Map<string, Challenge>();

  constructor(private readonly now: () => number) {}

  challengeStatus(id: string): ChallengeStatus | undefined {
    const challenge = this.challenges.get(id);
    if (challenge?.status === 'PENDENTE' && this.now() >= challenge.expiresAtMs) challenge.status = 'EXPIRADO';
    return challenge?.status;
  }
}

function cors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
}

const challengePage = (id: string): string => `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Autenticação do emissor</title></head>
<body><p>O seu banco pede que confirme esta compra.</p>
<form method="post" action="/browser/3ds-challenge/${encodeURIComponent(id)}">
<button name="decision" value="approve">Autorizar</button> <button name="decision" value="refuse">Recusar</button>
</form></body></html>`;

export function browserRoutes(browser: BrowserState, publicKey: string, now: () => number): Router {
  const router = Router();
  const script = readFileSync(path.join(__dirname, 'browser', 'security-module.js'), 'utf8');
  router.use('/browser', cors);

  router.get(SCRIPT_PATH, (_req, res) => {
    res.type('application/javascript').send(script);
  });

  router.get(SETTINGS_PATH, (req, res) => {
    if (req.query.publicKey !== publicKey) return refuse(res, 403, 'chave pública desconhecida');
    res.json({ publicKey, threeDSecure: { active: true, version: '2.2.0' }, maxInstallments: MAX_INSTALLMENTS });
  });

  router.post('/browser/3ds-sessions', (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.publicKey !== publicKey) return refuse(res, 403, 'chave pública desconhecida');
    if (!Number.isInteger(body.amount) || (body.amount as number) <= 0)
      return refuse(res, 400, 'amount deve ser um inteiro de centavos');
    if (
      !Number.isInteger(body.installments) ||
      (body.installments as number) < 1 ||
      (body.installments as number) > MAX_INSTALLMENTS
    )
      return refuse(res, 400, `installments deve ser de 1 a ${MAX_INSTALLMENTS}`);
    if (body.currency !== 'BRL') return refuse(res, 400, 'currency deve ser BRL');
    const sessionId = `3ds_${opaque()}`;
    const threeDS = { cavv: opaque(14), xid: opaque(10), eci: '05', version: '2.2.0', referenceId: `ref_${opaque(8)}` };
    browser.sessions.set(sessionId, { threeDS });
    res.json({ sessionId, threeDS });
  });

  router.post('/browser/card-tokens', (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.publicKey !== publicKey) return refuse(res, 403, 'chave pública desconhecida');
    if (typeof body.number !== 'string' || !/^\d{12,19}$/.test(body.number)) return refuse(res, 400, 'number inválido');
    const sessionId =
      typeof body.sessionId === 'string' && browser.sessions.has(body.sessionId) ? body.sessionId : undefined;
    const token = `tok_${opaque(16)}`;
    if (body.number !== CHALLENGE_CARD || !sessionId) {
      browser.tokens.set(token, { number: body.number, ...(sessionId ? { sessionId } : {}) });
      return void res.json({ token });
    }
    const challengeId = `chl_${opaque()}`;
    browser.challenges.set(challengeId, { status: 'PENDENTE', expiresAtMs: now() + CHALLENGE_LIFETIME_MS });
    browser.tokens.set(token, { number: body.number, sessionId, challengeId });
    res.json({
      token,
      challengeId,
      challengeUrl: `${req.protocol}://${req.get('host') ?? ''}/browser/3ds-challenge/${challengeId}`,
    });
  });

  router.get('/browser/3ds-challenges/:id', (req, res) => {
    const status = browser.challengeStatus(req.params.id);
    if (!status) return refuse(res, 404, 'desafio não encontrado');
    res.json({ status });
  });

  router.get('/browser/3ds-challenge/:id', (req, res) => {
    if (browser.challengeStatus(req.params.id) !== 'PENDENTE')
      return refuse(res, 404, 'desafio não encontrado ou já respondido');
    res.type('html').send(challengePage(req.params.id));
  });

  router.post('/browser/3ds-challenge/:id', express.urlencoded({ extended: false, limit: '1kb' }), (req, res) => {
    const challenge = browser.challenges.get(req.params.id);
    const decision = (req.body as { decision?: unknown } | undefined)?.decision;
    if (
      !challenge ||
      browser.challengeStatus(req.params.id) !== 'PENDENTE' ||
      (decision !== 'approve' && decision !== 'refuse')
    )
      return refuse(res, 409, 'desafio não pode ser respondido');
    challenge.status = decision === 'approve' ? 'APROVADO' : 'RECUSADO';
    res
      .type('html')
      .send(
        '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Autenticação do emissor</title></head><body><p>Resposta registrada.</p></body></html>',
      );
  });

  return router;
}
