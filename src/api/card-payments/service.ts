/**
 * Between the card payment routes and Temporal: starts the workflow under its business id, reads it,
 * and builds the checkout link. Every call within a deadline; knows nothing about HTTP beyond ApiErrors.
 */
import { WorkflowUpdateStage, type Client, type WorkflowHandle, type WorkflowUpdateHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '../../config/env';
import {
  cardPaymentTiming,
  type CardPaymentInput,
  type CardPaymentTimingConfig,
} from '../../card-payments/card-payment-input';
import type { CardOrder } from '../../card-payments/card-payment-request';
import { checkoutToken } from '../../card-payments/checkout-token';
import { cardOrderHash } from '../../card-payments/request-hash';
import { AmountCents, CardPaymentStatus } from '../../temporal/search-attributes';
import {
  cardPaymentStatusQuery,
  cardPaymentWorkflowId,
  closeCardPaymentUpdate,
  recheckCardPaymentUpdate,
  type CardPaymentView,
  type CardPaymentWorkflow,
  isCardPaymentState,
  type CardPaymentState,
  readCardPaymentMemo,
  startCardPaymentWorkflow,
  cardPaymentHandle,
} from '../../lifecycles/card-payment-client';
import { cardPaymentRecord } from '../../read-model/operation-records';
import type { ReadModel } from '../../read-model/read-model';
import { readOrStored } from '../stored-operation';
import { ApiError } from '../errors';
import { withinDeadline } from '../temporal-calls';
import { sendUpdate } from '../workflow-updates';
import type { CardPaymentCreated, CardPaymentReading } from './schemas';

export type CardPaymentServiceConfig = CardPaymentTimingConfig &
  Pick<
    Config,
    | 'TEMPORAL_TASK_QUEUE'
    | 'TEMPORAL_CALL_DEADLINE_MS'
    | 'CARD_CHECKOUT_TTL_MS'
    | 'ENGINE_PUBLIC_URL'
    | 'CHECKOUT_PUBLIC_URL'
  >;

// A recheck's answer waits for endpoint 3 (30 s, retried): bounded, but longer than a plain call.
const UPDATE_ANSWER_DEADLINE_MS = 120_000;

export function cardPaymentNotFound(externalId: string): ApiError {
  return new ApiError(404, 'CARD_PAYMENT_NOT_FOUND', `No card payment with externalId ${externalId}`);
}

/** A view with no move known: what the index (or the request, before its workflow ran) tells. */
function viewOf(
  externalId: string,
  known: Pick<CardPaymentView, 'state' | 'amountCents' | 'installmentCount' | 'expiresAt' | 'requestHash'>,
): CardPaymentView {
  return { externalId, ...known, callbacksReceived: 0, checksMade: 0, transitions: [] };
}

function awaitingCard(input: CardPaymentInput): CardPaymentView {
  const { externalId, amountCents, installmentCount } = input.order;
  return viewOf(externalId, {
    state: 'AWAITING_CARD',
    amountCents,
    installmentCount,
    expiresAt: input.expiresAt,
    requestHash: input.requestHash,
  });
}

export class CardPaymentService {
  constructor(
    private readonly client: Client,
    private readonly config: CardPaymentServiceConfig,
    private readonly tokenKey: Buffer,
    private readonly readModel: Pick<ReadModel, 'recordOperation' | 'findOperation'>,
  ) {}

  async create(order: CardOrder): Promise<CardPaymentCreated & { created: boolean }> {
    const input: CardPaymentInput = {
      order,
      expiresAt: new Date(Date.now() + this.config.CARD_CHECKOUT_TTL_MS).toISOString(),
      requestHash: cardOrderHash(order),
      timing: cardPaymentTiming(this.config),
    };
    const started = await this.call(() =>
      startCardPaymentWorkflow(this.client, input, this.config.TEMPORAL_TASK_QUEUE),
    );
    if (started === 'started') {
      // Listed from now on, before its workflow has run a step (which writes the same row, seq 0).
      await this.readModel.recordOperation(cardPaymentRecord(awaitingCard(input)));
      return { created: true, ...this.created(order.externalId, 'AWAITING_CARD', input.expiresAt) };
    }
    const description = await this.call(() => this.handle(order.externalId).describe());
    const memo = readCardPaymentMemo(description.memo);
    if (memo?.requestHash !== input.requestHash)
      throw new ApiError(
        409,
        'CARD_PAYMENT_CONFLICT',
        `A different card payment with externalId ${order.externalId} already exists`,
      );
    const status = description.typedSearchAttributes.get(CardPaymentStatus);
    return {
      created: false,
      ...this.created(order.externalId, isCardPaymentState(status) ? status : 'AWAITING_CARD', memo.expiresAt),
    };
  }

  /**
   * A closed payment answers from its result; a running one from its query, or from the index when no worker answers
   * in time; one whose workflow Temporal no longer has (retention) from the read model, without the card's brand and digits.
   */
  async read(externalId: string): Promise<CardPaymentReading> {
    return readOrStored(
      () => this.readWorkflow(externalId),
      this.readModel,
      'card_payment',
      externalId,
      ({ state, amountCents, detail }) =>
        state && detail
          ? { source: 'store', view: { externalId, state, amountCents, requestHash: '', ...detail } }
          : undefined,
    );
  }

  private async readWorkflow(externalId: string): Promise<CardPaymentReading> {
    const handle = this.handle(externalId);
    const description = await this.call(() => handle.describe()).catch((error: unknown) => {
      throw error instanceof WorkflowNotFoundError ? cardPaymentNotFound(externalId) : error;
    });
    if (description.status.name === 'COMPLETED')
      return { source: 'workflow', view: await this.call(() => handle.result()) };
    try {
      return {
        source: 'workflow',
        view: await this.client.withDeadline(Date.now() + this.config.TEMPORAL_CALL_DEADLINE_MS, () =>
          handle.query(cardPaymentStatusQuery),
        ),
      };
    } catch {
      // No worker answered (in time, or at all): the index and the memo still know its state and amount.
    }
    const state = description.typedSearchAttributes.get(CardPaymentStatus);
    const memo = readCardPaymentMemo(description.memo);
    const indexed = viewOf(externalId, {
      state: isCardPaymentState(state) ? state : 'AWAITING_CARD',
      amountCents: description.typedSearchAttributes.get(AmountCents) ?? 0,
      installmentCount: memo?.installmentCount ?? 1,
      expiresAt: memo?.expiresAt ?? '',
      requestHash: memo?.requestHash ?? '',
    });
    return { source: 'index', view: indexed };
  }

  /** Operators: ask the provider now, naming the payment when the workflow never learned its id. 409 unless PENDING or NEEDS_REVIEW. */
  async recheck(externalId: string, request: { providerPaymentId?: number }): Promise<CardPaymentReading> {
    return {
      source: 'workflow',
      view: await this.operatorUpdate(externalId, () =>
        this.handle(externalId).startUpdate(recheckCardPaymentUpdate, {
          args: [request],
          waitForStage: WorkflowUpdateStage.ACCEPTED,
        }),
      ),
    };
  }

  /** Operators: a payment in review that the provider does not have ends FAILED. 409 otherwise. */
  async close(externalId: string, reason: string): Promise<CardPaymentReading> {
    return {
      source: 'workflow',
      view: await this.operatorUpdate(externalId, () =>
        this.handle(externalId).startUpdate(closeCardPaymentUpdate, {
          args: [{ reason }],
          waitForStage: WorkflowUpdateStage.ACCEPTED,
        }),
      ),
    };
  }

  /** A refusal (validator) or a payment closed meanwhile: 409 naming its state. */
  private async operatorUpdate(
    externalId: string,
    start: () => Promise<WorkflowUpdateHandle<CardPaymentView>>,
  ): Promise<CardPaymentView> {
    const { view } = await this.read(externalId);
    const outcome = await sendUpdate(
      this.client,
      { acceptMs: this.config.TEMPORAL_CALL_DEADLINE_MS, answerMs: UPDATE_ANSWER_DEADLINE_MS },
      start,
    );
    if (outcome.kind === 'answered') return outcome.result;
    throw new ApiError(
      409,
      'CARD_PAYMENT_NOT_IN_REVIEW',
      outcome.kind === 'refused' ? outcome.reason : `the card payment is ${view.state}`,
    );
  }

  private created(externalId: string, status: CardPaymentState, expiresAt: string): CardPaymentCreated {
    const token = checkoutToken(this.tokenKey, externalId, Date.parse(expiresAt));
    const checkoutUrl = `${this.config.CHECKOUT_PUBLIC_URL ?? this.config.ENGINE_PUBLIC_URL}/checkout/${encodeURIComponent(externalId)}?token=${encodeURIComponent(token)}`;
    return { externalId, status, checkoutUrl, expiresAt, workflowId: cardPaymentWorkflowId(externalId) };
  }

  private handle(externalId: string): WorkflowHandle<CardPaymentWorkflow> {
    return cardPaymentHandle(this.client, externalId);
  }

  private call<T>(call: () => Promise<T>): Promise<T> {
    return withinDeadline(this.client, this.config.TEMPORAL_CALL_DEADLINE_MS, call);
  }
}
