/**
 * One PIX charge, id `charge:<externalId>`, started by the engine API with update-with-start: the start
 * and the merchant's wait for the created charge are one round trip. This function only wires the
 * messages to the state machine (./charge.ts).
 */
import { setHandler, setWorkflowOptions } from '@temporalio/workflow';
import { handlersFinished } from '../shared/pending-updates';
import { Charge } from './charge';
import {
  cashInCallbackSignal,
  chargeStatusQuery,
  createChargeUpdate,
  infractionAcceptedSignal,
  type ChargeView,
} from '../../src/contracts/charge';
import type { ChargeInput } from '../../src/charges/charge-input';

// Auto-upgrade (Worker Versioning on): it lives for days or months, so it moves to the current build at its next task;
// its changes are behind patched() markers, which keep it replaying there.
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, chargeWorkflow);

export async function chargeWorkflow(input: ChargeInput): Promise<ChargeView> {
  const charge = new Charge(input);
  setHandler(chargeStatusQuery, () => charge.view());
  setHandler(createChargeUpdate, () => charge.answerCreate(), {
    validator: (requestHash: string) => charge.validateCreate(requestHash),
  });
  setHandler(cashInCallbackSignal, (hint) => charge.onCallback(hint));
  setHandler(infractionAcceptedSignal, (infraction) => charge.onInfractionAccepted(infraction));
  const view = await charge.run();
  await charge.events.drained();
  await charge.rows.drained();
  await handlersFinished();
  return view;
}
