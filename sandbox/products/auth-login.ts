/** Endpoint 1: client_id + client_secret → an HS256 JWT (docs/assumptions.md §3). */
import { signJwt } from '../auth/jwt';
import { providerError } from '../http/errors';
import type { SandboxProduct } from './product';

export const authProduct: SandboxProduct = {
  name: 'auth',
  routes: {
    login: {
      handle({ ctx, input }) {
        const user = ctx.users.authenticate(input.client_id, input.client_secret);
        if (!user) throw providerError('UNAUTHORIZED', 'Invalid client_id or client_secret');
        const iat = Math.floor(ctx.now() / 1000);
        const expiresIn = ctx.config.SANDBOX_TOKEN_TTL_SECONDS;
        const token = signJwt(ctx.jwtKey, { sub: user.clientId, iat, exp: iat + expiresIn });
        ctx.logger.info('sandbox.login', { userId: user.id });
        return { body: { token, expiresIn } };
      },
    },
  },
};
