/**
 * One MED infraction, id `infraction:<infractionId>`, started (and kept up to date) by the MED sync with
 * signal-with-start. This function only wires the messages to the state machine (./infraction.ts).
 */
import { setHandler } from '@temporalio/workflow';
import { closeWith } from '../shared/pending-updates';
import type { Defense } from '../../src/infractions/defense';
import { Infraction } from './infraction';
import { defendInfractionUpdate, infractionRecordSignal, infractionStatusQuery } from '../../src/contracts/infraction';
import type { InfractionInput, InfractionView } from '../../src/contracts/infraction';

export async function infractionWorkflow(input: InfractionInput): Promise<InfractionView> {
  const infraction = new Infraction(input);
  setHandler(infractionStatusQuery, () => infraction.view());
  setHandler(infractionRecordSignal, (record) => infraction.onRecord(record));
  setHandler(defendInfractionUpdate, (defense) => infraction.defend(defense), {
    validator: (defense: Defense) => infraction.validateDefense(defense),
  });
  return closeWith(await infraction.run(), infraction.events, infraction.rows);
}
