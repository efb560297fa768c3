/**
 * The sandbox's answers to a request it cannot take as sent, in the provider's error body: a body that
 * is not JSON (415: every endpoint of the interface and of the admin API reads JSON) and a method the
 * path does not have (405, with `Allow`).
 */
import { acceptBodyTypes } from '../../src/http/body-type';
import { methodNotAllowed } from '../../src/http/allowed-methods';
import { providerError } from './errors';

export const acceptJsonBodies = acceptBodyTypes(['application/json'], (accepted) =>
  providerError('UNSUPPORTED_MEDIA_TYPE', `Send the body as ${accepted.join(' or ')}`),
);

export const refuseOtherMethods = methodNotAllowed((method, path, allowed) =>
  providerError('METHOD_NOT_ALLOWED', `${path} does not take ${method}; it takes ${allowed.join(', ')}`),
);
