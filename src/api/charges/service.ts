/**
 * Between the HTTP routes and Temporal for PIX charges. Creating is one update-with-start: the workflow
 * starts (or is found) and answers the created charge in the same round trip, so an API that dies between
 * the two leaves nothing half done: the retried request joins the same workflow and gets the same code.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Config } from '../../config/env';
import type { IntentStore } from '../../intents/intent-store';
import { chargeInput, type ChargeConfig } from '../../charges/charge-input';
import type { ChargeRequest } from '../../charges/charge-request';
import { AmountCents, ChargeStatus } from '../../temporal/search-attributes';
import {
  chargeStatusQuery,
  type ChargeView,
  type ChargeWorkflow,
  isChargeState,
  startCreateCharge,
  chargeHandle,
} from '../../lifecycles/charge-client';
import { chargeRecord } from '../../read-model/operation-records';
import type { ReadModel } from '../../read-model/read-model';
import { ApiError } from '../errors';
import { readOrStored } from '../stored-operation';
import { withinDeadline } from '../temporal-calls';
import { sendUpdate, type UpdateOutcome } from '../workflow-updates';
import { readWorkflow } from '../workflow-reading';
import { intentView, unfinishedStatus } from '../unfinished-workflow';
import type { ChargeReading } from './schemas';

export type ChargeServiceConfig = ChargeConfig & Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'TEMPORAL_CALL_DEADLINE_MS'>;

// Creating waits for the provider (retried for up to 2 minutes by the workflow): bounded, but longer than a call.
const CREATE_ANSWER_DEADLINE_MS = 150_000;

function notFound(externalId: string): ApiError {
  return new ApiError(404, 'CHARGE_NOT_FOUND', `No charge ${externalId}`);
}

function conflict(externalId: string): ApiError {
  return new ApiError(409, 'CHARGE_CONFLICT', `A different charge already has the externalId ${externalId}`);
}

export class ChargeService {
  constructor(
    private readonly client: Client,
    private readonly config: ChargeServiceConfig,
    /** Creation intents: what a charge whose workflow was terminated had created at the provider. */
    private readonly intents: IntentStore,
    private readonly readModel: Pick<ReadModel, 'recordOperation' | 'findOperation'>,
  ) {}

  /** The created charge (the same one for a repeated request), listed from now on; a different request under its externalId is 409. */
  async create(request: ChargeRequest): Promise<ChargeView> {
    const view = await this.createdView(request);
    await this.readModel.recordOperation(chargeRecord(view));
    return view;
  }

  private async createdView(request: ChargeRequest): Promise<ChargeView> {
    const input = chargeInput(request, this.config);
    const update = () => startCreateCharge(this.client, input, this.config.TEMPORAL_TASK_QUEUE);
    let outcome: UpdateOutcome<ChargeView>;
    try {
      outcome = await sendUpdate(
        this.client,
        { acceptMs: this.config.TEMPORAL_CALL_DEADLINE_MS, answerMs: CREATE_ANSWER_DEADLINE_MS },
        update,
      );
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      outcome = { kind: 'closed' };
    }
    if (outcome.kind === 'answered') return outcome.result;
    // Refused by the validator (another request under the id), or failed because the workflow was closed under
    // it (terminated mid-creation), or closed: a workflow that ended without its outcome is said so first.
    const reading = await this.read(request.externalId);
    if (reading.unfinished) {
      throw new ApiError(
        409,
        'CHARGE_UNFINISHED',
        `The charge's workflow was ${reading.unfinished.executionStatus} before it ended (creation intent: ${reading.unfinished.creation.intent}): an operator resets it to settle it (docs/operations.md)`,
      );
    }
    if (outcome.kind === 'refused') throw conflict(request.externalId);
    // Closed: a retry after the charge ended is answered from its result, never a second charge.
    const closed = await this.call(() => this.handle(request.externalId).result());
    if (closed.requestHash !== input.requestHash) throw conflict(request.externalId);
    return closed;
  }

  /**
   * A closed charge answers from its result; a running one from its query, or from the index when no worker
   * answers. One whose workflow closed without its outcome (terminated, say) says so, with its creation intent.
   * One whose workflow Temporal no longer has (retention): from the read model.
   */
  async read(externalId: string): Promise<ChargeReading> {
    return readOrStored(
      () => this.readWorkflow(externalId),
      this.readModel,
      'charge',
      externalId,
      ({ state, amountCents, detail }) => ({
        source: 'store',
        view: { externalId, state: state ?? 'PENDING', amountCents },
        ...(detail ? { detail } : {}),
      }),
    );
  }

  private async readWorkflow(externalId: string): Promise<ChargeReading> {
    const reading = await readWorkflow(this.client, this.handle(externalId), {
      deadlineMs: this.config.TEMPORAL_CALL_DEADLINE_MS,
      query: chargeStatusQuery,
      notFound: () => notFound(externalId),
      fromIndex: (description) => {
        const state = description.typedSearchAttributes.get(ChargeStatus);
        return {
          externalId,
          state: isChargeState(state) ? state : 'PENDING',
          amountCents: description.typedSearchAttributes.get(AmountCents) ?? 0,
        };
      },
    });
    const executionStatus = unfinishedStatus(reading.executionStatus);
    if (!executionStatus) return reading;
    return {
      ...reading,
      unfinished: {
        executionStatus,
        creation: intentView(await this.intents.find({ businessId: externalId, kind: 'charge-creation' })),
      },
    };
  }

  private handle(externalId: string): WorkflowHandle<ChargeWorkflow> {
    return chargeHandle(this.client, externalId);
  }

  private call<T>(call: () => Promise<T>): Promise<T> {
    return withinDeadline(this.client, this.config.TEMPORAL_CALL_DEADLINE_MS, call);
  }
}
