/** The sandbox's callback delay: a fixed part and a random one, so that a bench's callbacks arrive spread as a real provider's do. */
import { createFaultState } from '../../sandbox/faults/fault-state';

const decidedDelays = (faults: Parameters<ReturnType<typeof createFaultState>['set']>[0], draws: number[]) => {
  const random = () => draws.shift() ?? 0;
  const state = createFaultState(random);
  state.set(faults);
  return [state.decideCallback().delayMs, state.decideCallback().delayMs];
};

test('delayJitterMs spreads each callback between delayMs and delayMs + delayJitterMs', () => {
  expect(decidedDelays({ callbacks: { delayMs: 2_000, delayJitterMs: 3_000 } }, [0, 0.999])).toEqual([2_000, 4_997]);
});

test('without delayJitterMs every callback waits exactly delayMs', () => {
  expect(decidedDelays({ callbacks: { delayMs: 2_000 } }, [0.5, 0.9])).toEqual([2_000, 2_000]);
});
