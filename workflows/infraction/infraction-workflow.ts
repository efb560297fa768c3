/**
 * One MED infraction, id `infraction:<infractionId>`, started (and kept up to date) by the MED sync with
 * signal-with-start. This function only wires the messages to the state machine (./infraction.ts).
 */
import { allHandlersFinished, condition, setHandler } from '@temporalio/workflow';
import type { Defense } from '../../src/infractions/defense';
import { Infraction } from './infraction';
import { defendInfractionUpdate, infractionRecordSignal, infractionStatusQuery, type InfractionInput, type InfractionView } from './messages';

export async function infractionWorkflow(input: InfractionInput): Promise<InfractionView> {
  const infraction = new Infraction(input);
  setHandler(infractionStatusQuery, () => infraction.view());
  setHandler(infractionRecordSignal, (record) => infraction.onRecord(record));
  setHandler(defendInfractionUpdate, (defense) => infraction.defend(defense), { validator: (defense: Defense) => infraction.validateDefense(defense) });
  const view = await infraction.run();
  await infraction.events.drained();
  await condition(allHandlersFinished);
  return view;
}
