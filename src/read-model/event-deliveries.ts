/**
 * Merchant events' deliveries in the read model (columns of `operation_events`): written when an event is
 * handed to its endpoints (PENDING) and by its delivery workflow as the deliveries move, so that
 * `GET /v1/events` answers from the engine's database. Each write carries the time of the move it shows; a
 * write never replaces a later one (a retried local activity, the announcer's write after the workflow's).
 * Events no endpoint subscribed to have no status and are not listed: nothing was delivered.
 */
import { z } from 'zod';
import type { SqlDialect, SqlRunner } from '../db/sql';
import {
  ENDPOINT_DELIVERY_STATES,
  EVENT_DELIVERY_STATES,
  attemptsOf,
  type EndpointDelivery,
  type EventDeliveryState,
} from '../contracts/merchant-event';
import { merchantEventTypeSchema, type MerchantEvent, type MerchantEventType } from '../merchant-events/merchant-event';
import { SqlFilter, sqlInteger } from './sql-filter';

/** One write: where the event's delivery stands at `at` (RFC 3339, the move's time). */
export interface EventDeliveryRecord {
  eventId: string;
  state: EventDeliveryState;
  deliveries: EndpointDelivery[];
  at: string;
  /**
   * The announcer's first write: only where no delivery is recorded yet. An announcement made again (a reset, a
   * lost workflow task) comes later in time than the delivery it started, whose workflow will not write again.
   */
  first?: true;
}

export interface StoredEventDelivery {
  event: MerchantEvent;
  state: EventDeliveryState;
  deliveries: EndpointDelivery[];
}

export interface EventListFilter {
  type?: MerchantEventType;
  /** The last row of the previous page: this page starts after it (newest first). */
  after?: { createdAt: Date; id: string };
  limit: number;
}

export interface ListedEvent {
  id: string;
  type: MerchantEventType;
  createdAt: Date;
  state: EventDeliveryState;
  attempts: number;
}

export interface EventPage {
  events: ListedEvent[];
  next?: { createdAt: Date; id: string };
}

const deliveriesSchema = z.array(
  z.object({
    endpointId: z.string(),
    state: z.enum(ENDPOINT_DELIVERY_STATES),
    attempts: z.array(
      z.object({
        number: z.number().int(),
        at: z.string(),
        outcome: z.enum(['delivered', 'failed']),
        httpStatus: z.number().int().optional(),
        error: z.string().optional(),
        durationMs: z.number().int(),
      }),
    ),
    nextAttemptAt: z.string().optional(),
  }),
);

const SET_DELIVERY = 'UPDATE operation_events SET status = $2, attempts = $3, deliveries = $4, delivery_at = $5';
const RECORD_DELIVERY = `${SET_DELIVERY} WHERE event_id = $1 AND (delivery_at IS NULL OR delivery_at <= $5)`;
const RECORD_FIRST_DELIVERY = `${SET_DELIVERY} WHERE event_id = $1 AND delivery_at IS NULL`;

export async function recordDelivery(sql: SqlRunner, dialect: SqlDialect, record: EventDeliveryRecord): Promise<void> {
  await sql.query(record.first ? RECORD_FIRST_DELIVERY : RECORD_DELIVERY, [
    record.eventId,
    record.state,
    attemptsOf(record.deliveries),
    JSON.stringify(record.deliveries),
    dialect.timeParam(new Date(record.at)),
  ]);
}

const listRowSchema = z.object({
  event_id: z.string(),
  type: merchantEventTypeSchema,
  occurred_at: z.unknown(),
  status: z.enum(EVENT_DELIVERY_STATES),
  attempts: sqlInteger,
});

export async function eventPage(sql: SqlRunner, dialect: SqlDialect, filter: EventListFilter): Promise<EventPage> {
  const where = new SqlFilter();
  where.where(() => 'status IS NOT NULL');
  if (filter.type) where.where((p) => `type = ${p}`, filter.type);
  if (filter.after)
    where.where((p) => `(occurred_at, event_id) < (${p})`, dialect.timeParam(filter.after.createdAt), filter.after.id);
  const limit = where.param(filter.limit + 1);
  const text = `SELECT event_id, type, occurred_at, status, attempts FROM operation_events${where.text()} ORDER BY occurred_at DESC, event_id DESC LIMIT ${limit}`;
  const rows = (await sql.query(text, where.params)).rows.map((row): ListedEvent => {
    const parsed = listRowSchema.parse(row);
    return {
      id: parsed.event_id,
      type: parsed.type,
      createdAt: dialect.timeOf(parsed.occurred_at),
      state: parsed.status,
      attempts: parsed.attempts,
    };
  });
  const events = rows.slice(0, filter.limit);
  const last = events.at(-1);
  return {
    events,
    ...(rows.length > filter.limit && last ? { next: { createdAt: last.createdAt, id: last.id } } : {}),
  };
}

const eventRowSchema = z.object({
  event_id: z.string(),
  type: merchantEventTypeSchema,
  occurred_at: z.unknown(),
  data: z.string(),
  status: z.enum(EVENT_DELIVERY_STATES),
  deliveries: z.string(),
});

/** The event with its deliveries; undefined when none was handed to an endpoint (or it is not known). */
export async function findDelivery(
  sql: SqlRunner,
  dialect: SqlDialect,
  eventId: string,
): Promise<StoredEventDelivery | undefined> {
  const row = (
    await sql.query(
      'SELECT event_id, type, occurred_at, data, status, deliveries FROM operation_events WHERE event_id = $1 AND status IS NOT NULL',
      [eventId],
    )
  ).rows[0];
  if (row === undefined) return undefined;
  const parsed = eventRowSchema.parse(row);
  return {
    event: {
      id: parsed.event_id,
      type: parsed.type,
      createdAt: dialect.timeOf(parsed.occurred_at).toISOString(),
      data: z.record(z.string(), z.unknown()).parse(JSON.parse(parsed.data)),
    },
    state: parsed.status,
    deliveries: deliveriesSchema.parse(JSON.parse(parsed.deliveries)),
  };
}
