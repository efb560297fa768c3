/** `CLUSTER_CHECK=1 npm run cluster` exits 1 on any loss: what its report must hold to pass. */
import { checkPassed, LIFECYCLES, type ClusterCheckReport } from '../../tools/cluster/cluster-check';

const passing: ClusterCheckReport = {
  temporal: '1.32.0',
  persistence: 'postgres',
  shards: 16,
  workers: 2,
  payouts: 300,
  completed: 300,
  lost: 0,
  doubleDebits: 0,
  lifecycles: Object.fromEntries(LIFECYCLES.map((name) => [name, 'ok'])) as ClusterCheckReport['lifecycles'],
};

test('every payout completed, none lost or debited twice, every lifecycle ok: the check passes', () => {
  expect(checkPassed(passing)).toBe(true);
});

test.each([
  ['a payout lost', { lost: 1, completed: 299 }],
  ['a double debit', { doubleDebits: 1 }],
  ['a payout not completed', { completed: 299 }],
])('%s fails the check', (_what, change) => {
  expect(checkPassed({ ...passing, ...change })).toBe(false);
});

test.each(LIFECYCLES)('the %s lifecycle not ok fails the check', (name) => {
  expect(checkPassed({ ...passing, lifecycles: { ...passing.lifecycles, [name]: 'timed out waiting for it' } })).toBe(
    false,
  );
});
