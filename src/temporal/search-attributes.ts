/**
 * The typed search attributes the engine upserts. They are stored unencrypted in the visibility
 * store, so none of them may carry personal data: no CPF, PIX key, name or e-mail; only states,
 * flows, business ids that the merchant chose as opaque, and amounts.
 * Imported by workflows too: this module must stay free of I/O.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * The convention every lifecycle follows: `PayoutFlow` says which flow a workflow is (every workflow of
 * the engine sets it: `pix-withdrawal`, `payout-batch`, ...), one state attribute per lifecycle carries
 * its state (`PayoutStatus`, `BatchStatus`), and `AmountCents` its amount where it moves money.
 */
/** Every lifecycle's, not only payouts': `PayoutFlow` is its name in Temporal (open histories, saved queries), which stays. */
export const Flow = defineSearchAttributeKey('PayoutFlow', SearchAttributeType.KEYWORD);
/** A payout's state: RECEIVED, SUBMITTED, COMPLETED, FAILED, CANCELLED, NEEDS_REVIEW. */
export const PayoutStatus = defineSearchAttributeKey('PayoutStatus', SearchAttributeType.KEYWORD);
/** A batch's state: RUNNING, PAUSED, CANCELLED, DONE. */
export const BatchStatus = defineSearchAttributeKey('BatchStatus', SearchAttributeType.KEYWORD);
/** An infraction's state: OPEN, DUE_SOON, DEFENSE_SUBMITTED, DEADLINE_MISSED, ACCEPTED, REJECTED, CANCELLED. */
export const InfractionStatus = defineSearchAttributeKey('InfractionStatus', SearchAttributeType.KEYWORD);
/** When an infraction's defense is due: lists what is due this week. */
export const InfractionDueAt = defineSearchAttributeKey('InfractionDueAt', SearchAttributeType.DATETIME);
/** A charge's (PIX cash-in) state: PENDING, PAID, EXPIRED, FAILED, REFUNDED, PARTIALLY_REFUNDED. */
export const ChargeStatus = defineSearchAttributeKey('ChargeStatus', SearchAttributeType.KEYWORD);
/** A card payment's state: AWAITING_CARD, AUTHORIZING, PENDING, PAID, FAILED, EXPIRED, NEEDS_REVIEW. */
export const CardPaymentStatus = defineSearchAttributeKey('CardPaymentStatus', SearchAttributeType.KEYWORD);
/** The provider's id of the operation (a cash-in's transactionId): how an infraction finds the charge it is about. */
export const ProviderTransactionId = defineSearchAttributeKey('ProviderTransactionId', SearchAttributeType.KEYWORD);
/** The batch a payout belongs to, when it came in one. */
export const BatchId = defineSearchAttributeKey('BatchId', SearchAttributeType.KEYWORD);
/** A merchant event's type (payout.completed, ...): `GET /v1/events?type=` filters on it. */
export const WebhookEventType = defineSearchAttributeKey('WebhookEventType', SearchAttributeType.KEYWORD);
/** Where a merchant event's delivery stands: PENDING, DELIVERED, FAILED, CANCELLED. */
export const WebhookDeliveryStatus = defineSearchAttributeKey('WebhookDeliveryStatus', SearchAttributeType.KEYWORD);
/** When the operation reached the state a merchant event announces. */
export const WebhookEventAt = defineSearchAttributeKey('WebhookEventAt', SearchAttributeType.DATETIME);
/** Delivery attempts a merchant event has made, over all its endpoints. */
export const WebhookAttempts = defineSearchAttributeKey('WebhookAttempts', SearchAttributeType.INT);
/**
 * Set on any workflow while one of its activities keeps failing: when that activity was first scheduled.
 * A Datetime, since the SQL visibility store's 10 Keyword attributes are all in use; removed once it ends.
 */
export const ActivityProblemSince = defineSearchAttributeKey('ActivityProblemSince', SearchAttributeType.DATETIME);
/** The amount in integer centavos. */
export const AmountCents = defineSearchAttributeKey('AmountCents', SearchAttributeType.INT);

export const ENGINE_SEARCH_ATTRIBUTES = [
  Flow,
  PayoutStatus,
  BatchStatus,
  InfractionStatus,
  InfractionDueAt,
  ChargeStatus,
  CardPaymentStatus,
  ProviderTransactionId,
  BatchId,
  AmountCents,
  WebhookEventType,
  WebhookDeliveryStatus,
  WebhookEventAt,
  WebhookAttempts,
  ActivityProblemSince,
] as const;

const CLI_TYPE_NAMES: Record<SearchAttributeType, string> = {
  [SearchAttributeType.TEXT]: 'Text',
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.INT]: 'Int',
  [SearchAttributeType.DOUBLE]: 'Double',
  [SearchAttributeType.BOOL]: 'Bool',
  [SearchAttributeType.DATETIME]: 'Datetime',
  [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
};

/** `Name=Type` pairs, as `temporal server start-dev --search-attribute` and `temporal operator` take them. */
export function searchAttributeCliPairs(): string[] {
  return ENGINE_SEARCH_ATTRIBUTES.map((key) => `${key.name}=${CLI_TYPE_NAMES[key.type]}`);
}
