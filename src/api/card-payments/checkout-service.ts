/**
 * The checkout's side of a card payment, in the API process: checks the link's token, tells the
 * workflow a card was submitted (an update that answers with the order), claims the authorization's intent,
 * calls endpoint 2 with the card, records the provider's answer in the intent and signals it. The card lives
 * in this one request: never logged, stored or sent to Temporal (brand and last four only). A crash between
 * endpoint 2 and the signal leaves the workflow AUTHORIZING; by its deadline it reads the recorded answer, or
 * (none recorded) goes to NEEDS_REVIEW, where a signed callback or an operator still settles it. An order
 * whose intent was claimed already (a re-run of its workflow) never sends the card again.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateStage, type Client, type WorkflowHandle, type WorkflowUpdateHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { cardBrand, last4 } from '../../card/card';
import type { CardOrder } from '../../card-payments/card-payment-request';
import { cardProblems, threeDSFailureReason, type CheckoutPayment } from '../../card-payments/checkout-payment';
import {
  cardAuthorizationKey,
  recordedAuthorization,
  refusalAnswer,
} from '../../card-payments/card-authorization-intent';
import { verifyCheckoutToken } from '../../card-payments/checkout-token';
import type { Config } from '../../config/env';
import type { IntentStore } from '../../intents/intent-store';
import type { Logger } from '../../logging/logger';
import { centavosToReais, reaisToCentavos } from '../../money/centavos';
import type { PaymentApiClient } from '../../payment-api/client';
import { AuthenticationError, ConnectionError, InvalidRequestError } from '../../payment-api/errors';
import { AmountCents, CardPaymentStatus } from '../../temporal/search-attributes';
import {
  authorizationAnswerSignal,
  cardPaymentStatusQuery,
  failCheckoutUpdate,
  startAuthorizationUpdate,
  type AuthorizationAnswer,
  type CardPaymentWorkflow,
  isCardPaymentState,
  type CardPaymentState,
  readCardPaymentMemo,
  cardPaymentHandle,
} from '../../lifecycles/card-payment-client';
import { ApiError } from '../errors';
import { withinDeadline } from '../temporal-calls';
import { sendUpdate } from '../workflow-updates';
import { readWorkflow } from '../workflow-reading';
import type { CheckoutResult } from './schemas';
import { cardPaymentNotFound } from './service';
import type { ThreeDSRequirement } from './three-ds-requirement';

export type CardCharger = Pick<PaymentApiClient, 'createCardPayment'>;

/** The buyer's page follows its payment once paid: a link that expired meanwhile still reads where it stands (never pays) for this long. */
const STATUS_READ_GRACE_MS = 3_600_000;
export type CheckoutServiceConfig = Pick<Config, 'TEMPORAL_CALL_DEADLINE_MS' | 'ENGINE_PUBLIC_URL'>;

/** The card's callbacks come here (the one callback router). */
export const CARD_CALLBACK_PATH = '/callbacks/card';

export interface CheckoutOrder {
  externalId: string;
  state: CardPaymentState | undefined;
  amountCents: number;
  installmentCount: number;
  expiresAt: string;
}

function resultOf(answer: AuthorizationAnswer, card: { brand: string; last4: string }): CheckoutResult {
  if (answer.kind === 'accepted')
    return { status: 'PENDING', brand: answer.brand ?? card.brand, last4: answer.last4 ?? card.last4 };
  if (answer.kind === 'refused') return { status: 'FAILED', ...card, reason: answer.reason };
  return { status: 'NEEDS_REVIEW', ...card, reason: 'the payment could not be confirmed yet; it is being checked' };
}

export class CheckoutService {
  constructor(
    private readonly client: Client,
    private readonly config: CheckoutServiceConfig,
    private readonly tokenKey: Buffer,
    private readonly provider: CardCharger,
    private readonly intents: Pick<IntentStore, 'claim' | 'record'>,
    private readonly logger: Logger,
    private readonly threeDS: Pick<ThreeDSRequirement, 'required'>,
  ) {}

  /** 401 for a token that is not this payment's, 410 for one past its expiry (plus `graceMs`). */
  verify(externalId: string, token: string, graceMs = 0): void {
    const check = verifyCheckoutToken(this.tokenKey, externalId, token, Date.now() - graceMs);
    if (check.ok) return;
    if (check.reason === 'expired') throw new ApiError(410, 'CHECKOUT_EXPIRED', 'This checkout link has expired');
    throw new ApiError(401, 'INVALID_CHECKOUT_TOKEN', 'This checkout link is not valid');
  }

