/**
 * The sandbox's login limit (docs/assumptions.md §11): logins a minute per `client_id`, whatever the
 * secret sent, so that a secret cannot be guessed at speed; a body without a readable client_id is
 * counted by the client's address. Mounted after the JSON parser, before the login route.
 */
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { Logger } from '../../src/logging/logger';
import { clientIpKey, hashedKey, perMinuteLimit } from '../../src/http/rate-limit';
import { providerError } from './errors';

const loginClientSchema = z.object({ client_id: z.string().min(1) });

export function loginRateLimit(perMinute: number, logger: Logger): RequestHandler {
  return perMinuteLimit({
    perMinute,
    keyOf: (req) => {
      const login = loginClientSchema.safeParse(req.body);
      return login.success ? hashedKey('client', login.data.client_id) : clientIpKey(req);
    },
    refuse: (limit) =>
      providerError(
        'RATE_LIMITED',
        `More than ${limit} logins a minute for this client: retry after the Retry-After header's seconds`,
      ),
    logger,
  });
}
