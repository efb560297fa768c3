/**
 * The sandbox answers every failure in the contract's one error body (`{ message, code, issues? }`,
 * src/payment-api/schemas/errors.ts). Handlers throw SandboxError; the error handler writes it.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { z } from 'zod';
import {
  errorIssuesFromZod,
  PROVIDER_ERROR_STATUS,
  type ErrorIssue,
  type ProviderErrorCode,
} from '../../src/payment-api/schemas/errors';
import type { Logger } from '../../src/logging/logger';
import { InsufficientBalanceError } from '../ledger/ledger';

export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: ErrorIssue[],
  ) {
    super(message);
    this.name = 'SandboxError';
  }

  toBody(): { message: string; code: string; issues?: ErrorIssue[] } {
    return {
      message: this.message,
      code: this.code,
      ...(this.issues && this.issues.length > 0 ? { issues: this.issues } : {}),
    };
  }
}

/** An error of the provider contract: the HTTP status comes from the contract's code table. */
export function providerError(code: ProviderErrorCode, message: string, issues?: ErrorIssue[]): SandboxError {
  return new SandboxError(PROVIDER_ERROR_STATUS[code], code, message, issues);
}

/** Parses with the schema or throws 400 VALIDATION_FAILED naming every failing field. */
export function parseOrRefuse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'path',
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw providerError('VALIDATION_FAILED', `The request ${where} is invalid`, errorIssuesFromZod(result.error));
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(providerError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
};

interface BodyParserError {
  type?: unknown;
  status?: unknown;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const parserError = error as BodyParserError;
    let failure: SandboxError;
    if (error instanceof SandboxError) failure = error;
    else if (error instanceof InsufficientBalanceError) failure = providerError('INSUFFICIENT_BALANCE', error.message);
    else if (parserError.type === 'entity.parse.failed')
      failure = providerError('MALFORMED_JSON', 'The request body is not valid JSON');
    else if (parserError.type === 'entity.too.large')
      failure = providerError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    else if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      failure = providerError('VALIDATION_FAILED', 'The request could not be read');
    } else {
      logger.error('sandbox.unexpected_error', {
        method: req.method,
        path: req.path,
        error: error instanceof Error ? error : String(error),
      });
      failure = providerError('INTERNAL_ERROR', 'Unexpected sandbox error');
    }
    res.status(failure.status).json(failure.toBody());
  };
}
