/** CPU seconds each process used between two readings: where a phase's time went, the bench's own process included. */
import { cpuSeconds } from '../stack/child-services';

export type CpuReading = Record<string, number | null>;

/** `process.pid` is read through process.cpuUsage() (the same figure, without a file read). */
function cpuNow(pid: number | undefined): number | undefined {
  if (pid === process.pid) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  }
  return pid === undefined ? undefined : cpuSeconds(pid);
}

export function processCpu(pids: Record<string, number | undefined>): () => CpuReading {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuNow(pid)]));
  return () =>
    Object.fromEntries(
      Object.entries(pids).map(([name, pid]) => {
        const start = before[name];
        const end = cpuNow(pid);
        return [name, start === undefined || end === undefined ? null : Number((end - start).toFixed(2))];
      }),
    );
}
