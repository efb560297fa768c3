/**
 * The event as a merchant's receiver sees it (src/merchant-events/merchant-event.ts, event-id.ts): its type is one
 * the documentation lists, and its id is derived from what it announces, so an operation announcing again (a
 * reset, a lost workflow task, a new engine version mid-delivery) sends the same id, and two events never share one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { merchantEventId } from '../../src/merchant-events/event-id';
import {
  MERCHANT_EVENT_TYPES,
  merchantEventIdSchema,
  merchantEventSchema,
  merchantEventTypeSchema,
} from '../../src/merchant-events/merchant-event';

test('the event types are the ones docs/merchant-events.md lists, each once', () => {
  const page = readFileSync(path.join(__dirname, '../../docs/merchant-events.md'), 'utf8');
  const table = page.slice(page.indexOf('| type |'), page.indexOf('\n\n', page.indexOf('| type |')));
  const documented = table
    .split('\n')
    .slice(2)
    .flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([a-z_.]+)`/g)].map((match) => match[1]));
  expect(documented).toHaveLength(20);
  expect([...MERCHANT_EVENT_TYPES].sort()).toEqual(documented.sort());
  expect(new Set(MERCHANT_EVENT_TYPES).size).toBe(MERCHANT_EVENT_TYPES.length);
  expect(merchantEventTypeSchema.safeParse('payout.completed').success).toBe(true);
  expect(merchantEventTypeSchema.safeParse('payout.settled').success).toBe(false);
});

describe('event ids', () => {
  test('the same operation, type and move give the same id, on any engine version: the one events in flight already carry', () => {
    expect(merchantEventId('payout:order-1', 'payout.completed', 3)).toBe('evt_ffd05fb6fe7794b59a528030');
    expect(merchantEventId('payout:order-1', 'payout.completed', 3)).toBe(
      merchantEventId('payout:order-1', 'payout.completed', 3),
    );
  });

  test('another operation, type or move gives another id, each of the form the schema and the docs promise', () => {
    const ids = [
      merchantEventId('payout:order-1', 'payout.completed', 3),
      merchantEventId('payout:order-2', 'payout.completed', 3),
      merchantEventId('payout:order-1', 'payout.failed', 3),
      merchantEventId('payout:order-1', 'payout.completed', 4),
      // The parts are kept apart: moving text from one to the next is another event.
      merchantEventId('payout:order-1\npayout.completed', 'payout.completed', 3),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(merchantEventIdSchema.parse(id)).toBe(id);
  });

  test('an id of another form is refused with a message naming the form', () => {
    for (const id of ['evt_ffd05fb6fe7794b59a52803', 'evt_ffd05fb6fe7794b59a5280300', 'evt_FFD05FB6FE7794B59A528030'])
      expect(merchantEventIdSchema.safeParse(id).error?.issues[0]?.message).toBe(
        'must be an event id (evt_ and 24 hex digits)',
      );
    expect(merchantEventIdSchema.safeParse('xevt_ffd05fb6fe7794b59a528030').success).toBe(false);
    expect(merchantEventIdSchema.safeParse('evt_ffd05fb6fe7794b59a528030\n').success).toBe(false);
  });
});

test('an event is id, type, createdAt and data; each is required', () => {
  const event = {
    id: merchantEventId('charge:c-1', 'charge.paid', 2),
    type: 'charge.paid',
    createdAt: '2026-11-28T10:00:00.000Z',
    data: { object: 'charge', externalId: 'c-1' },
  };
  expect(merchantEventSchema.parse(event)).toEqual(event);
  for (const field of ['id', 'type', 'createdAt', 'data'] as const) {
    const { [field]: _left, ...rest } = event;
    expect({ field, success: merchantEventSchema.safeParse(rest).success }).toEqual({ field, success: false });
  }
  expect(merchantEventSchema.safeParse({ ...event, data: 'paid' }).success).toBe(false);
  expect(merchantEventSchema.safeParse({ ...event, createdAt: 1 }).success).toBe(false);
});
