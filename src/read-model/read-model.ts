/**
 * The read model's operations: what the activities write as operations move, and what the API reads
 * (lists, sums, a payout once its workflow is gone, an operation's events). Written once over a SQL
 * runner in sql-read-model.ts; the payout's own shapes are in payout-records.ts.
 */
import type { PayoutView } from '../lifecycles/payout-client';
import type { PayoutState } from '../payouts/payout-state';
import type { PayoutMethod } from '../payouts/rails/methods';
import type { Announcement } from '../merchant-events/announce';
import type { OperationKind, OperationRecord } from './operation-records';
import type { PayoutRecord } from './payout-records';
import type { EventDeliveryRecord, EventListFilter, EventPage, StoredEventDelivery } from './event-deliveries';

export interface PayoutListFilter {
  status?: PayoutState;
  method?: PayoutMethod;
  batchId?: string;
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
  /** The last row of the previous page: this page starts after it (newest first). */
  after?: PayoutPosition;
  limit: number;
}

/** A row's place in the list's order: (createdAt, externalId), both descending. */
export interface PayoutPosition {
  createdAt: Date;
  externalId: string;
}

export interface StoredPayout {
  view: PayoutView;
  keyType?: string;
  /** The masked PIX key. */
  destination?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface PayoutPage {
  payouts: StoredPayout[];
  /** Where the next page starts; absent on the last page. */
  next?: PayoutPosition;
}

/** Counts and sums (integer centavos) of payouts of one status and rail. */
export interface PayoutTotals {
  status: PayoutState;
  method: PayoutMethod;
  count: number;
  amountCents: number;
  feeCents: number;
}

export interface StoredEvent {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** A charge, card payment or infraction list: one kind, newest first by (createdAt, id). */
export interface OperationListFilter {
  kind: OperationKind;
  status?: string;
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
  /** Infractions whose defense deadline is before it. */
  dueBefore?: Date;
  /** The last row of the previous page: this page starts after it. */
  after?: ListPosition;
  limit: number;
}

/** A row's place in a list's order: (createdAt, id), both descending. */
export interface ListPosition {
  createdAt: Date;
  id: string;
}

export interface StoredOperation {
  id: string;
  status: string;
  amountCents?: number;
  deadline?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface OperationPage {
  operations: StoredOperation[];
  next?: ListPosition;
}

export interface ReadModel {
  /** Idempotent: kept unless a row of a later transition (higher seq) is there already. */
  recordPayout(record: PayoutRecord, at?: Date): Promise<void>;
  recordPayouts(records: readonly PayoutRecord[], at?: Date): Promise<void>;
  /** Idempotent: kept unless a row of a later transition (higher seq) is there already. */
  recordOperation(record: OperationRecord, at?: Date): Promise<void>;
  listOperations(filter: OperationListFilter): Promise<OperationPage>;
  /** One operation's row; `detail` as stored (JSON), for its kind's schema to read. */
  findOperation(kind: OperationKind, id: string): Promise<(StoredOperation & { detail?: unknown }) | undefined>;
  /** Idempotent by the event's id. */
  recordEvent(eventId: string, announcement: Announcement): Promise<void>;
  /** Where an event's delivery stands; kept unless a later move's row is there already. */
  recordDelivery(record: EventDeliveryRecord): Promise<void>;
  /** Events handed to endpoints, newest first by (createdAt, id). */
  listEvents(filter: EventListFilter): Promise<EventPage>;
  findEvent(eventId: string): Promise<StoredEventDelivery | undefined>;
  findPayout(externalId: string): Promise<StoredPayout | undefined>;
  listPayouts(filter: PayoutListFilter): Promise<PayoutPage>;
  /** Payouts created in [from, to), grouped by status and rail. */
  payoutTotals(from: Date, to: Date): Promise<PayoutTotals[]>;
  /** The events announced about an operation (its workflow id), in the order of its moves. */
  eventsOf(sourceId: string): Promise<StoredEvent[]>;
  close(): Promise<void>;
}
