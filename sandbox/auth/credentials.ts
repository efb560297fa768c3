/**
 * The two credential schemes of the spec's Authentication table, and the admin token. Each resolves
 * the calling user or throws 401 in the contract's error body.
 */
import type { Request } from 'express';
import { bearerToken, matchesSecret } from '../../src/http/bearer-auth';
import { providerError, SandboxError } from '../http/errors';
import type { SandboxUser, UserStore } from '../store/users';
import { verifyJwt } from './jwt';

export interface CredentialChecks {
  bearer(req: Request): SandboxUser;
  clientHeaders(req: Request): SandboxUser;
  admin(req: Request): void;
}

export function createCredentialChecks(deps: {
  users: UserStore;
  jwtKey: Buffer;
  adminToken: string;
  now: () => number;
}): CredentialChecks {
  return {
    bearer(req) {
      const header = req.get('authorization');
      if (!header)
        throw providerError(
          'UNAUTHORIZED',
          'Missing Authorization header: send Authorization: Bearer <token> from POST /api/auth/login',
        );
      const token = bearerToken(req);
      if (!token) throw providerError('UNAUTHORIZED', 'Malformed Authorization header: expected Bearer <token>');
      const verified = verifyJwt(deps.jwtKey, token.trim(), Math.floor(deps.now() / 1000));
      if (!verified.ok) {
        if (verified.reason === 'expired') throw providerError('TOKEN_EXPIRED', 'The token has expired: log in again');
        throw providerError('UNAUTHORIZED', 'Invalid token');
      }
      const user = deps.users.byClientId(verified.claims.sub);
      if (!user) throw providerError('UNAUTHORIZED', 'Invalid token: unknown subject');
      return user;
    },
    clientHeaders(req) {
      const clientId = req.get('ci');
      const clientSecret = req.get('cs');
      if (!clientId || !clientSecret)
        throw providerError('UNAUTHORIZED', 'Missing credential headers: send ci (client id) and cs (client secret)');
      const user = deps.users.authenticate(clientId, clientSecret);
      if (!user) throw providerError('UNAUTHORIZED', 'Invalid client credentials');
      return user;
    },
    admin(req) {
      if (!matchesSecret([deps.adminToken], bearerToken(req))) {
        throw new SandboxError(
          401,
          'UNAUTHORIZED',
          'Missing or invalid admin token: send Authorization: Bearer <SANDBOX_ADMIN_TOKEN>',
        );
      }
    },
  };
}
