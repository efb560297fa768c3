/**
 * `npm run cluster` and docker-compose.yml run the Temporal server on the same files (ops/temporal): the
 * server's config (read here as the server renders it), its dynamic config, the database script. The server takes
 * minutes to build, so what needs it runs after the build in .ci/run: `npm run test:cluster` (built-server.test.ts,
 * the server's own reading of these files) and the cluster's smoke, `CLUSTER_CHECK=1 npm run cluster`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { TEMPORAL_SERVER_VERSION } from '../../tools/cluster/server-build';
import {
  DYNAMIC_CONFIG_FILE,
  SERVER_CONFIG_FILE,
  SETUP_DATABASES_SCRIPT,
  TEMPORAL_OPS_DIR,
} from '../../tools/cluster/temporal-server';
import { binaryVersion, temporalCliPath } from '../../tools/temporal/binaries';
import { NAMESPACE_RETENTION_DAYS } from '../../src/temporal/namespace-setup';
import { templateVariables } from '../helpers/go-template';
import { clusterEnv, ports, render, template } from './server-config-reading';

const root = path.join(__dirname, '..', '..');
const composeServiceSchema = z.looseObject({
  image: z.string().optional(),
  entrypoint: z.array(z.string()).optional(),
  command: z.union([z.string(), z.array(z.string())]).optional(),
  environment: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  volumes: z.array(z.string()).optional(),
});
const compose = z
  .object({ services: z.record(z.string(), composeServiceSchema) })
  .parse(parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }));
const service = (name: string) => compose.services[name] ?? {};
/** Where a service mounts ops/temporal. */
const opsMount = (name: string) =>
  (service(name).volumes ?? []).find((volume) => volume.startsWith('./ops/temporal:'))?.split(':')[1];

test('the server a cluster builds is the one inside the pinned Temporal CLI that every test runs on', () => {
  expect(binaryVersion(temporalCliPath({ install: false }))).toContain(`Server ${TEMPORAL_SERVER_VERSION}`);
});

test('persistence and visibility are on PostgreSQL, with more than one history shard', () => {
  const config = render(clusterEnv);
  expect(config.persistence.numHistoryShards).toBe(16);
  const stores = [config.persistence.defaultStore, config.persistence.visibilityStore].map(
    (name) => config.persistence.datastores[name]?.sql,
  );
  expect(stores.map((store) => store?.pluginName)).toEqual(['postgres12', 'postgres12']);
  expect(stores.map((store) => store?.databaseName)).toEqual(['temporal', 'temporal_visibility']);
  expect(stores.map((store) => store?.connectAddr)).toEqual(['127.0.0.1:5433', '127.0.0.1:5433']);
});

test('the cluster sets every port of the server, each below 32768 (the server keeps them in a smallint), and only variables the file reads', () => {
  const config = render(clusterEnv);
  const used = Object.values(config.services).flatMap(({ rpc }) => [rpc.grpcPort, rpc.membershipPort]);
  expect(new Set(used).size).toBe(8);
  for (const port of used) expect(port).toBeLessThan(32_768);
  expect(used).toEqual(expect.arrayContaining([ports.frontend, ports.history, ports.matching, ports.worker]));
  const read = templateVariables(template);
  for (const name of Object.keys(clusterEnv)) expect(read).toContain(name);
  expect(render(clusterEnv).dynamicConfigClient.filepath).toBe(DYNAMIC_CONFIG_FILE);
});

test('the dynamic config is a production one: it parses, and keeps the search-attribute cache the dev server turns off', () => {
  const dynamic = z
    .record(z.string(), z.array(z.object({ value: z.unknown(), constraints: z.unknown().optional() })))
    .parse(parse(readFileSync(DYNAMIC_CONFIG_FILE, 'utf8')));
  expect(dynamic['system.forceSearchAttributesCacheRefreshOnRead']).toEqual([{ value: false }]);
});

/** The image at exactly this tag, pinned by its digest. */
const pinned = (image: string) => new RegExp(`^${image.replace(/[.]/g, '\\.')}@sha256:[0-9a-f]{64}$`);

test('docker-compose runs the same server version on the same files, mounted where the config expects its dynamic config', () => {
  const temporal = service('temporal');
  expect(temporal.image).toMatch(pinned(`temporalio/server:${TEMPORAL_SERVER_VERSION}`));
  const mount = opsMount('temporal');
  expect(mount).toBeDefined();
  expect(temporal.environment?.TEMPORAL_SERVER_CONFIG_FILE_PATH).toBe(`${mount}/${path.basename(SERVER_CONFIG_FILE)}`);
  // Unset in compose: the file's default is the mounted dynamic config.
  expect(temporal.environment?.DYNAMIC_CONFIG_FILE_PATH).toBeUndefined();
  const inCompose = render({ ...temporal.environment, POSTGRES_SEEDS: String(temporal.environment?.POSTGRES_SEEDS) });
  expect(inCompose.dynamicConfigClient.filepath).toBe(`${mount}/${path.basename(DYNAMIC_CONFIG_FILE)}`);
  expect(inCompose.persistence.datastores[inCompose.persistence.defaultStore]?.sql.connectAddr).toBe('postgresql:5432');
  const read = templateVariables(template);
  for (const name of Object.keys(temporal.environment ?? {}).filter(
    (variable) => !variable.startsWith('TEMPORAL_SERVER_') && variable !== 'TEMPORAL_ALLOW_NO_AUTH',
  )) {
    expect(read).toContain(name);
  }
});

test("docker-compose sets up the databases with the cluster's script and the same tool version, and the namespace with the cluster's retention", () => {
  const databases = service('temporal-databases');
  expect(databases.image).toMatch(pinned(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`));
  expect(databases.entrypoint).toEqual([
    '/bin/sh',
    `${opsMount('temporal-databases')}/${path.basename(SETUP_DATABASES_SCRIPT)}`,
  ]);
  const namespace = service('temporal-namespace');
  expect(namespace.image).toMatch(pinned(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`));
  expect(JSON.stringify(namespace.command)).toContain(`--retention ${NAMESPACE_RETENTION_DAYS * 24}h`);
  expect(path.dirname(SETUP_DATABASES_SCRIPT)).toBe(TEMPORAL_OPS_DIR);
});
