/**
 * How long a merchant waits for a PIX charge's code with the stack idle: `POST /v1/charges` one after
 * another (update-with-start, the provider's creation, the code's check and its QR picture), timed
 * from the request to the answer.
 */
import { randomUUID } from 'node:crypto';
import { percentile } from './percentile';

export interface ChargeLatencyResult {
  charges: number;
  latencyMs: { p50: number; p99: number; max: number };
}

/** One `POST /v1/charges`, timed from the request to its 201 (throws on any other answer). */
export async function timedCharge(
  engine: { baseUrl: string; apiKey: string },
  externalId: string,
  amount: number,
): Promise<number> {
  const body = { externalId, amount, payer: { name: 'Bench Payer', document: '52998224725' } };
  const started = performance.now();
  const response = await fetch(`${engine.baseUrl}/v1/charges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${engine.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.text();
  if (response.status !== 201) throw new Error(`charge ${externalId}: HTTP ${response.status}`);
  return performance.now() - started;
}

export async function measureChargeCreation(options: {
  baseUrl: string;
  apiKey: string;
  charges: number;
}): Promise<ChargeLatencyResult> {
  const run = randomUUID().slice(0, 8);
  const latencies: number[] = [];
  for (let index = 0; index < options.charges; index += 1) {
    latencies.push(await timedCharge(options, `bench-${run}-${index}`, 10 + index / 100));
  }
  latencies.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value);
  return {
    charges: options.charges,
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.at(-1) ?? Number.NaN),
    },
  };
}
