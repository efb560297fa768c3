/**
 * The typed search attributes the engine upserts. They are stored unencrypted in the visibility
 * store, so none of them may carry personal data: no CPF, PIX key, name or e-mail; only states,
 * flows, business ids that the merchant chose as opaque, and amounts.
 * Imported by workflows too: this module must stay free of I/O.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** The workflow's state in its own lifecycle (RECEIVED, SUBMITTED, COMPLETED, ...). */
export const PayoutStatus = defineSearchAttributeKey('PayoutStatus', SearchAttributeType.KEYWORD);
/** Which lifecycle: pix-withdrawal, payout-batch, pix-payment, crypto-payout, cash-in, card-payment, infraction. */
export const PayoutFlow = defineSearchAttributeKey('PayoutFlow', SearchAttributeType.KEYWORD);
/** The batch a payout belongs to, when it came in one. */
export const BatchId = defineSearchAttributeKey('BatchId', SearchAttributeType.KEYWORD);
/** The amount in integer centavos. */
export const AmountCents = defineSearchAttributeKey('AmountCents', SearchAttributeType.INT);

export const ENGINE_SEARCH_ATTRIBUTES = [PayoutStatus, PayoutFlow, BatchId, AmountCents] as const;

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