  /** What the page shows, from the index and the memo: no worker needed. */
  async order(externalId: string): Promise<CheckoutOrder> {
    const description = await this.call(() => this.handle(externalId).describe()).catch((error: unknown) => {
      throw error instanceof WorkflowNotFoundError ? cardPaymentNotFound(externalId) : error;
    });
    const memo = readCardPaymentMemo(description.memo);
    if (!memo) throw cardPaymentNotFound(externalId);
    const state = description.typedSearchAttributes.get(CardPaymentStatus);
    return {
      externalId,
      state: isCardPaymentState(state) ? state : undefined,
      amountCents: description.typedSearchAttributes.get(AmountCents) ?? 0,
      installmentCount: memo.installmentCount,
      expiresAt: memo.expiresAt,
    };
  }

  /** Where the payment stands, for the page that follows it after paying: from the workflow, or (no worker) the index. */
  async status(externalId: string, token: string): Promise<CheckoutResult> {
    this.verify(externalId, token, STATUS_READ_GRACE_MS);
    const reading = await readWorkflow(this.client, this.handle(externalId), {
      deadlineMs: this.config.TEMPORAL_CALL_DEADLINE_MS,
      query: cardPaymentStatusQuery,
      notFound: () => cardPaymentNotFound(externalId),
      fromIndex: (description) => description.typedSearchAttributes.get(CardPaymentStatus),
    });
    if (reading.source === 'index') {
      if (!isCardPaymentState(reading.view))
        throw new ApiError(503, 'WORKER_UNAVAILABLE', 'The payment cannot be read now; retry later');
      return { status: reading.view };
    }
    const { state, brand, last4, failureReason } = reading.view;
    return {
      status: state,
      ...(brand ? { brand } : {}),
      ...(last4 ? { last4 } : {}),
      ...(failureReason ? { reason: failureReason } : {}),
    };
  }

  async pay(externalId: string, payment: CheckoutPayment): Promise<CheckoutResult> {
    this.verify(externalId, payment.token);
    const problems = cardProblems(payment.card, new Date());
    if (problems.length > 0) throw new ApiError(422, 'CARD_INVALID', 'Check the card details', problems);
    // The provider's settings, not the caller, say whether 3DS may be skipped: refused before the order moves or the card leaves.
    if (payment.threeDS === undefined && (await this.threeDS.required())) {
      this.logger.warn('checkout.three_ds_missing', { externalId });
      throw new ApiError(
        422,
        'THREE_DS_REQUIRED',
        "This payment needs the provider's 3DS authentication; pay through the checkout page, which runs it",
        [
          {
            path: 'threeDS',
            message:
              "is required: the provider's 3DS settings enable 3DS (sessionId and threeDS from ShieldHelper.prepareThreeDS)",
          },
        ],
      );
    }
    const card = { brand: cardBrand(payment.card.number), last4: last4(payment.card.number) };
    const order = await this.checkoutUpdate(externalId, (handle) =>
      handle.startUpdate(startAuthorizationUpdate, { args: [card], waitForStage: WorkflowUpdateStage.ACCEPTED }),
    );
    const answer = await this.authorizeOnce(order, payment, card);
    const log = this.logger.child({
      externalId,
      outcome: answer.kind,
      ...(answer.kind === 'accepted' ? { paymentId: answer.paymentId } : {}),
    });
    try {
      await this.call(() => this.handle(externalId).signal(authorizationAnswerSignal, answer));
      log.info('checkout.provider_answered');
    } catch {
      // The workflow goes to NEEDS_REVIEW by its deadline; the provider's callback names the payment and settles it.
      log.error('checkout.answer_not_delivered');
    }
    return resultOf(answer, card);
  }

  async fail(externalId: string, token: string, code: string): Promise<CheckoutResult> {
    this.verify(externalId, token);
    const view = await this.checkoutUpdate(externalId, (handle) =>
      handle.startUpdate(failCheckoutUpdate, {
        args: [{ reason: threeDSFailureReason(code) }],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      }),
    );
    return { status: view.state, ...(view.failureReason ? { reason: view.failureReason } : {}) };
  }

  /**
   * Endpoint 2 at most once per order: the intent is claimed before the card leaves, and the answer recorded in it. A
   * claim held already (an earlier run of the order's workflow took a card) sends nothing: the earlier answer stands.
   */
  private async authorizeOnce(
    order: CardOrder,
    payment: CheckoutPayment,
    card: { brand: string; last4: string },
  ): Promise<AuthorizationAnswer> {
    const key = cardAuthorizationKey(order.externalId);
    const claimant = `checkout:${randomUUID()}`;
    let claim: Awaited<ReturnType<IntentStore['claim']>>;
    try {
      claim = await this.intents.claim(key, claimant);
    } catch {
      this.logger.error('checkout.intent_unavailable', { externalId: order.externalId });
      return {
        kind: 'refused',
        reason: 'the payment could not be started (the engine could not record it); no card was charged',
      };
    }
    if (!(claim.by === 'this-run' && claim.fresh)) {
      const earlier = recordedAuthorization(claim.intent);
      this.logger.warn('checkout.authorization_claimed_before', {
        externalId: order.externalId,
        earlier: earlier.state,
      });
      if (earlier.state === 'accepted') return { kind: 'accepted', paymentId: earlier.paymentId };
      return {
        kind: 'unknown',
        reason: 'a card was sent to the provider for this order already, and its answer is not known',
      };
    }
    const answer = await this.authorize(order, payment, card);
    const update =
      answer.kind === 'accepted'
        ? { state: 'SENT' as const, providerId: String(answer.paymentId) }
        : answer.kind === 'refused'
          ? { state: 'REFUSED' as const, answer: refusalAnswer(answer.reason) }
          : { state: 'UNKNOWN' as const };
    // Unrecorded, the answer still reaches the workflow by the signal; the claim keeps any re-run from sending again.
    await this.intents
      .record(key, claimant, update)
      .catch(() =>
        this.logger.error('checkout.intent_not_recorded', { externalId: order.externalId, outcome: answer.kind }),
      );
    return answer;
  }

