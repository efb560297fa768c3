/**
 * 415 Unsupported Media Type for a body the route cannot read. Without it, a body parser skips a body
 * of another type, the handler sees no body at all, and the client gets a 400 listing every field as
 * missing: true, but not what is wrong. A request without a body needs no Content-Type.
 */
import type { Request, RequestHandler } from 'express';

/** A body follows: chunked, or a non-zero Content-Length (an empty POST sends `Content-Length: 0`). */
function hasBody(req: Request): boolean {
  return req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
}

export function acceptBodyTypes(
  types: readonly string[],
  refuse: (accepted: readonly string[]) => Error,
): RequestHandler {
  return (req, _res, next) => {
    if (!hasBody(req) || req.is([...types])) next();
    else next(refuse(types));
  };
}
