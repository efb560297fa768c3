import type { RequestHandler } from 'express';
import { bearerToken, matchesSecret } from '../http/bearer-auth';
import { ApiError } from './errors';

export function requireApiKey(keys: readonly string[]): RequestHandler {
  return (req, _res, next) => {
    if (matchesSecret(keys, bearerToken(req))) next();
    else next(new ApiError(401, 'UNAUTHORIZED', 'Missing or invalid API key: send Authorization: Bearer <key>'));
  };
}
