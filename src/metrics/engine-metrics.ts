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

/** A counter in the engine's registry, under its prefix; `labelNames` only of bounded values. */
function engineCounter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return new Counter({ name: `${METRIC_PREFIX}${name}`, help, labelNames, registers: [engineRegistry] });
}

function engineHistogram<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: number[],
): Histogram<L> {
  return new Histogram({ name: `${METRIC_PREFIX}${name}`, help, labelNames, buckets, registers: [engineRegistry] });
}

/** Seconds, from a provider call (tens of ms) to an operation that waits for a review (hours). */
const CALL_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const OPERATION_BUCKETS = [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600];

export const operationsStarted = engineCounter('operations_started_total', 'Operations (workflows) started, by flow', [
  'flow',
]);

export const payoutStarts = engineCounter(
  'payout_starts_total',
  "Payout workflows this process started, by how their first workflow task reached a worker (eager: in the start's answer, to this process's worker)",
  ['first_task'],
);

export const operationsFinished = engineCounter(
  'operations_finished_total',
  'Operations (workflows) that reached their final state, by flow and state',
  ['flow', 'state'],
);

export const operationDuration = engineHistogram(
  'operation_duration_seconds',
  "Time from an operation's start to its final state, by flow",
  ['flow', 'state'],
  OPERATION_BUCKETS,
);

export const providerCalls = engineCounter(
  'provider_calls_total',
  'Requests to the payment provider, by endpoint and outcome (ok, client_error, server_error, timeout, connection, bad_response)',
  ['endpoint', 'outcome'],
);

export const providerCallDuration = engineHistogram(
  'provider_call_duration_seconds',
  'Latency of requests to the payment provider, by endpoint and outcome',
  ['endpoint', 'outcome'],
  CALL_BUCKETS,
);

export const callbacksReceived = engineCounter(
  'callbacks_received_total',
  'Provider callbacks received, by route and verification result (verified, unsigned: taken as an untrusted hint, rejected)',
  ['route', 'verification'],
);

export const callbacksUnmatched = engineCounter(
  'callbacks_unmatched_total',
  'Verified callbacks for an operation the engine does not know (kept for operators)',
  ['route'],
);

export const batchItemOutcomes = engineCounter(
  'batch_item_outcomes_total',
  'States reported by the payouts of batches (STARTED, then a final state), by state',
  ['state'],
);

export const webhookDeliveries = engineCounter(
  'webhook_deliveries_total',
  'Delivery attempts of merchant events, by outcome (delivered, http_error, no_answer, endpoint_deleted)',
  ['outcome'],
);

export const rateLimitedRequests = engineCounter(
  'rate_limited_requests_total',
  'Requests to the engine API refused with 429, by the limit that refused them',
  ['scope'],
);

export const activityProblems = engineCounter(
  'activity_problems_total',
  'Activities that kept failing past ACTIVITY_PROBLEM_AFTER_MS, as their workflows took the report, by flow and activity',
  ['flow', 'activity'],
);

export const payoutsNeedingReview = new Gauge({
  name: `${METRIC_PREFIX}payouts_needs_review`,
  help: 'Running payouts in NEEDS_REVIEW (a visibility count, refreshed periodically)',
  registers: [engineRegistry],
});

export const METRICS_CONTENT_TYPE = engineRegistry.contentType;
