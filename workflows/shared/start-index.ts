/**
 * A lifecycle indexed under its flow: the engine starts each lifecycle with its Flow search attribute (and the
 * attributes it is filtered by) set. A run started otherwise (or by an engine from before it did so) indexes itself:
 * its state, then its flow and attributes. Read from the start event, so a replay takes the same path.
 */
import type { SearchAttributes } from '@temporalio/common';
import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { Flow } from '../../src/temporal/search-attributes';
import { Lifecycle, type LifecycleOptions } from './lifecycle';

export function indexedLifecycle<S extends string>(
  options: Omit<LifecycleOptions<S>, 'initialIndexed'>,
  flow: string,
  attributes: SearchAttributes,
): Lifecycle<S> {
  const indexed = workflowInfo().typedSearchAttributes.get(Flow) === flow;
  const lifecycle = new Lifecycle({ ...options, initialIndexed: indexed });
  if (!indexed) upsertSearchAttributes({ [Flow.name]: [flow], ...attributes });
  return lifecycle;
}
