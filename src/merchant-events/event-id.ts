/**
 * An event's id is derived from what it announces (the operation's workflow id, the event type, the
 * move's index in its history): announcing again after a crash yields the same id, so the event's
 * delivery workflow (`event:<id>`) is started once and receivers see one id however often it comes.
 */
import { createHash } from 'node:crypto';
import type { MerchantEventType } from './merchant-event';

export function merchantEventId(sourceId: string, type: MerchantEventType, seq: number): string {
  return `evt_${createHash('sha256').update(`${sourceId}\n${type}\n${seq}`).digest('hex').slice(0, 24)}`;
}
