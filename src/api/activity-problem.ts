/** What every lifecycle's answer carries while one of its activities keeps failing (workflows/shared/activity-problems.ts). */
import { z } from 'zod';
import { timestampSchema } from './openapi-timestamps';

export const activityProblemSchema = z.object({
  /** The activity that keeps failing, e.g. `submitWithdrawal`. */
  activity: z.string(),
  /** Its last failed attempt's message. */
  message: z.string(),
  /** When it was first tried (ISO 8601). */
  since: timestampSchema,
});
