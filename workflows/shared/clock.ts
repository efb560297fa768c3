/** Workflow time in milliseconds: the SDK makes `Date` deterministic inside workflows (the task's start time). */
export function nowMs(): number {
  return new Date().getTime();
}
