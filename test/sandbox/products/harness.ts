/**
 * The test sandbox (test/sandbox/helpers.ts) with a movable clock, for the product modules whose
 * rules run on time (cash-in expiry, infraction deadlines), and a ledger-wide balance check.
 */
import { MERCHANT, startTestSandbox, type TestSandbox } from '../helpers';

export const merchantHeaders = { ci: MERCHANT.clientId, cs: MERCHANT.clientSecret };

export interface ProductSandbox extends TestSandbox {
  /** Moves the sandbox clock forward and runs what became due. */
  advanceClock(ms: number): void;
  /** Every ledger entry balances and all accounts together sum to zero. */
  ledgerBalances(): boolean;
}

export async function startProductSandbox(options: { overrides?: Record<string, string>; dbPath?: string } = {}): Promise<ProductSandbox> {
  let offsetMs = 0;
  const base = await startTestSandbox({ ...options, now: () => Date.now() + offsetMs, sandbox: { tickMs: 20 } });
  const { sandbox } = base;
  return {
    ...base,
    advanceClock(ms) {
      offsetMs += ms;
      sandbox.tick();
    },
    ledgerBalances() {
      const entries = sandbox.ledger.entries({});
      const each = entries.every((entry) => entry.lines.reduce((sum, line) => sum + line.amountCents, 0) === 0);
      const total = sandbox.ledger.balances().reduce((sum, row) => sum + row.balanceCents, 0);
      return each && total === 0 && entries.length > 0;
    },
  };
}
