/**
 * The launcher of `npm start` keeps each service in a process group of its own (so Ctrl-C reaches only
 * the launcher, which stops them in order). When the launcher itself is killed (SIGKILL: no chance to
 * stop anything), every service it started must still go: none keeps running or holds its port.
 */
import { rmSync } from 'node:fs';
import { pollUntil } from '../../src/util/poll';
import { npmStart, portOpen, processesNaming } from '../helpers/npm-start';

test('a SIGKILLed npm start leaves no service running and no port held', async () => {
  const { child: launcher, ports, dataDir, exited } = await npmStart();
  try {
    // The services it started: the Temporal server (its database is in the data folder) and the three others.
    expect(processesNaming(dataDir).length).toBeGreaterThanOrEqual(4);
    launcher.kill('SIGKILL');
    await exited;

    await pollUntil(
      async () => {
        const open = await Promise.all(Object.values(ports).map(portOpen));
        return !open.includes(true) && processesNaming(dataDir).length === 0 ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250, description: 'every service of the killed launcher to stop' },
    );
  } finally {
    // Whatever is left (on failure) goes with the test.
    for (const pid of processesNaming(dataDir)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 240_000);
