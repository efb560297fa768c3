/**
 * The environment of a throwaway stack on this machine (bench, fuzz, chaos, screenshots): its own data
 * folder and free ports for the engine API, the sandbox and both processes' metrics, the engine calling the
 * sandbox as its provider. Callers add what their run tunes.
 */
import { freePort } from '../../src/net/free-port';

const UNLIMITED = 10_000_000;

export interface LocalStackPorts {
  engine: number;
  apiMetrics: number;
  sandbox: number;
  workerMetrics: number;
  workerSdkMetrics: number;
}

export async function freeStackPorts(): Promise<LocalStackPorts> {
  return { engine: await freePort(), apiMetrics: await freePort(), sandbox: await freePort(), workerMetrics: await freePort(), workerSdkMetrics: await freePort() };
}

export function localStackEnv(options: { dataDir: string; temporalAddress: string; ports: LocalStackPorts }): Record<string, string> {
  const { ports } = options;
  return {
    NODE_ENV: 'development',
    DATA_DIR: options.dataDir,
    TEMPORAL_ADDRESS: options.temporalAddress,
    ENGINE_PORT: String(ports.engine),
    METRICS_PORT: String(ports.apiMetrics),
    SANDBOX_PORT: String(ports.sandbox),
    WORKER_METRICS_PORT: String(ports.workerMetrics),
    WORKER_SDK_METRICS_PORT: String(ports.workerSdkMetrics),
    PAYMENT_API_BASE_URL: `http://127.0.0.1:${ports.sandbox}`,
    ENGINE_PUBLIC_URL: `http://127.0.0.1:${ports.engine}`,
    // A throwaway stack measures or exercises the engine, all from one address with one key: not its limits.
    ENGINE_RATE_LIMIT_PER_MINUTE: String(UNLIMITED),
    CALLBACK_RATE_LIMIT_PER_MINUTE: String(UNLIMITED),
    CHECKOUT_RATE_LIMIT_PER_MINUTE: String(UNLIMITED),
    CODEC_RATE_LIMIT_PER_MINUTE: String(UNLIMITED),
  };
}
