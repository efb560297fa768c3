/** What tracing gives a process when it is on: shared by tracing.ts (the switch) and otel-sdk.ts (the SDK). */
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { Sink } from '@temporalio/workflow';

export type TracedService = 'payout-api' | 'payout-worker';

/** What a process wires when tracing is on: the SDK is started, spans leave by OTLP/HTTP. */
export interface Tracing {
  /** Starts, signals and updates carry the caller's span to the workflow (Temporal headers); starts record it in the memo (trace-links.ts). */
  workflowClientInterceptors: WorkflowClientInterceptor[];
  /** An activity's span, child of the workflow's, active while it runs (the provider call is its child). */
  activityInterceptors: ActivityInterceptorsFactory;
  /** The sink through which the workflow's spans leave the sandbox. */
  sinks: InjectedSinks<Record<string, Sink>>;
  /** Flushes what is buffered; the process is about to exit. */
  shutdown(): Promise<void>;
}
