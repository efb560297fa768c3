/**
 * No Docker engine runs here, so the compose file is checked by what can run: its services use only
 * variables the config module knows, and the API's and the workers' environments pass its production
 * rules; they register the engine's search attributes, wire the UI's codec with its token on the UI's own
 * origin, publish nothing to everyone but the TLS proxy (test/ops/reverse-proxy.test.ts runs its Caddyfile),
 * keep the API's plain port on Docker networks and trust X-Forwarded-For from the proxy's fixed address only,
 * take every password from the environment (a missing one named), give the engine services no sandbox
 * secret and the sandbox no production one (its own admin token required, its start script run here),
 * give the workers none of the API's credentials, pin every image by digest, scrape each worker replica,
 * and give the batch store a role and database of its own (the script that makes them runs on a real PostgreSQL).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';
import { Client } from 'pg';
import { parse } from 'yaml';
import { z } from 'zod';
import { envSchema, loadConfig } from '../../src/config/env';
import { ENGINE_SEARCH_ATTRIBUTES, searchAttributeCliPairs } from '../../src/temporal/search-attributes';
import { compose, environmentOf, interpolate, PRODUCTION_SECRETS, STRONG_SECRETS } from '../helpers/compose-file';
import { postgresForThisFile } from '../helpers/postgres';
import { JAEGER_VERSION } from '../../tools/screenshots/jaeger';

const run = promisify(execFile);

const ourServices = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
const configNames = new Set(Object.keys(envSchema.shape));

test('the topology has every part: PostgreSQL, Temporal, its UI, the API, the worker and the sandbox', () => {
  expect(Object.keys(compose.services).sort()).toEqual(
    expect.arrayContaining(['api', 'postgresql', 'proxy', 'sandbox', 'temporal', 'temporal-ui', 'worker']),
  );
  expect(ourServices.map(([name]) => name).sort()).toEqual(['api', 'sandbox', 'worker']);
});

test.each(ourServices)(
  'service %s sets only variables the config module reads, or the standard OpenTelemetry ones the SDK reads',
  (_name, service) => {
    const environment = service.environment ?? {};
    for (const name of Object.keys(environment).filter((variable) => !variable.startsWith('OTEL_')))
      expect(configNames).toContain(name);
  },
);

test("the API and the workers export traces to Jaeger by OTLP/HTTP unless told otherwise; Grafana has Jaeger as a data source; the native Jaeger of the trace pictures is the image's version", () => {
  expect(compose.services.jaeger?.image).toMatch(
    new RegExp(`^jaegertracing/all-in-one:${JAEGER_VERSION.replaceAll('.', '\\.')}@sha256:[0-9a-f]{64}$`),
  );
  for (const service of ['api', 'worker'])
    expect(compose.services[service]?.environment?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(
      '${OTEL_EXPORTER_OTLP_ENDPOINT:-http://jaeger:4318}',
    );
  expect(compose.services.jaeger?.environment?.COLLECTOR_OTLP_ENABLED).toBe('true');
  const datasource = readFileSync(
    path.join(__dirname, '../../ops/grafana/provisioning/datasources/jaeger.yml'),
    'utf8',
  );
  expect(datasource).toMatch(/type: jaeger[\s\S]*url: http:\/\/jaeger:16686/);
});

/** The API's own credentials: the workers get none of them. */
const API_ONLY_SECRETS = ['ENGINE_API_KEYS', 'CHECKOUT_TOKEN_SECRET', 'CODEC_TOKEN'];

test("the engine services run in production mode with no demo secret baked in, no sandbox secret, and the https settings production requires; the workers get none of the API's own credentials", () => {
  const shared = [
    'WEBHOOK_SECRET',
    'PAYMENT_API_CLIENT_SECRET',
    'PAYLOAD_ENCRYPTION_KEY',
    'PAYMENT_API_BASE_URL',
    'ENGINE_PUBLIC_URL',
  ];
  for (const [name, secrets] of [
    ['api', [...shared, ...API_ONLY_SECRETS]],
    ['worker', shared],
  ] as const) {
    const environment = compose.services[name]?.environment ?? {};
    expect(environment.NODE_ENV).toBe('production');
    for (const secret of secrets) {
      expect({ name, secret, value: String(environment[secret]) }).toEqual({
        name,
        secret,
        value: expect.stringMatching(new RegExp(`^\\$\\{${secret}:\\?`)) as unknown,
      });
    }
    expect(Object.keys(environment).filter((variable) => variable.startsWith('SANDBOX_'))).toEqual([]);
    expect(Object.keys(compose.services[name]?.depends_on ?? {})).not.toContain('sandbox');
  }
  for (const secret of API_ONLY_SECRETS) expect(compose.services.worker?.environment).not.toHaveProperty(secret);
  // The sandbox is a profile of its own, for developing against.
  expect(compose.services.sandbox?.profiles).toEqual(['sandbox']);
});

