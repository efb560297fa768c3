/**
 * One page of workflows from Temporal's visibility, with an opaque cursor: the merchant events list
 * (src/api/merchant-events) reads what the delivery workflows index about themselves, never their payloads.
 */
import { createHash } from 'node:crypto';
import { isGrpcServiceError, type Client } from '@temporalio/client';
import { z } from 'zod';
import type { TypedSearchAttributes } from '@temporalio/common';
// The SDK decodes visibility's search attributes with this; it is not re-exported from the package root.
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { ApiError } from './errors';

const INVALID_ARGUMENT = 3;

export interface VisibleWorkflow {
  workflowId: string;
  /** Running, Completed, Failed, ... */
  executionStatus: string;
  searchAttributes: TypedSearchAttributes;
}

export interface VisibilityPage {
  workflows: VisibleWorkflow[];
  nextCursor?: string;
}

const STATUS_NAMES: Record<number, string> = {
  1: 'Running',
  2: 'Completed',
  3: 'Failed',
  4: 'Canceled',
  5: 'Terminated',
  6: 'ContinuedAsNew',
  7: 'TimedOut',
};

/** What a cursor looks like on the wire: base64url of a checksum and Temporal's page token. */
export const visibilityCursorSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,2048}$/, 'must be the nextCursor of a previous page');

const CHECKSUM_BYTES = 8;

function notACursor(): ApiError {
  return new ApiError(422, 'INVALID_CURSOR', 'The cursor is not one this API gave', [
    { path: 'cursor', message: 'must be the nextCursor of a previous page' },
  ]);
}

function checksum(token: Uint8Array): Buffer {
  return createHash('sha256').update(token).digest().subarray(0, CHECKSUM_BYTES);
}

function encodeCursor(token: Uint8Array): string {
  return Buffer.concat([checksum(token), token]).toString('base64url');
}

/** Temporal's token back, or a 422 for text this API did not give (never sent on to Temporal). */
function decodeCursor(cursor: string): Buffer {
  const bytes = Buffer.from(cursor, 'base64url');
  const token = bytes.subarray(CHECKSUM_BYTES);
  if (token.length === 0 || !checksum(token).equals(bytes.subarray(0, CHECKSUM_BYTES))) throw notACursor();
  return token;
}

export async function visibilityPage(
  client: Client,
  options: { query: string; pageSize: number; cursor?: string },
): Promise<VisibilityPage> {
  const nextPageToken = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  let response: Awaited<ReturnType<typeof client.workflowService.listWorkflowExecutions>>;
  try {
    response = await client.workflowService.listWorkflowExecutions({
      namespace: client.options.namespace,
      query: options.query,
      pageSize: options.pageSize,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
  } catch (error) {
    // Temporal refuses a page token it did not make: the merchant's cursor, not a server fault.
    if (nextPageToken && isGrpcServiceError(error) && Number(error.code) === INVALID_ARGUMENT) throw notACursor();
    throw error;
  }
  const workflows = (response.executions ?? []).map((execution) => ({
    workflowId: execution.execution?.workflowId ?? '',
    executionStatus: STATUS_NAMES[execution.status ?? 0] ?? 'Unknown',
    searchAttributes: decodeTypedSearchAttributes(execution.searchAttributes?.indexedFields),
  }));
  const token = response.nextPageToken;
  return { workflows, ...(token && token.length > 0 ? { nextCursor: encodeCursor(token) } : {}) };
}
