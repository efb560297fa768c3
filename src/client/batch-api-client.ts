/**
 * The batch routes of the engine API from the outside, for the benchmark and the chaos run: every answer is
 * parsed with the schema the server builds it from, so a mismatch fails loudly here instead of measuring
 * nonsense. (The `payouts` CLI uses the client typed from the served document, engine-client.ts.)
 */
import { z } from 'zod';
import {
  batchAcceptedSchema,
  batchItemsResponseSchema,
  batchSummarySchema,
  type BatchAccepted,
  type BatchItemsResponse,
  type BatchSummaryResponse,
} from '../api/batches/schemas';
import { apiErrorBodySchema } from '../api/errors';
import { EngineApiError, EngineApiUnreachableError } from './api-errors';
import type { ItemState } from '../batches/batch-store';

// The benchmark and the chaos run name them so.
export { EngineApiError as BatchApiError, EngineApiUnreachableError as BatchApiUnreachableError };

export interface BatchApiClientOptions {
  baseUrl: string;
  apiKey: string;
}

export class BatchApiClient {
  private readonly baseUrl: string;

  constructor(private readonly options: BatchApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** Text is sent as UTF-8; a file's bytes as they are, without a charset: the engine reads UTF-8 or Windows-1252 from them. */
  submitCsv(csv: string | Uint8Array, batchId?: string): Promise<BatchAccepted> {
    const query = batchId === undefined ? '' : `?batchId=${encodeURIComponent(batchId)}`;
    return this.request(batchAcceptedSchema, 'POST', `/v1/payout-batches${query}`, { contentType: typeof csv === 'string' ? 'text/csv; charset=utf-8' : 'text/csv', body: csv });
  }

  /** `body` may come already serialized (the benchmark keeps the serialization out of what it times). */
  submitJson(body: { batchId?: string; items: unknown[] } | string): Promise<BatchAccepted> {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return this.request(batchAcceptedSchema, 'POST', '/v1/payout-batches', { contentType: 'application/json', body: text });
  }

  summary(batchId: string): Promise<BatchSummaryResponse> {
    return this.request(batchSummarySchema, 'GET', `/v1/payout-batches/${encodeURIComponent(batchId)}`);
  }

  items(batchId: string, query: { status?: ItemState; cursor?: string; limit?: number }): Promise<BatchItemsResponse> {
    const params = new URLSearchParams();
    if (query.status) params.set('status', query.status);
    if (query.cursor) params.set('cursor', query.cursor);
    if (query.limit) params.set('limit', String(query.limit));
    return this.request(batchItemsResponseSchema, 'GET', `/v1/payout-batches/${encodeURIComponent(batchId)}/items?${params.toString()}`);
  }

  private async request<S extends z.ZodType>(
    schema: S,
    method: 'GET' | 'POST',
    path: string,
    payload?: { contentType: string; body: string | Uint8Array },
  ): Promise<z.output<S>> {
    const url = `${this.baseUrl}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json', ...(payload ? { 'content-type': payload.contentType } : {}) },
        ...(payload ? { body: payload.body } : {}),
      });
    } catch (error) {
      throw new EngineApiUnreachableError(this.baseUrl, error);
    }
    const text = await response.text();
    const json = parseJson(text);
    if (!response.ok) {
      const error = apiErrorBodySchema.safeParse(json);
      throw new EngineApiError(
        response.status,
        error.success ? error.data : { code: `HTTP_${response.status}`, message: text.slice(0, 200) || response.statusText },
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new Error(`unexpected answer from ${method} ${path}: ${z.prettifyError(parsed.error)}`);
    }
    return parsed.data;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
