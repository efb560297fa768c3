/**
 * One MED infraction, id `infraction:<infractionId>`, started (and kept up to date) by the MED sync with
 * signal-with-start. This function only wires the messages to the state machine (./infraction.ts).
 */
import { setHandler } from '@temporalio/workflow';
import { declareVersioning } from '../shared/versioning';
import { handlersFinished } from '../shared/pending-updates';
import type { Defense } from '../../src/infractions/defense';
import { Infraction } from './infraction';
import {
  defendInfractionUpdate,
  infractionRecordSignal,
  infractionStatusQuery,
  type InfractionInput,
  type InfractionView,
} from '../../src/contracts/infraction';

// Worker Versioning (an infraction lives for weeks).
declareVersioning('AUTO_UPGRADE', infractionWorkflow);

export async function infractionWorkflow(input: InfractionInput): Promise<InfractionView> {
  const infraction = new Infraction(input);
  setHandler(infractionStatusQuery, () => infraction.view());
  setHandler(infractionRecordSignal, (record) => infraction.onRecord(record));
  setHandler(defendInfractionUpdate, (defense) => infraction.defend(defense), {
    validator: (defense: Defense) => infraction.validateDefense(defense),
  });
  const view = await infraction.run();
  await infraction.events.drained();
  await infraction.rows.drained();
  await handlersFinished();
  return view;
}
