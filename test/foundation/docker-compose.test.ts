/**
 * No Docker engine runs here, so the compose file is checked by what can run: its services use only
 * variables the config module knows, register the engine's search attributes, wire the UI's codec with
 * its token, and publish nothing but the engine API and the UI.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { existsSync } from 'node:fs';
import { envSchema } from '../../src/config/env';
import { ENGINE_SEARCH_ATTRIBUTES, searchAttributeCliPairs } from '../../src/temporal/search-attributes';

const serviceSchema = z.looseObject({
  volumes: z.array(z.string()).optional(),
  image: z.string().optional(),
  build: z.unknown().optional(),
  command: z.union([z.string(), z.array(z.string())]).optional(),
  environment: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  depends_on: z.record(z.string(), z.unknown()).optional(),
  ports: z.array(z.string()).optional(),
  deploy: z.looseObject({ replicas: z.number().int().optional() }).optional(),
});
const composeSchema = z.looseObject({ services: z.record(z.string(), serviceSchema) });

const compose = composeSchema.parse(parse(readFileSync(path.join(__dirname, '../../docker-compose.yml'), 'utf8'), { merge: true }));
const ourServices = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
const configNames = new Set(Object.keys(envSchema.shape));

test('the topology has every part: PostgreSQL, Temporal, its UI, the API, the worker and the sandbox', () => {
  expect(Object.keys(compose.services).sort()).toEqual(
    expect.arrayContaining(['api', 'postgresql', 'sandbox', 'temporal', 'temporal-ui', 'worker']),
  );
  expect(ourServices.map(([name]) => name).sort()).toEqual(['api', 'sandbox', 'worker']);
});

test.each(ourServices)('service %s sets only variables the config module reads', (_name, service) => {
  const environment = service.environment ?? {};
  for (const name of Object.keys(environment)) expect(configNames).toContain(name);
});

test('the engine services run in production mode with no demo secret baked in', () => {
  for (const name of ['api', 'worker']) {
    const environment = compose.services[name]?.environment ?? {};
    expect(environment.NODE_ENV).toBe('production');
    for (const secret of ['ENGINE_API_KEYS', 'WEBHOOK_SECRET', 'PAYMENT_API_CLIENT_SECRET', 'PAYLOAD_ENCRYPTION_KEY']) {
      expect(String(environment[secret])).toMatch(/^\$\{[A-Z_]+:\?/);
    }
  }
});

test('every engine search attribute is registered with its type', () => {
  const command = JSON.stringify(compose.services['temporal-namespace']?.command ?? '');
  for (const pair of searchAttributeCliPairs()) expect(command).toContain(pair);
  expect(ENGINE_SEARCH_ATTRIBUTES.length).toBe(searchAttributeCliPairs().length);
});

test('the Temporal UI decodes payloads through the engine codec endpoint, with the codec token in its URL', () => {
  const ui = compose.services['temporal-ui']?.environment ?? {};
  const api = compose.services.api?.environment ?? {};
  expect(ui.TEMPORAL_CODEC_ENDPOINT).toBe('http://localhost:3000/codec/t/${CODEC_TOKEN:?set CODEC_TOKEN}');
  expect(api.CODEC_TOKEN).toBe('${CODEC_TOKEN:?set CODEC_TOKEN}');
  // The browser on the UI's published port calls the codec.
  expect(String(api.CODEC_CORS_ORIGINS).split(',')).toContain('http://localhost:8080');
});

test('only the engine API is published to all; the Temporal UI, Prometheus and Grafana on loopback; never Temporal (7233), PostgreSQL or the sandbox', () => {
  const published = Object.entries(compose.services).flatMap(([name, service]) => (service.ports ?? []).map((port) => `${name} ${port}`));
  expect(published.sort()).toEqual(['api 3000:3000', 'grafana 127.0.0.1:3001:3000', 'prometheus 127.0.0.1:9090:9090', 'temporal-ui 127.0.0.1:8080:8080']);
  // In its container the API must listen beyond loopback to be reachable through the published port.
  expect(compose.services.api?.environment?.ENGINE_HOST).toBe('0.0.0.0');
});

test('every depends_on names a service of the file', () => {
  for (const service of Object.values(compose.services)) {
    for (const dependency of Object.keys(service.depends_on ?? {})) expect(Object.keys(compose.services)).toContain(dependency);
  }
});

test('the API and two worker replicas share the batch store in PostgreSQL: the server of Temporal, its own database, created before they start', () => {
  const api = compose.services.api?.environment ?? {};
  const worker = compose.services.worker?.environment ?? {};
  expect(compose.services.worker?.deploy?.replicas).toBe(2);
  const storeUrl = envSchema.shape.BATCH_STORE_URL.parse(api.BATCH_STORE_URL);
  expect(worker.BATCH_STORE_URL).toBe(storeUrl);
  const url = new URL(storeUrl ?? '');
  expect(url.hostname).toBe('postgresql');
  const database = url.pathname.slice(1);
  // Not Temporal's own databases.
  expect(['temporal', 'temporal_visibility', 'postgres']).not.toContain(database);

  const init = compose.services['batch-store-database'];
  expect(JSON.stringify(init?.command)).toContain(`CREATE DATABASE ${database}`);
  expect(init?.depends_on).toHaveProperty('postgresql');
  for (const name of ['api', 'worker']) {
    expect(compose.services[name]?.depends_on?.['batch-store-database']).toEqual({ condition: 'service_completed_successfully' });
  }
});

test('Prometheus loads ops/prometheus and scrapes the worker on the port its /metrics listens on, beyond loopback', () => {
  const prometheus = compose.services.prometheus;
  expect(prometheus?.volumes).toContain('./ops/prometheus:/etc/prometheus:ro');
  expect(prometheus?.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
  expect(readFileSync(path.join(__dirname, '../../ops/prometheus/prometheus.yml'), 'utf8')).toContain(`worker:${envSchema.shape.WORKER_METRICS_PORT.parse(undefined)}`);
  expect(compose.services.worker?.environment?.WORKER_METRICS_HOST).toBe('0.0.0.0');
});

test('Grafana provisions its data source and the payouts dashboard from ops/grafana, with an admin password from the environment', () => {
  const grafana = compose.services.grafana;
  for (const volume of grafana?.volumes ?? []) {
    const source = volume.split(':')[0] ?? '';
    if (source.startsWith('./')) expect(existsSync(path.join(__dirname, '../..', source))).toBe(true);
  }
  expect(grafana?.volumes).toEqual(expect.arrayContaining(['./ops/grafana/provisioning:/etc/grafana/provisioning:ro', './ops/grafana/payouts.json:/var/lib/grafana/dashboards/payouts.json:ro']));
  expect(String(grafana?.environment?.GF_SECURITY_ADMIN_PASSWORD)).toMatch(/^\$\{GRAFANA_ADMIN_PASSWORD:\?/);
});
