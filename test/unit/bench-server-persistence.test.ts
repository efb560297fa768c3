import { parsePersistenceCounters, persistencePerWorkflow } from '../../tools/bench/server-persistence';

// The shape the Temporal dev server exposes on --metrics-port: one series per operation and service.
const before = `
# HELP persistence_requests persistence_requests counter
# TYPE persistence_requests counter
persistence_requests{namespace="default",operation="UpdateWorkflowExecution",service_name="history"} 100
persistence_requests{namespace="default",operation="CreateTasks",service_name="matching"} 10
persistence_latency_sum{namespace="default",operation="UpdateWorkflowExecution",service_name="history"} 0.5
persistence_latency_sum{namespace="default",operation="CreateTasks",service_name="matching"} 0.1
persistence_latency_bucket{namespace="default",operation="CreateTasks",service_name="matching",le="0.001"} 3
visibility_persistence_requests{namespace="default",operation="UpsertWorkflowExecution",service_name="history",visibility_type="standard_visibility"} 40
visibility_persistence_latency_sum{namespace="default",operation="UpsertWorkflowExecution",service_name="history",visibility_type="standard_visibility"} 0.2
`;

const after = `
persistence_requests{namespace="default",operation="UpdateWorkflowExecution",service_name="history"} 500
persistence_requests{namespace="_unknown_",operation="UpdateWorkflowExecution",service_name="frontend"} 8
persistence_requests{namespace="default",operation="CreateTasks",service_name="matching"} 110
persistence_requests{namespace="default",operation="GetWorkflowExecution",service_name="history"} 100
persistence_latency_sum{namespace="default",operation="UpdateWorkflowExecution",service_name="history"} 2.5
persistence_latency_sum{namespace="default",operation="CreateTasks",service_name="matching"} 0.3
persistence_latency_sum{namespace="default",operation="GetWorkflowExecution",service_name="history"} 1.5
visibility_persistence_requests{namespace="default",operation="UpsertWorkflowExecution",service_name="history",visibility_type="standard_visibility"} 340
visibility_persistence_latency_sum{namespace="default",operation="UpsertWorkflowExecution",service_name="history",visibility_type="standard_visibility"} 1.7
`;

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
