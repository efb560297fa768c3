/**
 * Both credential schemes of the document: endpoint 1 exchanges client_id and client_secret for a
 * JWT (HS256, signed with a key of this instance, `exp` after the double's own lifetime); Bearer endpoints
 * take it, the others take the ci and cs headers. Every refusal is `{ "message" }` with a 401.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** An error answer of the double: its status and `{ "message" }`, nothing else. */
export function refuse(res: Response, status: number, message: string): void {
  res.status(status).json({ message });
}

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

function sameText(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
}

export class DoubleAuth {
  private readonly key = randomBytes(32);

  constructor(
    private readonly credentials: Credentials,
    private readonly tokenLifetimeSeconds: number,
    private readonly now: () => number,
  ) {}

  private sign(content: string): string {
    return createHmac('sha256', this.key).update(content).digest('base64url');
  }

  /** Endpoint 1. */
  login = (req: Request, res: Response): void => {
    const body = (req.body ?? {}) as { client_id?: unknown; client_secret?: unknown };
    if (typeof body.client_id !== 'string' || typeof body.client_secret !== 'string')
      return refuse(res, 400, 'client_id e client_secret são obrigatórios');
    if (
      !sameText(body.client_id, this.credentials.clientId) ||
      !sameText(body.client_secret, this.credentials.clientSecret)
    )
      return refuse(res, 401, 'credenciais inválidas');
    const issuedAt = Math.floor(this.now() / 1000);
    const content = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify({ sub: body.client_id, iat: issuedAt, exp: issuedAt + this.tokenLifetimeSeconds }))}`;
    res.json({ token: `${content}.${this.sign(content)}` });
  };

  /** Bearer JWT endpoints (2, 3, 4, 4a, 5, 12, 13). */
  bearer = (req: Request, res: Response, next: NextFunction): void => {
    const [scheme, token = ''] = (req.header('authorization') ?? '').split(' ');
    const [header = '', claims = '', signature = ''] = token.split('.');
    if (scheme !== 'Bearer' || !sameText(signature, this.sign(`${header}.${claims}`)))
      return refuse(res, 401, 'token ausente ou inválido');
    const { exp } = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { exp: number };
    if (exp * 1000 <= this.now()) return refuse(res, 401, 'token expirado');
    next();
  };

  /** Credential-header endpoints (7, 8, 9, 10, 11, 11a). */
  clientHeaders = (req: Request, res: Response, next: NextFunction): void => {
    const [ci, cs] = [req.header('ci') ?? '', req.header('cs') ?? ''];
    if (!sameText(ci, this.credentials.clientId) || !sameText(cs, this.credentials.clientSecret))
      return refuse(res, 401, 'cabeçalhos ci/cs inválidos');
    next();
  };
}
