/**
 * One merchant event's delivery, id `event:<eventId>`, started when an operation reaches a final
 * state that an endpoint subscribes to. This function only wires the messages to ./merchant-event.ts.
 */
import { setHandler } from '@temporalio/workflow';
import { closeWith } from '../shared/pending-updates';
import { EventDelivery } from './merchant-event';
import { merchantEventQuery, redeliverEventUpdate } from '../../src/contracts/merchant-event';
import type { MerchantEventInput, MerchantEventView } from '../../src/contracts/merchant-event';

export async function merchantEventWorkflow(input: MerchantEventInput): Promise<MerchantEventView> {
  const delivery = new EventDelivery(input);
  setHandler(merchantEventQuery, () => delivery.view());
  setHandler(redeliverEventUpdate, () => delivery.redeliver(), { validator: () => delivery.validateRedeliver() });
  return closeWith(await delivery.run());
}
