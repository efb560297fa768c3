/**
 * The environment of a throwaway stack on this machine (bench, fuzz, chaos, screenshots): its own data
 * folder and free ports for the engine API, the sandbox and both processes' metrics, the engine calling the
 * sandbox as its provider. Callers add what their run tunes.
 */
import { freePorts } from '../../src/net/free-port';
import { SANDBOX_CRYPTO_WITHDRAW_PATH } from './sandbox-provider-env';

const UNLIMITED = 10_000_000;

export interface LocalStackPorts {
  /** The dev server's gRPC and Prometheus ports, for stacks that start their own. */
  temporal: number;
  temporalMetrics: number;
  engine: number;
  apiMetrics: number;
  sandbox: number;
  workerMetrics: number;
  workerSdkMetrics: number;
}

/**
 * All chosen at once, each held until all are found: ports chosen one by one (or left to the Temporal CLI)
 * can come out twice, as a port reserved for a process not yet listening is free to the next ask.
 */
export async function freeStackPorts(): Promise<LocalStackPorts> {
  return stackPorts(await freePorts(7));
}

/** The same, with one more for the Temporal UI (`npm start` serves it), chosen together with the others. */
export async function freeStackPortsWithUi(): Promise<LocalStackPorts & { ui: number }> {
  const [ui = 0, ...others] = await freePorts(8);
  return { ...stackPorts(others), ui };
}

function stackPorts([
  temporal = 0,
  temporalMetrics = 0,
  engine = 0,
  apiMetrics = 0,
  sandbox = 0,
  workerMetrics = 0,
  workerSdkMetrics = 0,
]: number[]): LocalStackPorts {
  return { temporal, temporalMetrics, engine, apiMetrics, sandbox, workerMetrics, workerSdkMetrics };
}

export function localStackEnv(options: {
  dataDir: string;
  temporalAddress: string;
  ports: LocalStackPorts;
}): Record<string, string> {
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
    PAYMENT_API_CRYPTO_WITHDRAW_PATH: SANDBOX_CRYPTO_WITHDRAW_PATH,
    ENGINE_PUBLIC_URL: `http://127.0.0.1:${ports.engine}`,
    // A throwaway stack measures or exercises the engine, all from one address with one key: not its limits.
    ENGINE_RATE_LIMIT_PER_MINUTE: String(UNLIMITED),
    CALLBACK_RATE_LIMIT_PER_MINUTE: String(UNLIMITED),
    CHECKOUT_RATE_LIMIT_PER_MINUTE: String(UNLIMITED),
    CODEC_RATE_LIMIT_PER_MINUTE: String(UNLIMITED),
  };
}
