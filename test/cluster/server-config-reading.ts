/**
 * ops/temporal/config.yaml read as the Temporal server renders it (its Go template, with a cluster's variables), for
 * the suites that check the files without the server (cluster-config) and against the built server (built-server).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { SERVER_CONFIG_FILE, serverEnvironment, type ServerPorts } from '../../tools/cluster/temporal-server';
import { renderGoTemplate } from '../helpers/go-template';

export const template = readFileSync(SERVER_CONFIG_FILE, 'utf8');

const sqlStoreSchema = z.object({
  sql: z.object({ pluginName: z.string(), databaseName: z.string(), connectAddr: z.string() }),
});
export const serverConfigSchema = z.looseObject({
  persistence: z.object({
    numHistoryShards: z.number().int(),
    defaultStore: z.string(),
    visibilityStore: z.string(),
    datastores: z.record(z.string(), sqlStoreSchema),
  }),
  services: z.record(
    z.string(),
    z.object({ rpc: z.looseObject({ grpcPort: z.number().int(), membershipPort: z.number().int() }) }),
  ),
  dynamicConfigClient: z.object({ filepath: z.string() }),
});

export const render = (env: Record<string, string | undefined>) =>
  serverConfigSchema.parse(parse(renderGoTemplate(template, env)));

export const ports: ServerPorts = {
  frontend: 21001,
  frontendHttp: 21002,
  frontendMembership: 21003,
  history: 21004,
  historyMembership: 21005,
  matching: 21006,
  matchingMembership: 21007,
  worker: 21008,
  workerMembership: 21009,
  metrics: 21010,
};

/** What `npm run cluster` sets for the server, on fixed ports and a PostgreSQL at 127.0.0.1:5433. */
export const clusterEnv = serverEnvironment({
  ports,
  database: { host: '127.0.0.1', port: 5433, user: 'postgres', password: '' },
});
