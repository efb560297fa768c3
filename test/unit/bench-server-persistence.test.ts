import { parsePersistenceCounters, persistencePerWorkflow } from '../../tools/bench/server-persistence';

/** A series' labels as the Temporal dev server writes them on --metrics-port: one series per operation and service. */
const of = (operation: string, service = 'history', more = '', namespace = 'default') =>
  `{namespace="${namespace}",operation="${operation}",service_name="${service}"${more}}`;
const VISIBILITY = ',visibility_type="standard_visibility"';

// Each series with its value in the scrape before a phase and in the one after it (null: not exposed in that one).
const SERIES: [series: string, before: number | null, after: number | null][] = [
  [`persistence_requests${of('UpdateWorkflowExecution')}`, 100, 500],
  [`persistence_requests${of('UpdateWorkflowExecution', 'frontend', '', '_unknown_')}`, null, 8],
  [`persistence_requests${of('CreateTasks', 'matching')}`, 10, 110],
  [`persistence_requests${of('GetWorkflowExecution')}`, null, 100],
  [`persistence_latency_sum${of('UpdateWorkflowExecution')}`, 0.5, 2.5],
  [`persistence_latency_sum${of('CreateTasks', 'matching')}`, 0.1, 0.3],
  [`persistence_latency_sum${of('GetWorkflowExecution')}`, null, 1.5],
  [`persistence_latency_bucket${of('CreateTasks', 'matching', ',le="0.001"')}`, 3, null],
  [`visibility_persistence_requests${of('UpsertWorkflowExecution', 'history', VISIBILITY)}`, 40, 340],
  [`visibility_persistence_latency_sum${of('UpsertWorkflowExecution', 'history', VISIBILITY)}`, 0.2, 1.7],
];

/** One scrape's text: a line per series exposed in it, `name{labels} value`. */
const scrape = (at: 1 | 2): string =>
  SERIES.flatMap((series) => (series[at] === null ? [] : [`${series[0]} ${series[at]}`])).join('\n');

const before = `# HELP persistence_requests persistence_requests counter
# TYPE persistence_requests counter
${scrape(1)}
`;
const after = `${scrape(2)}\n`;

test('the bench reports what the server store did per workflow of a phase: operations, their time, the slowest', () => {
  const perWorkflow = persistencePerWorkflow(parsePersistenceCounters(before), parsePersistenceCounters(after), 100);
  expect(perWorkflow).toEqual({
    // (508 - 100) + (110 - 10) + 100 operations over 100 workflows: the series of every service and namespace summed.
    operations: 6.1,
    operationMs: 37,
    updateWorkflowExecution: 4.08,
    visibilityOperations: 3,
    visibilityMs: 15,
    slowest: { UpdateWorkflowExecution: 20, GetWorkflowExecution: 15, CreateTasks: 2 },
    slowestCounts: { UpdateWorkflowExecution: 4.08, GetWorkflowExecution: 1, CreateTasks: 1 },
  });
});

test('histogram buckets and unrelated series are not counted as operations', () => {
  const counters = parsePersistenceCounters(before);
  expect(counters.requests).toEqual({ UpdateWorkflowExecution: 100, CreateTasks: 10 });
  expect(counters.seconds).toEqual({ UpdateWorkflowExecution: 0.5, CreateTasks: 0.1 });
});
