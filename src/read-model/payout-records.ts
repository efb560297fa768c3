/**
 * A payout as the read model keeps it: the columns the API filters and sums on, the view its workflow last
 * told (what GET answers once the workflow is gone), and the PIX key masked, never in clear. Built here from
 * what each writer knows: the request when it is accepted, the provider's answer when submitted, the
 * workflow's view in review and at its end.
 */
import { z } from 'zod';
import { PAYOUT_STATES, type PayoutView } from '../lifecycles/payout-client';
import { maskPixKey } from '../pix/keys';
import { storedProgressShape } from './operation-details';
import { methodOf, type PayoutInput } from '../payouts/payout-input';
import { PAYOUT_METHODS, type PayoutMethod } from '../payouts/rails/methods';
import type { PayoutState } from '../payouts/payout-state';
import type { SubmitOutcome } from '../payouts/rails/rail-provider';

/** What one write says; `seq` is the index of the transition it shows (0: accepted). */
export interface PayoutRecord {
  externalId: string;
  seq: number;
  status: PayoutState;
  method: PayoutMethod;
  batchId?: string;
  amountCents: number;
  feeCents?: number;
  keyType?: string;
  /** The masked PIX key. */
  destination?: string;
  view: PayoutView;
}

/** The masked destination of a PIX-key payout: what the view shows, and all the read model keeps of the key. */
function destinationOf(input: PayoutInput): Pick<PayoutRecord, 'keyType' | 'destination'> {
  if (input.method !== undefined && input.method !== 'pix_key') return {};
  return { keyType: input.keyType, destination: maskPixKey(input.keyType, input.pixKey) };
}

function recordOf(input: PayoutInput, view: PayoutView, seq: number): PayoutRecord {
  return {
    externalId: view.externalId,
    seq,
    status: view.state,
    method: view.method,
    ...(view.batchId ? { batchId: view.batchId } : {}),
    amountCents: view.amountCents,
    ...(view.feeCents === undefined ? {} : { feeCents: view.feeCents }),
    ...destinationOf(input),
    view,
  };
}

function viewOfInput(input: PayoutInput, state: PayoutState): PayoutView {
  return {
    externalId: input.externalId,
    method: methodOf(input),
    state,
    amountCents: input.amountCents,
    requestHash: input.requestHash,
    ...(input.batchId ? { batchId: input.batchId } : {}),
    callbacksReceived: 0,
    checksMade: 0,
    transitions: [],
  };
}

/** Accepted: the request, RECEIVED, before its workflow has run a step. */
export function acceptedPayout(input: PayoutInput): PayoutRecord {
  return recordOf(input, viewOfInput(input, 'RECEIVED'), 0);
}

/** The provider took it (the workflow's first move, SUBMITTED): its id, fee and total. */
export function submittedPayout(
  input: PayoutInput,
  outcome: Extract<SubmitOutcome, { kind: 'accepted' }>,
): PayoutRecord {
  const view: PayoutView = {
    ...viewOfInput(input, 'SUBMITTED'),
    providerTransactionId: outcome.transactionId,
    providerState: outcome.providerStatus,
    ...(outcome.feeCents === undefined ? {} : { feeCents: outcome.feeCents }),
    ...(outcome.totalCents === undefined ? {} : { totalCents: outcome.totalCents }),
    ...(outcome.quote ? { quote: outcome.quote } : {}),
  };
  return recordOf(input, view, 1);
}

/** The workflow's own view (in review, at its end): its last transition is the seq; it knows no destination (kept from earlier writes). */
export function payoutOfView(view: PayoutView): PayoutRecord {
  const { problem: _problem, ...kept } = view;
  return {
    externalId: view.externalId,
    seq: Math.max(0, view.transitions.length - 1),
    status: view.state,
    method: view.method,
    ...(view.batchId ? { batchId: view.batchId } : {}),
    amountCents: view.amountCents,
    ...(view.feeCents === undefined ? {} : { feeCents: view.feeCents }),
    view: kept,
  };
}

const stateSchema = z.enum(PAYOUT_STATES);

/** The stored view, read back: the fields a payout's answer shows. */
export const storedViewSchema = z.object({
  externalId: z.string(),
  method: z.enum(PAYOUT_METHODS),
  state: stateSchema,
  amountCents: z.number().int(),
  feeCents: z.number().int().optional(),
  totalCents: z.number().int().optional(),
  providerTransactionId: z.string().optional(),
  providerState: z.string().optional(),
  quote: z
    .object({
      amountCents: z.number(),
      feeCents: z.number(),
      totalCents: z.number(),
      usdtAmount: z.string(),
      usdtRate: z.number(),
      minCents: z.number(),
      maxCents: z.number(),
    })
    .optional(),
  failureReason: z.string().optional(),
  reviewReason: z.string().optional(),
  batchId: z.string().optional(),
  requestHash: z.string(),
  ...storedProgressShape(PAYOUT_STATES),
});