  /** Endpoint 2. Only a definite refusal is FAILED; an answer that may hide a charge is "unknown". */
  private async authorize(
    order: CardOrder,
    payment: CheckoutPayment,
    card: { brand: string; last4: string },
  ): Promise<AuthorizationAnswer> {
    try {
      const { data } = await this.provider.createCardPayment({
        amount: centavosToReais(order.amountCents),
        ...(order.description ? { description: order.description } : {}),
        externalReference: order.externalId,
        installmentCount: order.installmentCount,
        dueDate: new Date().toISOString().slice(0, 10),
        clientCallbackUrl: `${this.config.ENGINE_PUBLIC_URL}${CARD_CALLBACK_PATH}`,
        payer: {
          name: order.payer.name,
          email: order.payer.email,
          document: order.payer.document,
          phone: `+${order.payer.phone}`,
        },
        creditCard: {
          holderName: payment.card.holderName.trim(),
          number: payment.card.number,
          expiryMonth: payment.card.expiryMonth,
          expiryYear: payment.card.expiryYear,
          ccv: payment.card.cvv,
          currency: 'BRL',
          ...(payment.sessionId ? { sessionId: payment.sessionId } : {}),
          ...(payment.threeDS ? { threeDS: payment.threeDS } : {}),
        },
        creditCardToken: payment.cardToken,
        ...(order.items
          ? {
              items: order.items.map(({ amountCents, title, quantity, tangible, externalRef }) => ({
                title,
                quantity,
                amount: centavosToReais(amountCents),
                ...(tangible !== undefined ? { tangible } : {}),
                ...(externalRef !== undefined ? { externalRef } : {}),
              })),
            }
          : {}),
      });
      // data.id is what the engine needs; the rest as far as the answer showed it, the card's own brand and digits otherwise.
      return {
        kind: 'accepted',
        paymentId: data.id,
        brand: data.brand ?? card.brand,
        last4: data.last4 ?? card.last4,
        ...(data.status ? { providerStatus: data.status } : {}),
        ...(data.netValue === undefined ? {} : { netValueCents: reaisToCentavos(data.netValue) }),
        // Accepted with this authentication: its ECI (the security module's result the provider checked) is the payment's.
        ...(payment.threeDS ? { eci: payment.threeDS.eci } : {}),
      };
    } catch (error) {
      // The provider refused before acting (or was never reached): nothing was charged.
      if (
        error instanceof InvalidRequestError ||
        error instanceof AuthenticationError ||
        error instanceof ConnectionError
      )
        return { kind: 'refused', reason: error.message };
      return {
        kind: 'unknown',
        reason: `the provider's answer was lost (${error instanceof Error ? error.name : 'error'})`,
      };
    }
  }

  /** 409 when the workflow refuses (no longer awaiting a card) or has closed, 404 when it does not exist. */
  private async checkoutUpdate<R>(
    externalId: string,
    start: (handle: WorkflowHandle<CardPaymentWorkflow>) => Promise<WorkflowUpdateHandle<R>>,
  ): Promise<R> {
    // Both updates are answered in the workflow task that takes them: the call deadline bounds the answer too.
    const deadline = this.config.TEMPORAL_CALL_DEADLINE_MS;
    const outcome = await sendUpdate(this.client, { acceptMs: deadline, answerMs: deadline }, () =>
      start(this.handle(externalId)),
    );
    if (outcome.kind === 'answered') return outcome.result;
    if (outcome.kind === 'refused') throw new ApiError(409, 'CHECKOUT_CLOSED', outcome.reason);
    // A closed workflow takes no update: it exists (409) or never did (404, from order()).
    const { state } = await this.order(externalId);
    throw new ApiError(409, 'CHECKOUT_CLOSED', `the card payment is ${state ?? 'closed'}: its checkout takes no card`);
  }

  private handle(externalId: string): WorkflowHandle<CardPaymentWorkflow> {
    return cardPaymentHandle(this.client, externalId);
  }

  private call<T>(call: () => Promise<T>): Promise<T> {
    return withinDeadline(this.client, this.config.TEMPORAL_CALL_DEADLINE_MS, call);
  }
}
