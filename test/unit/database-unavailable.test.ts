/** The API answers 503 with Retry-After, not 500, while the engine's PostgreSQL is away: which errors say so. */
import { isDatabaseUnavailable } from '../../src/db/postgres';

const coded = (message: string, code: string): Error => Object.assign(new Error(message), { code });

test("the engine's database away (refused, cut, shutting down, starting) is told from a refusal of the query", () => {
  expect(isDatabaseUnavailable(coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
  expect(isDatabaseUnavailable(coded('terminating connection due to administrator command', '57P01'))).toBe(true);
  expect(isDatabaseUnavailable(coded('the database system is starting up', '57P03'))).toBe(true);
  expect(isDatabaseUnavailable(coded('connection failure', '08006'))).toBe(true);
  expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isDatabaseUnavailable(coded('duplicate key value violates unique constraint', '23505'))).toBe(false);
  expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
});
