/**
 * /healthz asked again and again while `work` waits for its own answer: the longest stretch without a
 * health answer, as a share of the whole wait. Work done in one go holds the API for most of its wait;
 * work done in slices lets a probe through after each one, whatever the machine's speed.
 */
export async function healthDuring<T>(
  apiUrl: string,
  work: Promise<T>,
): Promise<{ result: T; healthAnswers: number; longestSilence: number }> {
  const startedAt = performance.now();
  let answeredAt: number | undefined;
  const result = work.finally(() => (answeredAt = performance.now()));
  const healthAt: number[] = [];
  while (answeredAt === undefined) {
    const health = await fetch(`${apiUrl}/healthz`);
    if (health.ok && answeredAt === undefined) healthAt.push(performance.now());
  }
  const marks = [startedAt, ...healthAt, answeredAt];
  const longest = Math.max(...marks.slice(1).map((at, i) => at - (marks[i] ?? at)));
  return { result: await result, healthAnswers: healthAt.length, longestSilence: longest / (answeredAt - startedAt) };
}
