import { networkErrorCode } from '../../src/net/network-error-code';

const coded = (code: string): Error => Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });

test('the code of a failed call is found where each client puts it: on the error, on its cause, inside an AggregateError', () => {
  expect(networkErrorCode(coded('ECONNREFUSED'))).toBe('ECONNREFUSED');
  expect(networkErrorCode(new TypeError('fetch failed', { cause: coded('ENOTFOUND') }))).toBe('ENOTFOUND');
  expect(
    networkErrorCode(
      new TypeError('fetch failed', { cause: new AggregateError([coded('ECONNREFUSED'), coded('EHOSTUNREACH')]) }),
    ),
  ).toBe('ECONNREFUSED');
  // Another realm's error has the same shape and no shared prototype.
  expect(networkErrorCode({ message: 'fetch failed', cause: { code: 'UND_ERR_SOCKET' } })).toBe('UND_ERR_SOCKET');
});

test('an error without a code has none: the caller falls back to its message', () => {
  expect(networkErrorCode(new Error('socket hang up'))).toBeUndefined();
  expect(
    networkErrorCode(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
  ).toBeUndefined();
  expect(networkErrorCode('not an error')).toBeUndefined();
});
