/**
 * The monitoring files (ops/): Prometheus' config and alert rules through `promtool` (Debian's `prometheus`
 * package carries it, and .ci/run installs it; rule unit tests in ops/prometheus/alerts.test.yml), and
 * through their schema and a PromQL sanity check; the Grafana dashboard and its provisioning. That every
 * metric they name is exported is checked through the real stack, in metrics-stack.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { envSchema } from '../../src/config/env';
import {
  alertRules,
  ALERTS_PATH,
  dashboard,
  OPS_DIR,
  opsExpressions,
  opsMetricNames,
  PROMETHEUS_PATH,
} from '../helpers/ops-files';

/** promtool where PROMTOOL_PATH or Debian puts it; without it these tests fail, they never skip. */
function promtool(args: string[]): string {
  const candidates = [process.env.PROMTOOL_PATH, '/usr/bin/promtool', '/usr/local/bin/promtool'];
  const found = candidates.find((candidate): candidate is string => candidate !== undefined && existsSync(candidate));
  if (!found)
    throw new Error(
      'promtool not found: install it (apt-get install -y prometheus, as .ci/run does) or set PROMTOOL_PATH',
    );
  return execFileSync(found, args, { encoding: 'utf8' });
}

test('promtool accepts the alert rules and the Prometheus config', () => {
  expect(promtool(['check', 'rules', ALERTS_PATH])).toMatch(/SUCCESS: 5 rules found/);
  expect(promtool(['check', 'config', PROMETHEUS_PATH])).toMatch(/is valid prometheus config file syntax/);
});

test("each alert fires on its situation and stays quiet on a healthy one (promtool's rule unit tests)", () => {
  expect(promtool(['test', 'rules', path.join(OPS_DIR, 'prometheus', 'alerts.test.yml')])).toMatch(/SUCCESS/);
});

test('the alerts cover the review queue, provider errors, worker polling, callback verification and merchant webhooks', () => {
  const rules = alertRules().groups.flatMap((group) => group.rules);
  expect(rules.map((rule) => rule.alert).sort()).toEqual([
    'CallbacksFailingVerification',
    'MerchantWebhooksFailing',
    'NoWorkerPolling',
    'PayoutReviewQueueGrowing',
    'ProviderErrorRateHigh',
  ]);
  for (const rule of rules) {
    expect(rule.labels?.severity).toMatch(/^(warning|critical)$/);
    expect(rule.annotations?.summary).toBeDefined();
  }
});

test('every expression is balanced PromQL over at least one engine or SDK metric', () => {
  for (const expression of opsExpressions()) {
    let depth = 0;
    for (const char of expression.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
      if ('([{'.includes(char)) depth += 1;
      if (')]}'.includes(char)) depth -= 1;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
    expect(expression).toMatch(/\b(payout_engine_|temporal_)[a-z0-9_]+/);
    // Counters are read as rates, never as raw totals that reset with each process.
    for (const counter of expression.match(/\bpayout_engine_\w+_total\b(\{[^}]*\})?/g) ?? []) {
      expect(expression).toMatch(new RegExp(`(rate|increase)\\(${counter.replace(/[{}"|=~!]/g, '.')}\\[`));
    }
  }
});

test("Prometheus scrapes the API's and each worker's metrics ports (the API's never its public port) and loads the alerts", () => {
  const config = parse(readFileSync(PROMETHEUS_PATH, 'utf8')) as {
    rule_files: string[];
    scrape_configs: {
      job_name: string;
      static_configs?: { targets: string[] }[];
      dns_sd_configs?: { names: string[]; type: string; port: number }[];
    }[];
  };
  expect(config.rule_files).toEqual(['alerts.yml']);
  const targets = Object.fromEntries(
    config.scrape_configs.map((job) => [
      job.job_name,
      [
        ...(job.static_configs ?? []).flatMap((group) => group.targets),
        ...(job.dns_sd_configs ?? []).flatMap((group) =>
          group.names.map((name) => `every ${group.type} of ${name}:${group.port}`),
        ),
      ],
    ]),
  );
  // The workers run as several replicas behind one name: each address it resolves to is a target of its own.
  expect(targets).toEqual({
    'engine-api': [`api:${envSchema.shape.METRICS_PORT.parse(undefined)}`],
    'engine-worker': [`every A of worker:${envSchema.shape.WORKER_METRICS_PORT.parse(undefined)}`],
  });
});

test('the Grafana dashboard shows throughput, latency, provider errors, the review queue and callbacks, on the provisioned data source', () => {
  const board = dashboard();
  const titles = board.panels.filter((panel) => panel.type === 'row').map((panel) => panel.title);
  expect(titles).toEqual(
    expect.arrayContaining(['Throughput', 'Latency', 'Provider errors', 'Review queue', 'Callbacks']),
  );
  const datasource = parse(
    readFileSync(path.join(OPS_DIR, 'grafana', 'provisioning', 'datasources', 'prometheus.yml'), 'utf8'),
  ) as { datasources: { uid: string; url: string }[] };
  expect(datasource.datasources[0]).toMatchObject({ uid: 'prometheus', url: 'http://prometheus:9090' });
  for (const panel of board.panels.filter((panel) => panel.type !== 'row')) {
    expect(panel.datasource).toEqual({ type: 'prometheus', uid: 'prometheus' });
    expect(panel.targets?.length).toBeGreaterThan(0);
  }
  const provider = parse(
    readFileSync(path.join(OPS_DIR, 'grafana', 'provisioning', 'dashboards', 'payouts.yml'), 'utf8'),
  ) as { providers: { options: { path: string } }[] };
  expect(provider.providers[0]?.options.path).toBe('/var/lib/grafana/dashboards');
});

test('the files name the engine metrics they are about', () => {
  expect(opsMetricNames()).toEqual(
    expect.arrayContaining([
      'payout_engine_operations_finished_total',
      'payout_engine_operation_duration_seconds_bucket',
      'payout_engine_provider_calls_total',
      'payout_engine_payouts_needs_review',
      'payout_engine_callbacks_received_total',
      'temporal_num_pollers',
    ]),
  );
});
