/**
 * What a Temporal server of our own needs before the engine runs on it (the dev server does it from its
 * flags): the namespace, with its retention, and the engine's search attributes. Each step is idempotent,
 * so it runs at every start. docker-compose.yml does the same with the CLI (its temporal-namespace
 * service), with the same retention: test/cluster checks they agree.
 */
import type { Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { pollUntil } from '../util/poll';
import { ENGINE_SEARCH_ATTRIBUTES } from './search-attributes';

/**
 * How long Temporal keeps a closed workflow: its history, its id (a duplicate `payout:<externalId>` finds
 * it), its merchant events. Past it the provider's `external_id` check is what refuses a duplicate.
 */
export const NAMESPACE_RETENTION_DAYS = 30;

const IndexedValueType = temporal.api.enums.v1.IndexedValueType;
/** Each attribute type: what registering an attribute of it names, and a value a query may compare it with. */
const TYPES: Record<SearchAttributeType, { indexed: temporal.api.enums.v1.IndexedValueType; literal: string }> = {
  [SearchAttributeType.TEXT]: { indexed: IndexedValueType.INDEXED_VALUE_TYPE_TEXT, literal: "'probe'" },
  [SearchAttributeType.KEYWORD]: { indexed: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD, literal: "'probe'" },
  [SearchAttributeType.INT]: { indexed: IndexedValueType.INDEXED_VALUE_TYPE_INT, literal: '0' },
  [SearchAttributeType.DOUBLE]: { indexed: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE, literal: '0' },
  [SearchAttributeType.BOOL]: { indexed: IndexedValueType.INDEXED_VALUE_TYPE_BOOL, literal: 'false' },
  [SearchAttributeType.DATETIME]: {
    indexed: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
    literal: "'2000-01-01T00:00:00Z'",
  },
  [SearchAttributeType.KEYWORD_LIST]: { indexed: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST, literal: "'probe'" },
};

/** A visibility query naming every engine attribute: the frontend refuses it while any is unknown to it. */
export const everyAttributeQuery = (): string =>
  ENGINE_SEARCH_ATTRIBUTES.map((key) => `${key.name} = ${TYPES[key.type].literal}`).join(' AND ');

const ALREADY_EXISTS = 6;

function alreadyExists(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === ALREADY_EXISTS;
}

/**
 * Registers the namespace and the attributes, then waits until a query naming them all is accepted. With
 * SQL visibility an attribute is an alias in the namespace's record, which every service of the server
 * reads again every 2 s (`system.namespaceCacheRefreshInterval`); a workflow started before its service
 * saw them would fail its first task and be retried.
 */
export async function prepareNamespace(connection: Connection, namespace: string, timeoutMs = 120_000): Promise<void> {
  // Each step is retried alone: the server may still be starting, and a namespace is seen by its services a moment after it is registered.
  const step = (description: string, work: () => Promise<unknown>) =>
    pollUntil(
      async () => {
        await work();
        return true;
      },
      { timeoutMs, intervalMs: 500, description: `${description} (namespace ${namespace})` },
    );
  await step('the namespace', async () => {
    try {
      await connection.workflowService.registerNamespace({
        namespace,
        workflowExecutionRetentionPeriod: msToTs(`${NAMESPACE_RETENTION_DAYS} days`),
      });
    } catch (error) {
      if (!alreadyExists(error)) throw error;
    }
  });
  await step("the engine's search attributes", () =>
    connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(ENGINE_SEARCH_ATTRIBUTES.map((key) => [key.name, TYPES[key.type].indexed])),
    }),
  );
  await step("the engine's search attributes to be usable", () =>
    connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1, query: everyAttributeQuery() }),
  );
}
