/**
 * One merchant event's delivery, id `event:<eventId>`, started when an operation reaches a final
 * state that an endpoint subscribes to. This function only wires the messages to ./merchant-event.ts.
 */
import { setHandler } from '@temporalio/workflow';
import { declareVersioning } from '../shared/versioning';
import { handlersFinished } from '../shared/pending-updates';
import { EventDelivery } from './merchant-event';
import {
  merchantEventQuery,
  redeliverEventUpdate,
  type MerchantEventInput,
  type MerchantEventView,
} from '../../src/contracts/merchant-event';

// Worker Versioning (a delivery retries for days).
declareVersioning('AUTO_UPGRADE', merchantEventWorkflow);

export async function merchantEventWorkflow(input: MerchantEventInput): Promise<MerchantEventView> {
  const delivery = new EventDelivery(input);
  setHandler(merchantEventQuery, () => delivery.view());
  setHandler(redeliverEventUpdate, () => delivery.redeliver(), { validator: () => delivery.validateRedeliver() });
  const view = await delivery.run();
  await handlersFinished();
  return view;
}
