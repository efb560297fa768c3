/**
 * The engine's answers to a request it cannot take as sent, in its error shape: a body of a type the
 * route does not read (415) and a method the path does not have (405, with `Allow`).
 */
import express, { type RequestHandler } from 'express';
import { acceptBodyTypes } from '../http/body-type';
import { methodNotAllowed } from '../http/allowed-methods';
import { ApiError } from './errors';

export function acceptBodies(types: readonly string[]) {
  return acceptBodyTypes(
    types,
    (accepted) => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Send the body as ${accepted.join(' or ')}`),
  );
}

const acceptJsonBodies = acceptBodies(['application/json']);

/** A JSON body of at most `limit`, parsed; another type refused (415): every route of the API but the batch upload and the callbacks. */
export function jsonBodies(limit: string): RequestHandler[] {
  return [acceptJsonBodies, express.json({ limit })];
}

export const refuseOtherMethods = methodNotAllowed(
  (method, path, allowed) =>
    new ApiError(405, 'METHOD_NOT_ALLOWED', `${path} does not take ${method}; it takes ${allowed.join(', ')}`),
);
