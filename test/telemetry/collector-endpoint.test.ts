/**
 * Where production may send its spans: to an https collector, to one on this machine (a sidecar on loopback),
 * or in clear to the one host OTLP_PLAINTEXT_HOST names (docker-compose's Jaeger on its Docker network); any
 * other http:// endpoint is refused at start-up, naming its variable. Outside production, any endpoint.
 */
import { ConfigError, loadConfig } from '../../src/config/env';
import { STRONG_PRODUCTION_ENV as PRODUCTION } from '../helpers/production-env';

function refusals(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((issue) => `${issue.variable}: ${issue.message}`);
    throw error;
  }
}

test.each([
  ['OTEL_EXPORTER_OTLP_ENDPOINT', 'http://collector.internal:4318'],
  ['OTEL_EXPORTER_OTLP_ENDPOINT', 'http://10.0.4.2:4318'],
  ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'http://collector.internal:4318/v1/traces'],
])('production refuses %s=%s: spans in clear beyond this machine', (name, endpoint) => {
  expect(refusals({ ...PRODUCTION, [name]: endpoint })).toEqual([
    `${name}: ${endpoint} sends spans in clear beyond this machine when NODE_ENV=production: an https collector, one on loopback, or OTLP_PLAINTEXT_HOST=${new URL(endpoint).hostname} on a network only the engine's services share`,
  ]);
});

test('production takes an https collector, one on loopback, and the plaintext host it is told of, that one only', () => {
  for (const endpoint of [
    'https://collector.example.com',
    'http://127.0.0.1:4318',
    'http://localhost:4318',
    'http://[::1]:4318',
  ]) {
    expect({ endpoint, refused: refusals({ ...PRODUCTION, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }) }).toEqual({
      endpoint,
      refused: [],
    });
  }
  const compose = { ...PRODUCTION, OTLP_PLAINTEXT_HOST: 'jaeger' };
  expect(refusals({ ...compose, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318' })).toEqual([]);
  expect(refusals({ ...compose, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.internal:4318' })).toHaveLength(1);
  expect(
    refusals({ ...compose, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://jaeger.example.com/v1/traces' }),
  ).toHaveLength(1);
});

test('outside production any collector is taken; a value that is no URL is refused everywhere', () => {
  expect(refusals({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.internal:4318' })).toEqual([]);
  expect(refusals({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toEqual([
    expect.stringMatching(/^OTEL_EXPORTER_OTLP_ENDPOINT: /),
  ]);
});
