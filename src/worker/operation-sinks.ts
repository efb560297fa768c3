/** The worker's side of the `operations` sink (workflows/shared/engine-interceptors.ts): workflows' starts and ends as metrics. */
import type { InjectedSinks } from '@temporalio/worker';
import { activityProblems, operationDuration, operationsFinished, operationsStarted } from '../metrics/engine-metrics';
import type { OperationSinks } from '../temporal/propagation';

export function operationSinks(): InjectedSinks<OperationSinks> {
  return {
    operations: {
      started: { fn: (_info, flow) => operationsStarted.inc({ flow }), callDuringReplay: false },
      finished: {
        fn: (info, flow, state) => {
          operationsFinished.inc({ flow, state });
          // `startTime` is the first run's: a batch that continued as new is measured from its very start.
          operationDuration.observe({ flow, state }, Math.max(0, Date.now() - info.startTime.getTime()) / 1000);
        },
        callDuringReplay: false,
      },
      problem: { fn: (_info, flow, activity) => activityProblems.inc({ flow, activity }), callDuringReplay: false },
    },
  };
}
