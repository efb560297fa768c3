/**
 * One payout, id `payout:<externalId>`, from the merchant's request to a confirmed outcome. This function
 * only wires the messages to the state machine (./payout.ts) and runs it; every update is answered
 * before the workflow ends.
 */
import { setHandler } from '@temporalio/workflow';
import { closeWith } from '../shared/pending-updates';
import { runsVersion, type PayoutInput } from '../../src/payouts/payout-input';
import {
  cancelPayoutUpdate,
  payoutStatusQuery,
  recheckAskedSignal,
  recheckPayoutUpdate,
  withdrawalCallbackSignal,
  withdrawalCallbackUpdate,
} from '../../src/contracts/payout';
import type { PayoutView } from '../../src/contracts/payout';
import { Payout } from './payout';

export async function payoutWorkflow(input: PayoutInput): Promise<PayoutView> {
  const payout = new Payout(input);
  setHandler(payoutStatusQuery, () => payout.view());
  setHandler(withdrawalCallbackSignal, (hint) => payout.onCallback(hint));
  // A handler adds no command; registered from version 4 on only, so an older payout refuses the update and is signalled.
  if (runsVersion(input, 4)) setHandler(withdrawalCallbackUpdate, (hint) => payout.onCallback(hint));
  setHandler(recheckPayoutUpdate, () => payout.recheck(), { validator: () => payout.validateRecheck() });
  setHandler(recheckAskedSignal, () => payout.askRecheck());
  setHandler(cancelPayoutUpdate, (request) => payout.cancel(request), {
    validator: (_request) => payout.validateCancel(),
  });
  return closeWith(await payout.run());
}