test('no database password is written in the file: each comes from the environment, and a missing one stops compose naming it', () => {
  const text = readFileSync(path.join(__dirname, '../../docker-compose.yml'), 'utf8');
  expect(text).not.toMatch(/(POSTGRES_PASSWORD|POSTGRES_PWD|PGPASSWORD): (?!\$\{)/);
  expect(text).not.toMatch(/postgres:\/\/\w+:(?!\$\{)[^@]*@/);
  expect(environmentOf('postgresql').POSTGRES_PASSWORD).toBe(PRODUCTION_SECRETS.POSTGRES_PASSWORD);
  expect(environmentOf('temporal').POSTGRES_PWD).toBe(PRODUCTION_SECRETS.POSTGRES_PASSWORD);
  for (const missing of ['POSTGRES_PASSWORD', 'BATCH_STORE_PASSWORD']) {
    const rest = Object.fromEntries(Object.entries(PRODUCTION_SECRETS).filter(([name]) => name !== missing));
    const services = Object.keys(compose.services).filter((name) => name !== 'sandbox');
    expect(() => services.forEach((name) => environmentOf(name, rest))).toThrow(
      new RegExp(`required variable ${missing} is missing a value: set ${missing}`),
    );
  }
});

test("the API's and the workers' environments, as compose gives them, pass the engine's production rules (each read as its process reads it)", () => {
  const api = loadConfig(environmentOf('api', STRONG_SECRETS), 'api');
  expect(api).toMatchObject({
    NODE_ENV: 'production',
    TRUST_PROXY: ['172.31.253.2'],
    CODEC_CORS_ORIGINS: [],
    TEMPORAL_ALLOW_PLAINTEXT: true,
    ENGINE_PUBLIC_URL: STRONG_SECRETS.ENGINE_PUBLIC_URL,
  });
  expect(() => loadConfig(environmentOf('worker', STRONG_SECRETS), 'worker')).not.toThrow();
  // What the worker lacks is what only the API reads.
  expect(() => loadConfig(environmentOf('worker', STRONG_SECRETS), 'api')).toThrow(
    /ENGINE_API_KEYS[\s\S]*CHECKOUT_TOKEN_SECRET/,
  );
});

test("the API is given the integrity hash of the provider's script (production refuses to start without it), and compose stops naming it when it is missing; the workers get none", () => {
  expect(String(compose.services.api?.environment?.PAYMENT_SHIELD_SCRIPT_INTEGRITY)).toMatch(
    /^\$\{PAYMENT_SHIELD_SCRIPT_INTEGRITY:\?/,
  );
  expect(compose.services.worker?.environment).not.toHaveProperty('PAYMENT_SHIELD_SCRIPT_INTEGRITY');
  expect(loadConfig(environmentOf('api', STRONG_SECRETS), 'api').PAYMENT_SHIELD_SCRIPT_INTEGRITY).toBe(
    STRONG_SECRETS.PAYMENT_SHIELD_SCRIPT_INTEGRITY,
  );
  const { PAYMENT_SHIELD_SCRIPT_INTEGRITY: _integrity, ...rest } = STRONG_SECRETS;
  expect(() => environmentOf('api', rest)).toThrow(
    /required variable PAYMENT_SHIELD_SCRIPT_INTEGRITY is missing a value: set PAYMENT_SHIELD_SCRIPT_INTEGRITY/,
  );
});

test('every image is pinned by digest, in the compose file and the Dockerfile', () => {
  const images = Object.values(compose.services).flatMap((service) => (service.image ? [service.image] : []));
  expect(images.length).toBeGreaterThanOrEqual(6);
  for (const image of images) expect(image).toMatch(/^[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}$/);
  const froms = readFileSync(path.join(__dirname, '../../Dockerfile'), 'utf8').match(/^FROM \S+/gm) ?? [];
  expect(froms.length).toBe(2);
  // On the Node the repository's scripts run on (package.json's `node`).
  const node = z
    .object({ dependencies: z.object({ node: z.string() }) })
    .parse(JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8'))).dependencies.node;
  for (const from of froms)
    expect(from).toMatch(new RegExp(`^FROM node:${node.replaceAll('.', '\\.')}-bookworm-slim@sha256:[0-9a-f]{64}$`));
});

test('every engine search attribute is registered with its type', () => {
  const command = JSON.stringify(compose.services['temporal-namespace']?.command ?? '');
  for (const pair of searchAttributeCliPairs()) expect(command).toContain(pair);
  expect(ENGINE_SEARCH_ATTRIBUTES.length).toBe(searchAttributeCliPairs().length);
});

const CADDYFILE = readFileSync(path.join(__dirname, '../../ops/proxy/Caddyfile'), 'utf8');

test("the Temporal UI decodes through the codec URL with its token, on the UI's own https origin (no CORS), and only reads", () => {
  const ui = compose.services['temporal-ui']?.environment ?? {};
  const api = compose.services.api?.environment ?? {};
  expect(ui.TEMPORAL_CODEC_ENDPOINT).toBe('https://localhost:8080/codec/t/${CODEC_TOKEN:?set CODEC_TOKEN}');
  expect(api.CODEC_TOKEN).toBe('${CODEC_TOKEN:?set CODEC_TOKEN}');
  // The proxy serves the UI at that origin on the host's loopback and sends its codec URL to the API.
  expect(compose.services.proxy?.ports).toContain('127.0.0.1:8080:8080');
  expect(CADDYFILE).toMatch(
    /^https:\/\/localhost:\{\$TEMPORAL_UI_PROXY_PORT:8080\} \{[^}]*handle \/codec\/t\/\* \{\s*reverse_proxy \{\$ENGINE_UPSTREAM:api:3000\}/m,
  );
  // Same origin: no browser origin is allowed by CORS (production's default when unset).
  expect(api).not.toHaveProperty('CODEC_CORS_ORIGINS');
  // UI users read; resetting, terminating or signalling is the engine API's and the CLI's (docs/security.md).
  expect(ui.TEMPORAL_DISABLE_WRITE_ACTIONS).toBe('true');
});

test('only the TLS proxy is published to all; the UI (through the proxy), Prometheus, Jaeger and Grafana on loopback; never the API, Temporal (7233), PostgreSQL or the sandbox', () => {
  const published = Object.entries(compose.services).flatMap(([name, service]) =>
    (service.ports ?? []).map((port) => `${name} ${port}`),
  );
  expect(published.sort()).toEqual([
    'grafana 127.0.0.1:3001:3000',
    'jaeger 127.0.0.1:16686:16686',
    'prometheus 127.0.0.1:9090:9090',
    'proxy 127.0.0.1:8080:8080',
    'proxy 443:443',
  ]);
  // The proxy terminates TLS for ENGINE_PUBLIC_URL with the operator's certificate, a missing directory named.
  expect(compose.services.proxy?.image).toMatch(/^caddy:[\d.]+-alpine@sha256:[0-9a-f]{64}$/);
  expect(compose.services.proxy?.environment?.ENGINE_PUBLIC_URL).toBe(
    '${ENGINE_PUBLIC_URL:?set ENGINE_PUBLIC_URL (https)}',
  );
  const volumes = compose.services.proxy?.volumes ?? [];
  expect(volumes).toContain('./ops/proxy/Caddyfile:/etc/caddy/Caddyfile:ro');
  const { TLS_CERT_DIR: _certs, ...withoutCertificates } = PRODUCTION_SECRETS;
  expect(volumes.map((volume) => interpolate(volume, PRODUCTION_SECRETS))).toContain('./certs:/etc/caddy/tls:ro');
  expect(() => volumes.map((volume) => interpolate(volume, withoutCertificates))).toThrow(
    /required variable TLS_CERT_DIR is missing a value/,
  );
  expect(CADDYFILE).toMatch(
    /^\{\$ENGINE_PUBLIC_URL\} \{\s*tls \{\$TLS_CERT_FILE:\/etc\/caddy\/tls\/cert\.pem\} \{\$TLS_KEY_FILE:\/etc\/caddy\/tls\/key\.pem\}/m,
  );
  // In its container the API listens beyond loopback, for the proxy and the services of the file.
  expect(compose.services.api?.environment?.ENGINE_HOST).toBe('0.0.0.0');
});

test("the API trusts X-Forwarded-For from the proxy's fixed address alone, on a network of the proxy's that has no way out and that reaches neither Temporal nor PostgreSQL", () => {
  const networksOf = (name: string): string[] =>
    Object.keys(compose.services[name]?.networks ?? { default: {} }).sort();
  const edge = compose.networks.edge;
  expect(edge?.internal).toBe(true);
  const [pool] = edge?.ipam?.config ?? [];
  const proxyAddress = compose.services.proxy?.networks?.edge?.ipv4_address ?? '';
  expect(compose.services.api?.environment?.TRUST_PROXY).toBe(proxyAddress);
  // Inside the subnet, outside the range Docker hands out to the others.
  expect(ipaddr.parse(proxyAddress).match(ipaddr.parseCIDR(pool?.subnet ?? ''))).toBe(true);
  expect(ipaddr.parse(proxyAddress).match(ipaddr.parseCIDR(pool?.ip_range ?? ''))).toBe(false);
  expect(networksOf('proxy')).toEqual(['edge', 'public']);
  expect(networksOf('api')).toEqual(['default', 'edge']);
  expect(networksOf('temporal-ui')).toEqual(['default', 'edge']);
  const onEdge = Object.keys(compose.services)
    .filter((name) => networksOf(name).includes('edge'))
    .sort();
  expect(onEdge).toEqual(['api', 'proxy', 'temporal-ui']);
  const onPublic = Object.keys(compose.services).filter((name) => networksOf(name).includes('public'));
  expect(onPublic).toEqual(['proxy']);
});

test('every depends_on names a service of the file', () => {
  for (const service of Object.values(compose.services)) {
    for (const dependency of Object.keys(service.depends_on ?? {}))
      expect(Object.keys(compose.services)).toContain(dependency);
  }
});

test('the API and two worker replicas share the batch store in PostgreSQL: the server of Temporal, a role and a database of its own, created before they start', () => {
  const api = environmentOf('api');
  const worker = environmentOf('worker');
  expect(compose.services.worker?.deploy?.replicas).toBe(2);
  const storeUrl = envSchema.shape.DATABASE_URL.parse(api.DATABASE_URL);
  expect(worker.DATABASE_URL).toBe(storeUrl);
  const url = new URL(storeUrl ?? '');
  expect(url.hostname).toBe('postgresql');
  const database = url.pathname.slice(1);
  // Not Temporal's own databases, nor Temporal's user.
  expect(['temporal', 'temporal_visibility', 'postgres']).not.toContain(database);
  expect(url.username).toBe('batches');
  expect(url.password).toBe(PRODUCTION_SECRETS.BATCH_STORE_PASSWORD);

  const init = compose.services['batch-store-database'];
  expect(JSON.stringify(init?.command)).toContain(`CREATE DATABASE ${database} OWNER ${url.username}`);

  expect(init?.depends_on).toHaveProperty('postgresql');
  for (const name of ['api', 'worker']) {
    expect(compose.services[name]?.depends_on?.['batch-store-database']).toEqual({
      condition: 'service_completed_successfully',
    });
  }
});

test("Prometheus loads ops/prometheus and scrapes each worker replica (every address of the service's name) on the port its /metrics listens on, beyond loopback", () => {
  const prometheus = compose.services.prometheus;
  expect(prometheus?.volumes).toContain('./ops/prometheus:/etc/prometheus:ro');
  expect(prometheus?.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
  const config = z
    .looseObject({
      scrape_configs: z.array(
        z.looseObject({
          job_name: z.string(),
          dns_sd_configs: z
            .array(z.looseObject({ names: z.array(z.string()), type: z.string(), port: z.number() }))
            .optional(),
        }),
      ),
    })
    .parse(parse(readFileSync(path.join(__dirname, '../../ops/prometheus/prometheus.yml'), 'utf8')));
  const workers = config.scrape_configs.find((job) => job.job_name === 'engine-worker');
  expect(compose.services.worker?.deploy?.replicas).toBeGreaterThan(1);
  expect(workers?.dns_sd_configs).toEqual([
    expect.objectContaining({
      names: ['worker'],
      type: 'A',
      port: envSchema.shape.WORKER_METRICS_PORT.parse(undefined),
    }),
  ]);
  expect(workers).not.toHaveProperty('static_configs');
  expect(compose.services.worker?.environment?.WORKER_METRICS_HOST).toBe('0.0.0.0');
});

test('Grafana provisions its data source and the payouts dashboard from ops/grafana, with an admin password from the environment', () => {
  const grafana = compose.services.grafana;
  for (const volume of grafana?.volumes ?? []) {
    const source = volume.split(':')[0] ?? '';
    if (source.startsWith('./')) expect(existsSync(path.join(__dirname, '../..', source))).toBe(true);
  }
  expect(grafana?.volumes).toEqual(
    expect.arrayContaining([
      './ops/grafana/provisioning:/etc/grafana/provisioning:ro',
      './ops/grafana/payouts.json:/var/lib/grafana/dashboards/payouts.json:ro',
    ]),
  );
  expect(String(grafana?.environment?.GF_SECURITY_ADMIN_PASSWORD)).toMatch(/^\$\{GRAFANA_ADMIN_PASSWORD:\?/);
});

test('the sandbox takes no production secret: its credentials are its own variables', () => {
  const environment = compose.services.sandbox?.environment ?? {};
  const referenced = Object.values(environment).flatMap((value) =>
    [...String(value).matchAll(/\$\{(\w+)/g)].map((match) => match[1]),
  );
  expect(referenced.length).toBeGreaterThan(0);
  for (const name of referenced) expect(name).toMatch(/^SANDBOX_/);
  expect(environment.NODE_ENV).toBe('development');
});

describe("the sandbox's start script (the container's /bin/sh, run here)", () => {
  const [shell, flag] = compose.services.sandbox?.entrypoint ?? [];
  const [script] = (compose.services.sandbox?.command ?? []) as string[];
  // `npm` stands for the image's: it says what it was asked to run.
  const bin = mkdtempSync(path.join(os.tmpdir(), 'sandbox-start-'));
  writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "npm $*"\n', { mode: 0o755 });
  const start = (environment: Record<string, string>) =>
    run(shell ?? '', [flag ?? '', interpolate(script ?? '', {})], {
      env: { PATH: `${bin}:/usr/bin:/bin`, ...environment },
    });

  test('stops without SANDBOX_ADMIN_TOKEN, naming it, before the sandbox runs (no demo token to fall back on)', async () => {
    const refused = start({}).then(
      () => 'started',
      (error: { stdout: string; stderr: string }) => `${error.stdout}|${error.stderr}`,
    );
    expect(await refused).toMatch(/^\|.*SANDBOX_ADMIN_TOKEN: set SANDBOX_ADMIN_TOKEN/);
  });

  test('runs the sandbox with it', async () => {
    expect((await start({ SANDBOX_ADMIN_TOKEN: 'admin-token-0123456789abcdef' })).stdout).toBe('npm run sandbox\n');
  });
});

describe("the batch store's one-shot service", () => {
  const fresh = postgresForThisFile();

  test('makes the role and its database on a real PostgreSQL, its password passed as data (quotes and all), PUBLIC shut out; run again, it changes nothing else', async () => {
    const port = new URL(await fresh()).port;
    const [script] = (compose.services['batch-store-database']?.command ?? []) as string[];
    const password = 's3cr\'et"; DROP ROLE postgres; --';
    const runScript = () =>
      run('/bin/sh', ['-c', interpolate(script ?? '', {})], {
        env: {
          PATH: process.env.PATH ?? '',
          PGHOST: '127.0.0.1',
          PGPORT: port,
          PGUSER: 'postgres',
          PGDATABASE: 'postgres',
          BATCH_STORE_PASSWORD: password,
        },
      });
    await runScript();
    await runScript();

    const admin = new Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    try {
      const role = await admin.query<{ rolcanlogin: boolean; rolsuper: boolean; has_password: boolean }>(
        "SELECT rolcanlogin, rolsuper, rolpassword IS NOT NULL AS has_password FROM pg_authid WHERE rolname = 'batches'",
      );
      expect(role.rows).toEqual([{ rolcanlogin: true, rolsuper: false, has_password: true }]);
      const database = await admin.query<{ owner: string; acl: string }>(
        "SELECT pg_get_userbyid(datdba) AS owner, datacl::text AS acl FROM pg_database WHERE datname = 'batches'",
      );
      expect(database.rows).toHaveLength(1);
      expect(database.rows[0]?.owner).toBe('batches');
      // No entry for PUBLIC (an aclitem starting with "="): only its owner may connect.
      expect(
        (database.rows[0]?.acl ?? '')
          .replace(/[{}]/g, '')
          .split(',')
          .filter((item) => item.startsWith('=')),
      ).toEqual([]);
      expect((await admin.query("SELECT 1 FROM pg_roles WHERE rolname = 'postgres'")).rowCount).toBe(1);
    } finally {
      await admin.end();
    }
  });
});
