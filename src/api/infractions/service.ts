/**
 * Between the HTTP routes and Temporal for MED infractions: reads the workflow,
 * sends the merchant's defense as an update (one per infraction: retried requests join the same one),
 * and runs the sync now. Every call within the call deadline.
 */
import { createHash } from 'node:crypto';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Config } from '../../config/env';
import type { IntentStore } from '../../intents/intent-store';
import type { Defense } from '../../infractions/defense';
import { triggerMedSync } from '../../lifecycles/med-sync-schedule';
import {
  defendInfractionUpdate,
  infractionStatusQuery,
  type DefenseOutcome,
  type InfractionView,
  type InfractionWorkflow,
  DEFENDABLE_STATES,
  infractionHandle,
} from '../../lifecycles/infraction-client';
import { ApiError } from '../errors';
import { withinDeadline } from '../temporal-calls';
import { sendUpdate } from '../workflow-updates';
import { readWorkflow, workerUnavailable } from '../workflow-reading';
import { readOrStored, type OperationStore } from '../stored-operation';
import { intentView, unfinishedStatus, type IntentView, type UnfinishedStatus } from '../unfinished-workflow';

export type InfractionServiceConfig = Pick<Config, 'TEMPORAL_CALL_DEADLINE_MS' | 'MED_SYNC_SCHEDULE_ID'>;

// The defense waits for the provider's answer (retried for up to 2 minutes): bounded, but longer than a call.
const DEFENSE_ANSWER_DEADLINE_MS = 150_000;

/** An infraction whose workflow closed without its outcome (terminated, say): how, and what its defense intent says was sent. */
export interface UnfinishedInfraction {
  executionStatus: UnfinishedStatus;
  defenseSubmission: IntentView;
}

function notFound(infractionId: string): ApiError {
  return new ApiError(
    404,
    'INFRACTION_NOT_FOUND',
    `No infraction ${infractionId}: it appears after the next MED sync (POST /v1/infractions/sync runs one now)`,
  );
}

export class InfractionService {
  constructor(
    private readonly client: Client,
    private readonly config: InfractionServiceConfig,
    /** Defense intents: what an infraction whose workflow was terminated had sent. */
    private readonly intents: IntentStore,
    private readonly readModel: OperationStore,
  ) {}

  /** A closed infraction answers from its result; a running one from its status query (the index alone cannot show it). */
  async read(infractionId: string): Promise<InfractionView> {
    return (await this.fromWorkflow(infractionId)).view;
  }

  /**
   * What GET answers: the view, and when the workflow closed without its outcome, how and what its defense intent
   * holds; once Temporal no longer has the workflow (retention), the view from the read model, without the defense.
   */
  readRun(infractionId: string): Promise<{ view: InfractionView; unfinished?: UnfinishedInfraction }> {
    return readOrStored(
      () => this.fromWorkflow(infractionId),
      this.readModel,
      'infraction',
      infractionId,
      ({ state, detail }) => {
        if (!state || !detail) return undefined;
        const { record, ...rest } = detail;
        return { view: { infractionId, state, ...rest, ...(record ? { record } : {}) } };
      },
    );
  }

  private async fromWorkflow(
    infractionId: string,
  ): Promise<{ view: InfractionView; unfinished?: UnfinishedInfraction }> {
    const reading = await readWorkflow(this.client, this.handle(infractionId), {
      deadlineMs: this.config.TEMPORAL_CALL_DEADLINE_MS,
      query: infractionStatusQuery,
      notFound: () => notFound(infractionId),
      fromIndex: workerUnavailable(`infraction ${infractionId}`),
    });
    const executionStatus = unfinishedStatus(reading.executionStatus);
    if (!executionStatus) return { view: reading.view };
    return {
      view: reading.view,
      unfinished: {
        executionStatus,
        defenseSubmission: intentView(
          await this.intents.find({ businessId: infractionId, kind: 'defense-submission' }),
        ),
      },
    };
  }

  /**
   * One defense per infraction. The update id is the infraction's and the defense's, so a retried
   * request joins the update already under way (or gets its answer) instead of sending a second defense,
   * while a different defense is refused by the workflow.
   */
  async defend(infractionId: string, defense: Defense): Promise<DefenseOutcome> {
    const current = await this.read(infractionId);
    if (!DEFENDABLE_STATES.includes(current.state) && !current.defense) {
      throw new ApiError(
        409,
        'INFRACTION_NOT_DEFENDABLE',
        `the infraction is ${current.state}: it can no longer be defended`,
      );
    }
    const updateId = `defense:${infractionId}:${createHash('sha256').update(JSON.stringify(defense)).digest('hex').slice(0, 16)}`;
    const outcome = await sendUpdate(
      this.client,
      { acceptMs: this.config.TEMPORAL_CALL_DEADLINE_MS, answerMs: DEFENSE_ANSWER_DEADLINE_MS },
      () =>
        this.handle(infractionId).startUpdate(defendInfractionUpdate, {
          args: [defense],
          updateId,
          waitForStage: 'ACCEPTED',
        }),
    );
    if (outcome.kind === 'answered') return outcome.result;
    if (outcome.kind === 'refused') throw new ApiError(409, 'INFRACTION_NOT_DEFENDABLE', outcome.reason);
    const view = await this.read(infractionId);
    throw new ApiError(
      409,
      'INFRACTION_NOT_DEFENDABLE',
      `the infraction is ${view.state}: it can no longer be defended`,
    );
  }

  async sync(): Promise<void> {
    await this.call(() => triggerMedSync(this.client, this.config.MED_SYNC_SCHEDULE_ID));
  }

  private handle(infractionId: string): WorkflowHandle<InfractionWorkflow> {
    return infractionHandle(this.client, infractionId);
  }

  private call<T>(call: () => Promise<T>): Promise<T> {
    return withinDeadline(this.client, this.config.TEMPORAL_CALL_DEADLINE_MS, call);
  }
}
