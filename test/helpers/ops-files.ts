/** The monitoring files of ops/ as data: the alert rules, the dashboard, and every metric name they use. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

export const OPS_DIR = path.join(__dirname, '..', '..', 'ops');
export const ALERTS_PATH = path.join(OPS_DIR, 'prometheus', 'alerts.yml');
export const PROMETHEUS_PATH = path.join(OPS_DIR, 'prometheus', 'prometheus.yml');
export const DASHBOARD_PATH = path.join(OPS_DIR, 'grafana', 'payouts.json');

const durationSchema = z.string().regex(/^(\d+(ms|s|m|h|d|w|y))+$/, 'a Prometheus duration');

/** Prometheus 2.x rule file format (alerting rules only: the engine has no recording rules). */
export const alertRulesSchema = z.strictObject({
  groups: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        interval: durationSchema.optional(),
        rules: z
          .array(
            z.strictObject({
              alert: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
              expr: z.string().min(1),
              for: durationSchema.optional(),
              labels: z.record(z.string(), z.string()).optional(),
              annotations: z.record(z.string(), z.string()).optional(),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
});

const targetSchema = z.looseObject({ refId: z.string(), expr: z.string().min(1) });
const panelSchema = z.looseObject({
  id: z.number().int(),
  type: z.string(),
  title: z.string().min(1),
  gridPos: z.looseObject({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }),
  targets: z.array(targetSchema).optional(),
});
export const dashboardSchema = z.looseObject({
  uid: z.string().min(1),
  title: z.string().min(1),
  panels: z.array(panelSchema).min(1),
});

export function alertRules(): z.output<typeof alertRulesSchema> {
  return alertRulesSchema.parse(parse(readFileSync(ALERTS_PATH, 'utf8')));
}

export function dashboard(): z.output<typeof dashboardSchema> {
  return dashboardSchema.parse(JSON.parse(readFileSync(DASHBOARD_PATH, 'utf8')));
}

export function opsExpressions(): string[] {
  const rules = alertRules().groups.flatMap((group) => group.rules.map((rule) => rule.expr));
  const panels = dashboard().panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
  return [...rules, ...panels];
}

/** The engine's and the SDK's metric names an expression reads (Prometheus' own, like `up`, are not ours to export). */
export function metricNamesIn(expression: string): string[] {
  return [...expression.matchAll(/\b(payout_engine_[a-z0-9_]+|temporal_[a-z0-9_]+)\b/g)].map(
    (match) => match[1] as string,
  );
}

export function opsMetricNames(): string[] {
  return [...new Set(opsExpressions().flatMap(metricNamesIn))].sort();
}
