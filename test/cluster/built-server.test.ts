/**
 * The built Temporal server (`npm run cluster:install`) against ops/temporal: it renders the config as
 * cluster-config.test.ts reads it, and its validator finds nothing in the dynamic config, nor lets a misspelt key
 * through `npm run cluster`. Run by `npm run test:cluster` (.ci/run, after the build); without the server it fails,
 * naming the install command, it never skips.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { serverInstalled, ServerNotInstalledError, temporalServerBinary } from '../../tools/cluster/server-build';
import { checkDynamicConfig, SERVER_CONFIG_FILE, TEMPORAL_OPS_DIR } from '../../tools/cluster/temporal-server';
import { clusterEnv, render, serverConfigSchema } from './server-config-reading';

beforeAll(() => {
  if (!serverInstalled()) throw new ServerNotInstalledError();
});

test('the built server renders the config as the config suite reads it', () => {
  const rendered = execFileSync(
    temporalServerBinary(),
    ['--config', TEMPORAL_OPS_DIR, '--env', path.basename(SERVER_CONFIG_FILE, '.yaml'), 'render-config'],
    { env: { ...process.env, ...clusterEnv }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const config = serverConfigSchema.parse(parse(rendered));
  expect(config.persistence.numHistoryShards).toBe(render(clusterEnv).persistence.numHistoryShards);
  expect(config.persistence.datastores).toEqual(render(clusterEnv).persistence.datastores);
  expect(config.dynamicConfigClient).toEqual(render(clusterEnv).dynamicConfigClient);
});

test("the server's validator finds nothing in the dynamic config the cluster and docker-compose run on", () => {
  expect(() => checkDynamicConfig()).not.toThrow();
});

test('a misspelt dynamic config key stops the cluster before it starts, naming the key', () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'dynamic-config-')), 'dynamicconfig.yaml');
  writeFileSync(file, 'limit.maxIdLengt:\n  - value: 1000\n');
  expect(() => checkDynamicConfig(file)).toThrow(/unregistered key "limit\.maxidlengt"/);
});
