/**
 * Unsigned callbacks under PROVIDER_CALLBACK_SIGNATURES=optional are anybody's to send: 240 of them, each
 * near the body limit and naming nothing the engine knows, must not block the API's event loop more than
 * 240 small ones do. The API runs in this process; a timer-lag probe measures each block as the main
 * thread's CPU time between two ticks of a 1 ms timer (process.threadCpuUsage), so that moments the
 * machine gave the CPU to another process (it runs other tests) are not counted as the engine's block.
 * Small and large callbacks go in interleaved rounds of 80; the shortest of each kind's longest blocks is
 * compared, so that one garbage collection in one round is not taken for what every callback costs.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { startEngineApi, type EngineApi } from '../helpers/engine-api';

let api: EngineApi;
beforeAll(async () => {
  api = await startEngineApi({ PROVIDER_CALLBACK_SIGNATURES: 'optional' });
});
afterAll(() => api?.close());

const ROUNDS = 3;
const PER_ROUND = 80;
/** Under the callback routes' 256 KB body limit, with the JSON around it. */
const LARGE_REASON = 250 * 1024;

/** One POST on a connection of its own (no keep-alive race with the server's idle timer); answers the status. */
function post(path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${api.url}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** POSTs `count` unsigned withdrawal callbacks for payouts nobody has, four at a time. */
async function send(count: number, reasonLength: number): Promise<void> {
  const reason = 'x'.repeat(reasonLength);
  let sent = 0;
  const sender = async () => {
    while (sent < count) {
      sent += 1;
      const body = JSON.stringify({ external_id: `nobody-${randomUUID()}`, status: 'FAILED', reason });
      expect(await post('/callbacks/withdrawals', body)).toBe(202);
    }
  };
  await Promise.all([sender(), sender(), sender(), sender()]);
}

/** The longest block of the event loop, in ms of the main thread's CPU time, while `work` runs. */
async function longestBlock(work: () => Promise<void>): Promise<number> {
  const cpuMs = () => {
    const usage = process.threadCpuUsage();
    return (usage.user + usage.system) / 1_000;
  };
  let last = cpuMs();
  let longest = 0;
  let probing = true;
  const tick = () => {
    const now = cpuMs();
    longest = Math.max(longest, now - last);
    last = now;
    if (probing) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  try {
    await work();
  } finally {
    probing = false;
  }
  return longest;
}

test('240 unsigned callbacks of 250 KB block the event loop less than 20 ms longer than 240 small ones', async () => {
  // Code loaded and compiled on first use is not the engine's steady cost.
  await send(8, 10);
  await send(8, LARGE_REASON);
  const small: number[] = [];
  const large: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    small.push(await longestBlock(() => send(PER_ROUND, 10)));
    large.push(await longestBlock(() => send(PER_ROUND, LARGE_REASON)));
  }
  expect(Math.min(...large) - Math.min(...small)).toBeLessThan(20);

  // Nothing of an unsigned callback is kept but its ids and a count.
  const listed = (await (await api.fetch('/v1/callbacks/unmatched')).json()) as {
    data: { signed?: boolean; payload?: unknown; count?: number }[];
  };
  expect(listed.data.length).toBeGreaterThan(0);
  for (const entry of listed.data) expect(entry).toMatchObject({ signed: false, count: 1 });
  expect(listed.data.every((entry) => entry.payload === undefined)).toBe(true);
  expect(JSON.stringify(listed).length).toBeLessThan(100 * 1024);
}, 240_000);
