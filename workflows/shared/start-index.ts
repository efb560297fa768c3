/**
 * Whether the start request already indexed this run under its flow: the engine starts each lifecycle with its
 * Flow search attribute set. A run started otherwise (or by an engine from before it did so) indexes itself.
 * Read from the start event, so a replay takes the same path.
 */
import { workflowInfo } from '@temporalio/workflow';
import { Flow } from '../../src/temporal/search-attributes';

export function indexedAtStart(flow: string): boolean {
  return workflowInfo().typedSearchAttributes.get(Flow) === flow;
}
