/**
 * One PIX charge, id `charge:<externalId>`, started by the engine API with update-with-start: the start
 * and the merchant's wait for the created charge are one round trip. This function only wires the
 * messages to the state machine (./charge.ts).
 */
import { setHandler } from '@temporalio/workflow';
import { closeWith } from '../shared/pending-updates';
import { Charge } from './charge';
import {
  cashInCallbackSignal,
  chargeStatusQuery,
  createChargeUpdate,
  infractionAcceptedSignal,
} from '../../src/contracts/charge';
import type { ChargeView } from '../../src/contracts/charge';
import type { ChargeInput } from '../../src/charges/charge-input';

export async function chargeWorkflow(input: ChargeInput): Promise<ChargeView> {
  const charge = new Charge(input);
  setHandler(chargeStatusQuery, () => charge.view());
  setHandler(createChargeUpdate, () => charge.answerCreate(), {
    validator: (requestHash: string) => charge.validateCreate(requestHash),
  });
  setHandler(cashInCallbackSignal, (hint) => charge.onCallback(hint));
  setHandler(infractionAcceptedSignal, (infraction) => charge.onInfractionAccepted(infraction));
  return closeWith(await charge.run(), charge.events, charge.rows);
}
