/**
 * What endpoint 2 checks of the browser's work before it charges, as a real acquirer would:
 * - creditCardToken, when sent, opens with the environment's key to the very card of `creditCard`;
 * - creditCard.sessionId and creditCard.threeDS come together; the session exists, is authenticated,
 *   unused and unexpired, and was opened for this card, amount, currency and installment count; the
 *   threeDS fields are the session's result;
 * - a card whose issuer demands 3DS (the challenge test card) is refused without them, unless the
 *   environment does not enable 3DS (SANDBOX_SHIELD_THREE_DS=off);
 * - a session opened without a card (SANDBOX_SHIELD_THREE_DS=spec) fits any card.
 * Every failure is a 422 naming each field; no message carries card data.
 */
import {
  amountInMinorUnits,
  DEFAULT_CARD_CURRENCY,
  type CardPaymentInput,
} from '../../../src/payment-api/schemas/card';
import type { ErrorIssue } from '../../../src/payment-api/schemas/errors';
import type { CardTokenPayload } from '../../../src/payment-api/schemas/security-module';
import type { SandboxContext } from '../../context';
import { providerError } from '../../http/errors';
import { openCardToken, shieldKeys } from './shield/card-token';
import { findSession, type ThreeDSSession } from './shield/sessions';
import { requiresChallenge } from './test-cards';

type CreditCard = CardPaymentInput['creditCard'];

const normalizedName = (name: string): string => name.trim().replace(/\s+/g, ' ').toUpperCase();

function tokenMismatches(token: CardTokenPayload, card: CreditCard): string[] {
  const fields: [field: string, same: boolean][] = [
    ['number', token.number === card.number],
    ['holderName', normalizedName(token.holderName) === normalizedName(card.holderName)],
    ['expiryMonth', token.expMonth === Number(card.expiryMonth)],
    ['expiryYear', token.expYear === Number(card.expiryYear)],
    ['ccv', token.cvv === card.ccv],
  ];
  return fields.filter(([, same]) => !same).map(([field]) => field);
}

function checkToken(ctx: SandboxContext, token: string, card: CreditCard): void {
  const opened = openCardToken(shieldKeys(ctx.db), token);
  if (!opened) {
    throw providerError('INVALID_CARD_TOKEN', 'The card token is not a token of this environment', [
      {
        path: 'creditCardToken',
        message: "does not decrypt with this environment's key (use module.encrypt of shield.js)",
      },
    ]);
  }
  const mismatches = tokenMismatches(opened, card);
  if (mismatches.length > 0) {
    throw providerError(
      'INVALID_CARD_TOKEN',
      'The card token is of another card',
      mismatches.map((field) => ({ path: 'creditCardToken', message: `does not match creditCard.${field}` })),
    );
  }
}

const STATUS_PROBLEM: Record<Exclude<ThreeDSSession['status'], 'AUTHENTICATED'>, string> = {
  CHALLENGE_REQUIRED: 'its challenge was not answered',
  DENIED: 'the buyer denied its challenge',
  EXPIRED: 'it expired',
  USED: 'it was already used by another payment',
};

function sessionProblems(session: ThreeDSSession, input: CardPaymentInput, amountCentavos: number): ErrorIssue[] {
  if (session.status !== 'AUTHENTICATED')
    return [
      { path: 'creditCard.sessionId', message: `the 3DS session cannot be used: ${STATUS_PROBLEM[session.status]}` },
    ];
  const { creditCard } = input;
  const currency = creditCard.currency ?? DEFAULT_CARD_CURRENCY;
  const issues: ErrorIssue[] = [];
  if (amountInMinorUnits(amountCentavos, currency) !== session.amountMinor || currency !== session.currency) {
    issues.push({ path: 'amount', message: 'differs from the amount authenticated in the 3DS session' });
  }
  if (input.installmentCount !== session.installments)
    issues.push({ path: 'installmentCount', message: 'differs from the installments of the 3DS session' });
  if (
    session.cardBin !== null &&
    session.cardLast4 !== null &&
    (!creditCard.number.startsWith(session.cardBin) || !creditCard.number.endsWith(session.cardLast4))
  ) {
    issues.push({ path: 'creditCard.number', message: 'is not the card authenticated in the 3DS session' });
  }
  const sent = creditCard.threeDS;
  const result = session.threeDS;
  if (sent && result) {
    if (sent.cavv !== result.cavv)
      issues.push({ path: 'creditCard.threeDS.cavv', message: 'is not the 3DS session result' });
    if (sent.eci !== result.eci)
      issues.push({ path: 'creditCard.threeDS.eci', message: 'is not the 3DS session result' });
    if (sent.version !== result.version)
      issues.push({ path: 'creditCard.threeDS.version', message: 'is not the 3DS session result' });
    // Optional in the schema (3DS 2 may omit them), but when sent they must be the session's.
    if (sent.xid !== undefined && sent.xid !== result.xid)
      issues.push({ path: 'creditCard.threeDS.xid', message: 'is not the 3DS session result' });
    if (sent.referenceId !== undefined && sent.referenceId !== result.referenceId) {
      issues.push({ path: 'creditCard.threeDS.referenceId', message: 'is not the 3DS session result' });
    }
  }
  return issues;
}

/**
 * Runs the checks; answers the id of the 3DS session the payment will use (and mark used in its
 * transaction), or undefined for a payment without 3DS.
 */
export function checkCardAuthentication(
  ctx: SandboxContext,
  input: CardPaymentInput,
  amountCentavos: number,
): string | undefined {
  const { creditCard } = input;
  if (input.creditCardToken !== undefined) checkToken(ctx, input.creditCardToken, creditCard);

  const { sessionId, threeDS } = creditCard;
  if (sessionId === undefined && threeDS === undefined) {
    // A provider whose settings say 3DS is not enabled (SANDBOX_SHIELD_THREE_DS=off) charges the card as it is.
    if (requiresChallenge(creditCard.number) && ctx.config.SANDBOX_SHIELD_THREE_DS !== 'off') {
      throw providerError('THREE_DS_REQUIRED', 'The issuer requires 3DS authentication for this card', [
        {
          path: 'creditCard.threeDS',
          message:
            'required for this card: authenticate with ShieldHelper.prepareThreeDS and send creditCard.sessionId and creditCard.threeDS',
        },
      ]);
    }
    return undefined;
  }
  if (sessionId === undefined || threeDS === undefined) {
    const missing = sessionId === undefined ? 'creditCard.sessionId' : 'creditCard.threeDS';
    const other = sessionId === undefined ? 'creditCard.threeDS' : 'creditCard.sessionId';
    throw providerError('THREE_DS_INVALID', 'The 3DS data is incomplete', [
      { path: missing, message: `required with ${other}` },
    ]);
  }
  const session = findSession(ctx, sessionId);
  const issues = session
    ? sessionProblems(session, input, amountCentavos)
    : [{ path: 'creditCard.sessionId', message: 'no such 3DS session' }];
  if (issues.length > 0)
    throw providerError('THREE_DS_INVALID', 'The 3DS authentication does not fit this payment', issues);
  return sessionId;
}
