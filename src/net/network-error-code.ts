/**
 * The system code of a failed HTTP call (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, ...), wherever the client
 * put it: on the error itself (undici's `request`), on its `cause` (`fetch`), or on the first error of an
 * AggregateError (a host name with several addresses, each refused). Read by shape, not `instanceof`:
 * the error may come from another realm (a test runner's).
 */
export function networkErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth += 1) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    current = Array.isArray(errors) && errors.length > 0 ? (errors[0] as unknown) : cause;
  }
  return undefined;
}
