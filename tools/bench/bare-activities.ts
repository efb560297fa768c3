/** The benchmark's empty activity (see tools/bench/bare-workflow.ts). */
export function createBareActivities() {
  return { noop: (): Promise<void> => Promise.resolve() };
}
export type BareActivities = ReturnType<typeof createBareActivities>;
