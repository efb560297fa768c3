/**
 * The engine's own Prometheus metrics, all in one registry so the API's and the worker's `/metrics`
 * export the same names (each process its own values). Labels take only bounded values: flows, states,
 * endpoint names, route paths; never ids, keys or amounts. Workflow code never reaches this module:
 * operations are counted by the worker through a sink (src/worker/operation-sinks.ts).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const METRIC_PREFIX = 'payout_engine_';

export const engineRegistry = new Registry();
collectDefaultMetrics({ register: engineRegistry, prefix: METRIC_PREFIX });

/** Seconds, from a provider call (tens of ms) to an operation that waits for a review (hours). */
const CALL_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const OPERATION_BUCKETS = [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600];

export const operationsStarted = new Counter({
  name: `${METRIC_PREFIX}operations_started_total`,
  help: 'Operations (workflows) started, by flow',
  labelNames: ['flow'] as const,
  registers: [engineRegistry],
});

export const operationsFinished = new Counter({
  name: `${METRIC_PREFIX}operations_finished_total`,
  help: 'Operations (workflows) that reached their final state, by flow and state',
  labelNames: ['flow', 'state'] as const,
  registers: [engineRegistry],
});

export const operationDuration = new Histogram({
  name: `${METRIC_PREFIX}operation_duration_seconds`,
  help: "Time from an operation's start to its final state, by flow",
  labelNames: ['flow', 'state'] as const,
  buckets: OPERATION_BUCKETS,
  registers: [engineRegistry],
});

export const providerCalls = new Counter({
  name: `${METRIC_PREFIX}provider_calls_total`,
  help: 'Requests to the payment provider, by endpoint and outcome (ok, client_error, server_error, timeout, connection, bad_response)',
  labelNames: ['endpoint', 'outcome'] as const,
  registers: [engineRegistry],
});

export const providerCallDuration = new Histogram({
  name: `${METRIC_PREFIX}provider_call_duration_seconds`,
  help: 'Latency of requests to the payment provider, by endpoint and outcome',
  labelNames: ['endpoint', 'outcome'] as const,
  buckets: CALL_BUCKETS,
  registers: [engineRegistry],
});

export const callbacksReceived = new Counter({
  name: `${METRIC_PREFIX}callbacks_received_total`,
  help: 'Provider callbacks received, by route and verification result (verified, unsigned: taken as an untrusted hint, rejected)',
  labelNames: ['route', 'verification'] as const,
  registers: [engineRegistry],
});

export const callbacksUnmatched = new Counter({
  name: `${METRIC_PREFIX}callbacks_unmatched_total`,
  help: 'Verified callbacks for an operation the engine does not know (kept for operators)',
  labelNames: ['route'] as const,
  registers: [engineRegistry],
});

export const batchItemOutcomes = new Counter({
  name: `${METRIC_PREFIX}batch_item_outcomes_total`,
  help: 'States reported by the payouts of batches (STARTED, then a final state), by state',
  labelNames: ['state'] as const,
  registers: [engineRegistry],
});

export const webhookDeliveries = new Counter({
  name: `${METRIC_PREFIX}webhook_deliveries_total`,
  help: 'Delivery attempts of merchant events, by outcome (delivered, http_error, no_answer, endpoint_deleted)',
  labelNames: ['outcome'] as const,
  registers: [engineRegistry],
});

export const rateLimitedRequests = new Counter({
  name: `${METRIC_PREFIX}rate_limited_requests_total`,
  help: 'Requests to the engine API refused with 429, by the limit that refused them',
  labelNames: ['scope'] as const,
  registers: [engineRegistry],
});

export const activityProblems = new Counter({
  name: `${METRIC_PREFIX}activity_problems_total`,
  help: 'Activities that kept failing past ACTIVITY_PROBLEM_AFTER_MS, as their workflows took the report, by flow and activity',
  labelNames: ['flow', 'activity'] as const,
  registers: [engineRegistry],
});

export const payoutsNeedingReview = new Gauge({
  name: `${METRIC_PREFIX}payouts_needs_review`,
  help: 'Running payouts in NEEDS_REVIEW (a visibility count, refreshed periodically)',
  registers: [engineRegistry],
});

export const METRICS_CONTENT_TYPE = engineRegistry.contentType;
