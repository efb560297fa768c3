/**
 * One card payment, id `card-payment:<externalId>`, from the merchant's request to a confirmed outcome.
 * This function only wires the messages to the state machine (./card-payment.ts) and runs it.
 */
import { setHandler } from '@temporalio/workflow';
import { closeWith } from '../shared/pending-updates';
import type { CardPaymentInput } from '../../src/card-payments/card-payment-input';
import { CardPayment } from './card-payment';
import {
  authorizationAnswerSignal,
  cardCallbackSignal,
  cardPaymentStatusQuery,
  closeCardPaymentUpdate,
  failCheckoutUpdate,
  recheckCardPaymentUpdate,
  startAuthorizationUpdate,
} from '../../src/contracts/card-payment';
import type { CardPaymentView } from '../../src/contracts/card-payment';

export async function cardPaymentWorkflow(input: CardPaymentInput): Promise<CardPaymentView> {
  const payment = new CardPayment(input);
  setHandler(cardPaymentStatusQuery, () => payment.view());
  setHandler(startAuthorizationUpdate, (card) => payment.startAuthorization(card), {
    validator: (_card) => payment.validateCheckout(),
  });
  setHandler(failCheckoutUpdate, (failure) => payment.failCheckout(failure), {
    validator: (_failure) => payment.validateCheckout(),
  });
  setHandler(recheckCardPaymentUpdate, (request) => payment.recheck(request), {
    validator: (request: { providerPaymentId?: number }) => payment.validateRecheck(request),
  });
  setHandler(closeCardPaymentUpdate, (request) => payment.close(request), {
    validator: (_request) => payment.validateClose(),
  });
  setHandler(authorizationAnswerSignal, (answer) => payment.onAnswer(answer));
  setHandler(cardCallbackSignal, (hint) => payment.onCallback(hint));
  return closeWith(await payment.run(), payment.events, payment.rows);
}
