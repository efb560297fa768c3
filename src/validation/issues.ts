/**
 * How a refused input names what is wrong, shared by everything that validates: the engine API's error
 * body, batch rows, the CSV reader, the payment API client's pre-flight check and the CLI.
 */
import { z } from 'zod';

/** One refused field: its dotted path (`payer.email`, `items.0.amount`, `(root)`) and what is wrong. */
export const fieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

/** A bad row of a batch: its position, its externalId when readable, the field and what is wrong. */
export const rowIssueSchema = z.object({
  index: z.number().int(),
  externalId: z.string().optional(),
  field: z.string(),
  message: z.string(),
});
export type RowIssue = z.infer<typeof rowIssueSchema>;

export function zodIssues(error: z.ZodError, prefix: (string | number)[] = []): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path].map(String).join('.') || '(root)',
    message: issue.message,
  }));
}
