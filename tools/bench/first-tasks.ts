/**
 * How the payouts a worker started reached it (`payout_engine_payout_starts_total` on its /metrics): their first
 * workflow task eagerly, in the start's answer, or dispatched by the server's matching. A batch's worker starts its
 * payouts eagerly when it has a free workflow task slot.
 */
import { metricsText } from './server-persistence';

export interface FirstTasks {
  eager: number;
  dispatched: number;
}

const SAMPLE = /^payout_engine_payout_starts_total\{[^}]*first_task="(eager|dispatched)"[^}]*\}\s+(\S+)$/;

export function parseFirstTasks(text: string): FirstTasks {
  const counts: FirstTasks = { eager: 0, dispatched: 0 };
  for (const line of text.split('\n')) {
    const [, firstTask, value] = SAMPLE.exec(line.trim()) ?? [];
    if (firstTask === 'eager' || firstTask === 'dispatched') counts[firstTask] += Number(value);
  }
  return counts;
}

export async function readFirstTasks(metricsUrl: string): Promise<FirstTasks> {
  return parseFirstTasks(await metricsText(metricsUrl));
}

export const firstTasksBetween = (before: FirstTasks, after: FirstTasks): FirstTasks => ({
  eager: after.eager - before.eager,
  dispatched: after.dispatched - before.dispatched,
});
