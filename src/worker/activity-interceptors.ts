/**
 * Every activity runs inside the request context its workflow was started with (the header the workflow
 * interceptor carries), and leaves one log line saying how it ended and how long it took. Its arguments
 * are never logged: they hold the payout's personal data. An attempt that fails after its activity has
 * been trying for long is reported to its workflow (activity-problem-reporter.ts).
 */
import { defaultPayloadConverter, type Headers } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Logger } from '../logging/logger';
import type { ActivityProblemReporter } from './activity-problem-reporter';
import { REQUEST_ID_PATTERN, requestContext } from '../logging/request-context';
import { REQUEST_ID_HEADER } from '../temporal/propagation';

function requestIdOf(headers: Headers): string | undefined {
  const header = headers[REQUEST_ID_HEADER];
  if (header === undefined) return undefined;
  try {
    const value = defaultPayloadConverter.fromPayload(header);
    return typeof value === 'string' && REQUEST_ID_PATTERN.test(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function activityInterceptors(
  logger: Logger | undefined,
  problems: ActivityProblemReporter,
): ActivityInterceptorsFactory {
  return (context) => ({
    inbound: {
      async execute(input, next) {
        const { activityType, attempt, workflowExecution } = context.info;
        const run = async (): Promise<unknown> => {
          const startedAt = performance.now();
          // Fields on the line rather than a child logger: a child per activity costs more than its line.
          const fields = { activityType, attempt, workflowId: workflowExecution?.workflowId };
          try {
            const result = await next(input);
            logger?.info('activity.completed', { ...fields, durationMs: Math.round(performance.now() - startedAt) });
            return result;
          } catch (error) {
            logger?.warn('activity.failed', {
              ...fields,
              durationMs: Math.round(performance.now() - startedAt),
              error: error instanceof Error ? error : String(error),
            });
            await problems.failed(context.info, error);
            throw error;
          }
        };
        const requestId = requestIdOf(input.headers);
        return requestId === undefined ? run() : requestContext.run({ requestId }, run);
      },
    },
  });
}
