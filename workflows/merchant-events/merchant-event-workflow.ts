/**
 * One merchant event's delivery, id `event:<eventId>`, started when an operation reaches a final
 * state that an endpoint subscribes to. This function only wires the messages to ./merchant-event.ts.
 */
import { setHandler, setWorkflowOptions } from '@temporalio/workflow';
import { handlersFinished } from '../shared/pending-updates';
import { EventDelivery } from './merchant-event';
import {
  merchantEventQuery,
  redeliverEventUpdate,
  type MerchantEventInput,
  type MerchantEventView,
} from '../../src/contracts/merchant-event';

// Auto-upgrade (Worker Versioning on): it lives for days or months, so it moves to the current build at its next task;
// its changes are behind patched() markers, which keep it replaying there.
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, merchantEventWorkflow);

export async function merchantEventWorkflow(input: MerchantEventInput): Promise<MerchantEventView> {
  const delivery = new EventDelivery(input);
  setHandler(merchantEventQuery, () => delivery.view());
  setHandler(redeliverEventUpdate, () => delivery.redeliver(), { validator: () => delivery.validateRedeliver() });
  const view = await delivery.run();
  await handlersFinished();
  return view;
}
