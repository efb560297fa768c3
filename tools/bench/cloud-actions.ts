/**
 * The Temporal Cloud actions a workflow's history bills, counted by Temporal's published rules
 * (https://docs.temporal.io/cloud/actions, read 2026-11-28). Each rule below quotes the page. What a history cannot
 * show is left out and said so: queries ("An Action occurs for every Query"), rejected updates ("never written to
 * history"), workflow task heartbeats, activity heartbeats; the bench sends none of those to a payout.
 */
import { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const EventType = temporal.api.enums.v1.EventType;

/** The TypeScript SDK's marker for a local activity's result (sdk-core); its patch markers are `core_patch`. */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';
/** "The TemporalChangeVersion Search Attribute, used for Workflow versioning, is also exempt from Action counting." */
const CHANGE_VERSION_ATTRIBUTE = 'TemporalChangeVersion';

/** The events that bill one action each, whatever they carry, by the kind they are counted under. */
const ONE_ACTION_EACH: ReadonlyMap<temporal.api.enums.v1.EventType, string> = new Map([
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_OPTIONS_UPDATED, 'workflowOptionsUpdated'],
  [EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, 'activity'],
  // "Includes implicit Timers ... condition in TypeScript" (a condition with a timeout).
  [EventType.EVENT_TYPE_TIMER_STARTED, 'timer'],
  // "An Action occurs for every Signal, whether sent from a Client or from a Workflow" (billed where it lands).
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, 'signal'],
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED, 'update'],
  [EventType.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED, 'nexus'],
  [EventType.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED, 'nexus'],
]);

export interface CloudActions {
  total: number;
  byKind: Record<string, number>;
}

export function cloudActions(events: readonly HistoryEvent[]): CloudActions {
  const byKind: Record<string, number> = {};
  const add = (kind: string, count = 1) => {
    if (count > 0) byKind[kind] = (byKind[kind] ?? 0) + count;
  };
  /** Workflow tasks whose local activity markers were billed already. */
  const localActivityTasks = new Set<string>();
  for (const event of events) {
    const oneAction = event.eventType == null ? undefined : ONE_ACTION_EACH.get(event.eventType);
    if (oneAction) {
      add(oneAction);
      continue;
    }
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
        // "Workflow started: client start, Continue-As-New, Child Workflow start"; a child's start is billed in its
        // parent, with the initiation below ("Results in two Actions").
        if (!event.workflowExecutionStartedEventAttributes?.parentWorkflowExecution) add('workflowStarted');
        break;
      case EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
        add('childWorkflowStarted', 2);
        break;
      case EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: {
        // "Each invocation of UpsertSearchAttributes command ... Multiple Search Attributes ... count as one Action";
        // "Search Attributes specified during Workflow start are excluded".
        const fields = Object.keys(
          event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {},
        );
        if (fields.some((field) => field !== CHANGE_VERSION_ATTRIBUTE)) add('searchAttributeUpsert');
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        // "Activity started or retried": the attempt number on this event, less the first attempt.
        add('activityRetry', (event.activityTaskStartedEventAttributes?.attempt ?? 1) - 1);
        break;
      case EventType.EVENT_TYPE_MARKER_RECORDED: {
        // "All Local Activities associated with one Workflow Task count as a single Action."
        const marker = event.markerRecordedEventAttributes;
        if (marker?.markerName !== LOCAL_ACTIVITY_MARKER) break;
        const task = String(marker.workflowTaskCompletedEventId ?? '');
        if (!localActivityTasks.has(task)) add('localActivities');
        localActivityTasks.add(task);
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        // "Retry Local Activity": metering_metadata.nonfirst_local_activity_execution_attempts on this event.
        add(
          'localActivityRetry',
          event.workflowTaskCompletedEventAttributes?.meteringMetadata?.nonfirstLocalActivityExecutionAttempts ?? 0,
        );
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED:
        if (
          event.workflowTaskFailedEventAttributes?.cause ===
          temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_WORKFLOW
        )
          add('reset');
        break;
      default:
        break;
    }
  }
  return { total: Object.values(byKind).reduce((sum, count) => sum + count, 0), byKind };
}
