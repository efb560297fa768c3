/**
 * Text an outsider chooses reaches the API before any credential is checked: the callback's event id
 * header, a body's charset. None of it may cost the event loop more than a moment (the redaction's
 * patterns run in linear time on text cut to a bound), and a body parser's refusal is its own 4xx, not
 * a 500 with an error line. Meanwhile /healthz keeps answering at once.
 */
import {
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/payment-api/webhook-signature';
import { startEngineApi, type EngineApi } from '../helpers/engine-api';

const lines: string[] = [];
let api: EngineApi;
beforeAll(async () => {
  api = await startEngineApi({}, { logs: (line) => lines.push(line) });
});
afterAll(() => api?.close());

/** About 16 KB without an `@` or a space: the input that made the e-mail pattern quadratic. Node takes headers up to 16 KB in all. */
const ADVERSARIAL = 'a.'.repeat(7_900);

async function timed(request: () => Promise<Response>): Promise<{ status: number; ms: number; body: unknown }> {
  const started = performance.now();
  const response = await request();
  const body: unknown = await response.json();
  return { status: response.status, ms: performance.now() - started, body };
}

/** /healthz answered over and over while `work` runs: each answer's time. */
async function healthzDuring(work: () => Promise<void>): Promise<number[]> {
  let done = false;
  const times: number[] = [];
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${api.url}/healthz`)).text();
      times.push(performance.now() - started);
    }
  })();
  await work();
  done = true;
  await probe;
  return times;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Infinity;
/**
 * The third slowest: what a cost paid on every adversarial request shows in (20 of them), while one pause of the
 * machine's (a collection, another process scheduled) lands on one or two requests of either kind, not on three.
 */
const thirdSlowest = (values: number[]): number => [...values].sort((a, b) => b - a)[2] ?? Infinity;

const callbackWith = (eventId: string) => () =>
  fetch(`${api.url}/callbacks/withdrawals`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [WEBHOOK_ID_HEADER]: eventId,
      [WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000)),
      [WEBHOOK_SIGNATURE_HEADER]: 'v1=00',
    },
    body: '{}',
  });
const payWithCharset = (charset: string) => () =>
  fetch(`${api.url}/checkout/order-1/pay`, {
    method: 'POST',
    headers: { 'content-type': `application/json; charset=${charset}` },
    body: '{}',
  });

test('16 KB adversarial event ids and charsets are answered at once, as 401 and 415, without an error line; /healthz stays fast', async () => {
  // The first requests of a route pay for compiling its code: not what is measured.
  for (let round = 0; round < 3; round += 1)
    await Promise.all([timed(callbackWith('warm-up')), timed(payWithCharset('latin-9'))]);
  const callbacks: number[] = [];
  const charsets: number[] = [];
  // The same requests with short values, interleaved: what the machine's load costs any request right now.
  const plainCallbacks: number[] = [];
  const plainCharsets: number[] = [];
  const healthz = await healthzDuring(async () => {
    for (let round = 0; round < 10; round += 1) {
      plainCallbacks.push((await timed(callbackWith('plain-id'))).ms);
      plainCharsets.push((await timed(payWithCharset('latin-9'))).ms);
      const callback = await timed(callbackWith(ADVERSARIAL));
      expect(callback).toMatchObject({ status: 401, body: { code: 'INVALID_SIGNATURE' } });
      callbacks.push(callback.ms);
      const charset = await timed(payWithCharset(ADVERSARIAL));
      expect(charset).toMatchObject({
        status: 415,
        body: { code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.not.stringContaining('a.a.') as unknown },
      });
      charsets.push(charset.ms);
    }
  });
  // Against the same requests with short values, measured in the same rounds (what the machine's load costs any request
  // right now): the 16 KB value at most doubles the median, plus a few ms of reading it (the quadratic pattern added a
  // third of a second to each on an idle machine), and neither it nor /healthz meanwhile comes near thrice the short
  // ones' slow end. Slow ends compared like for like, each the third slowest of its kind: a value that blocks the event
  // loop slows every adversarial request and the /healthz answers waiting behind each, not one in twenty.
  const plainSlowEnd = thirdSlowest([...plainCallbacks, ...plainCharsets]);
  expect(median(callbacks)).toBeLessThan(2 * median(plainCallbacks) + 20);
  expect(median(charsets)).toBeLessThan(2 * median(plainCharsets) + 20);
  expect(thirdSlowest([...callbacks, ...charsets])).toBeLessThan(3 * plainSlowEnd + 50);
  expect(thirdSlowest(healthz)).toBeLessThan(3 * plainSlowEnd + 50);

  const logged = lines.map((line) => JSON.parse(line) as { level: string; event: string; eventId?: unknown });
  expect(logged.filter((line) => line.level === 'error')).toEqual([]);
  // The made-up id never reached a log line; every line stays short.
  expect(logged.some((line) => line.event === 'callback.rejected' && line.eventId === undefined)).toBe(true);
  expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(6_000);
});
