/** The answer to a create that is idempotent by its id: the same request again answers what the first did, marked so. */
import type { Response } from 'express';

export function answerIdempotent(res: Response, status: number, created: boolean, body: unknown): void {
  if (!created) res.set('Idempotent-Replayed', 'true');
  res.status(status).json(body);
}
