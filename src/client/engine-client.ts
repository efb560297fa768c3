/**
 * The engine API's client typed from nothing but the served document: the types are the ones
 * openapi-typescript generates from `GET /openapi.json` (examples/engine-api.d.ts, which
 * test/openapi/generated-client.test.ts keeps equal to the served document), the calls made by
 * openapi-fetch. An error answer becomes EngineApiError with the API's error body; no answer at all,
 * EngineApiUnreachableError.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from '../../examples/engine-api';
import { apiErrorBodySchema } from '../api/errors';
import { EngineApiError, EngineApiUnreachableError } from './api-errors';

export { EngineApiError, EngineApiUnreachableError };

export type Payout = components['schemas']['Payout'];
export type PayoutList = components['schemas']['PayoutList'];
export type PayoutListItem = components['schemas']['PayoutListItem'];
export type PayoutEvents = components['schemas']['PayoutEvents'];
export type PayoutListQuery = NonNullable<operations['listPayouts']['parameters']['query']>;
export type BatchAccepted = components['schemas']['BatchAccepted'];
export type BatchSummary = operations['getBatch']['responses'][200]['content']['application/json'];
export type BatchItems = operations['listBatchItems']['responses'][200]['content']['application/json'];
export type BatchItemStatus = NonNullable<NonNullable<operations['listBatchItems']['parameters']['query']>['status']>;
type BatchRequest = NonNullable<operations['submitBatch']['requestBody']>['content']['application/json'];

export interface EngineClientOptions {
  baseUrl: string;
  apiKey: string;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export class EngineClient {
  private readonly api: Client<paths>;
  private readonly baseUrl: string;

  constructor(options: EngineClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.api = createClient<paths>({ baseUrl: this.baseUrl, headers: { authorization: `Bearer ${options.apiKey}` } });
  }

  /** Text is sent as UTF-8; a file's bytes as they are, without a charset: the engine reads UTF-8 or Windows-1252 from them (the document types JSON bodies only). */
  submitCsv(csv: string | Uint8Array, batchId?: string): Promise<BatchAccepted> {
    return this.answer(() =>
      this.api.POST('/v1/payout-batches', {
        // The bytes go as they are: a serializer that returns them untouched (openapi-fetch skips it for an absent body).
        body: csv as unknown as BatchRequest,
        bodySerializer: () => csv,
        querySerializer: () => (batchId === undefined ? '' : `batchId=${encodeURIComponent(batchId)}`),
        headers: { 'content-type': typeof csv === 'string' ? 'text/csv; charset=utf-8' : 'text/csv' },
      }),
    );
  }

  /** Items as a file holds them: the engine checks every one and names each bad row in its 422. Already serialized, it goes as it is (the benchmark keeps the serialization out of what it times). */
  submitJson(body: { batchId?: string; items: readonly unknown[] } | string): Promise<BatchAccepted> {
    if (typeof body !== 'string')
      return this.answer(() => this.api.POST('/v1/payout-batches', { body: body as BatchRequest }));
    return this.answer(() =>
      this.api.POST('/v1/payout-batches', { body: body as unknown as BatchRequest, bodySerializer: () => body }),
    );
  }

  batchSummary(batchId: string): Promise<BatchSummary> {
    return this.answer(() => this.api.GET('/v1/payout-batches/{batchId}', { params: { path: { batchId } } }));
  }

  /** One page of a batch's items, in `status` or all of them. */
  batchItems(
    batchId: string,
    query: { status?: BatchItemStatus; cursor?: string; limit?: number },
  ): Promise<BatchItems> {
    return this.answer(() =>
      this.api.GET('/v1/payout-batches/{batchId}/items', { params: { path: { batchId }, query } }),
    );
  }

  /** Every item in `status`, following nextCursor to the end. */
  async *allItems(
    batchId: string,
    status: BatchItemStatus,
    pageSize = 1_000,
  ): AsyncGenerator<BatchItems['items'][number]> {
    let cursor: string | undefined;
    do {
      const page = await this.batchItems(batchId, { status, limit: pageSize, ...(cursor ? { cursor } : {}) });
      yield* page.items;
      cursor = page.nextCursor;
    } while (cursor);
  }

  getPayout(externalId: string): Promise<Payout> {
    return this.answer(() => this.api.GET('/v1/payouts/{externalId}', { params: { path: { externalId } } }));
  }

  listPayouts(query: PayoutListQuery): Promise<PayoutList> {
    return this.answer(() => this.api.GET('/v1/payouts', { params: { query } }));
  }

  payoutEvents(externalId: string): Promise<PayoutEvents> {
    return this.answer(() => this.api.GET('/v1/payouts/{externalId}/events', { params: { path: { externalId } } }));
  }

  /** `POST /v1/payouts/:id/recheck`: asks the provider again, or re-runs a payout whose workflow closed unfinished. */
  recheckPayout(externalId: string): Promise<Payout> {
    return this.answer(() => this.api.POST('/v1/payouts/{externalId}/recheck', { params: { path: { externalId } } }));
  }

  private async answer<T>(call: () => Promise<Answer<T>>): Promise<T> {
    let answer: Answer<T>;
    try {
      answer = await call();
    } catch (error) {
      throw new EngineApiUnreachableError(this.baseUrl, error);
    }
    const { response } = answer;
    if (response.ok && answer.data !== undefined) return answer.data;
    const body = apiErrorBodySchema.safeParse(answer.error);
    const text = typeof answer.error === 'string' ? answer.error : '';
    throw new EngineApiError(
      response.status,
      body.success
        ? body.data
        : { code: `HTTP_${response.status}`, message: text.slice(0, 200) || response.statusText },
    );
  }
}
