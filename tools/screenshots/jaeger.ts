/**
 * The trace backend of docker-compose.yml, Jaeger all-in-one at the same version, for machines without
 * Docker: the binary `npm run screenshots:jaeger-install` builds (its UI embedded) into the git-ignored
 * `.tools/jaeger/<version>/`, run natively on loopback ports of its own, traces in memory as in compose.
 * With JAEGER_URL set, a Jaeger already running there is used instead (`docker run -p 16686:16686
 * -p 4318:4318 jaegertracing/all-in-one:1.62.0`), its OTLP/HTTP receiver at JAEGER_OTLP_ENDPOINT
 * (default http://127.0.0.1:4318).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../src/net/free-port';
import { stopChild, waitHealthy } from '../stack/child-services';
import { PROJECT_ROOT } from '../pip-wheels';

/** The tag of docker-compose.yml's `jaegertracing/all-in-one` image (test/foundation/docker-compose.test.ts holds them together). */
export const JAEGER_VERSION = '1.62.0';

export const JAEGER_DIR = path.join(PROJECT_ROOT, '.tools', 'jaeger', JAEGER_VERSION);
export const jaegerBinary = (): string => process.env.JAEGER_BIN ?? path.join(JAEGER_DIR, 'all-in-one');

export interface Jaeger {
  /** The UI and its HTTP API (`/api/traces`). */
  url: string;
  /** What OTEL_EXPORTER_OTLP_ENDPOINT names: the OTLP/HTTP receiver. */
  otlpEndpoint: string;
  stop(): Promise<void>;
}

/** Every listener of all-in-one 1.62 on a free loopback port, so that it never takes another's port. */
const LISTENERS = [
  'collector.otlp.http.host-port',
  'collector.otlp.grpc.host-port',
  'collector.grpc-server.host-port',
  'collector.http-server.host-port',
  'query.http-server.host-port',
  'query.grpc-server.host-port',
  'admin.http.host-port',
  'http-server.host-port',
] as const;
const UDP_LISTENERS = [
  'processor.jaeger-compact.server-host-port',
  'processor.jaeger-binary.server-host-port',
  'processor.zipkin-compact.server-host-port',
] as const;

export async function startJaeger(): Promise<Jaeger> {
  const running = process.env.JAEGER_URL;
  if (running)
    return {
      url: running.replace(/\/$/, ''),
      otlpEndpoint: process.env.JAEGER_OTLP_ENDPOINT ?? 'http://127.0.0.1:4318',
      stop: async () => {},
    };

  const binary = jaegerBinary();
  if (!existsSync(binary))
    throw new Error(
      `No Jaeger at ${binary}: run \`npm run screenshots:jaeger-install\` (docs/observability.md), or set JAEGER_URL to a running one.`,
    );
  const ports = Object.fromEntries(
    await Promise.all([...LISTENERS, ...UDP_LISTENERS].map(async (flag) => [flag, await freePort()] as const)),
  ) as Record<string, number>;
  const child = spawn(
    binary,
    [
      ...Object.entries(ports).map(([flag, port]) => `--${flag}=127.0.0.1:${port}`),
      '--memory.max-traces=100000',
      '--log-level=warn',
    ],
    {
      // Jaeger does not trace itself here: its own spans would only add a service to the picture.
      env: { ...process.env, SPAN_STORAGE_TYPE: 'memory', OTEL_TRACES_SAMPLER: 'always_off' },
      stdio: ['ignore', 'ignore', 'pipe'],
      // Its own process group, as the stack's services: stopChild ends the group if it outlives its grace.
      detached: true,
    },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-10_000);
  });
  const tail = (): string => output;
  const url = `http://127.0.0.1:${ports['query.http-server.host-port']}`;
  try {
    await waitHealthy(`http://127.0.0.1:${ports['admin.http.host-port']}/`, child, 'jaeger', { tail });
  } catch (error) {
    await stopChild(child, 5_000);
    throw error;
  }
  return {
    url,
    otlpEndpoint: `http://127.0.0.1:${ports['collector.otlp.http.host-port']}`,
    stop: () => stopChild(child, 10_000),
  };
}
