/**
 * What a checkout page does with shield.js, done from Node over HTTP for the tests that need a 3DS
 * result but not a browser: the token as module.encrypt makes it (RSA-OAEP SHA-256), a 3DS session as
 * prepareThreeDS opens it, and the buyer's answer to a challenge.
 */
import { encryptCardToken } from '../../src/payment-api/shield-card-token';
import type { CardTokenPayload, ThreeDSSessionResponse } from '../../src/payment-api/schemas/security-module';
import type { Answer, TestSandbox } from '../helpers/sandbox';

export const nextYear = new Date().getUTCFullYear() + 1;

export function testCard(number: string, overrides: Partial<CardTokenPayload> = {}): CardTokenPayload {
  return { number, holderName: 'ANA SOUZA', expMonth: 12, expYear: nextYear, cvv: '8642', ...overrides };
}

/** Endpoint 2's creditCard for the same card. */
export function creditCardOf(card: CardTokenPayload) {
  return {
    holderName: card.holderName,
    number: card.number,
    expiryMonth: String(card.expMonth).padStart(2, '0'),
    expiryYear: String(card.expYear),
    ccv: card.cvv,
  };
}

export async function environmentKey(sb: TestSandbox): Promise<string> {
  const answer = await sb.call<{ publicKey: string }>('GET', '/shield/public-key');
  if (answer.status !== 200) throw new Error(`public key: ${answer.status}`);
  return answer.body.publicKey;
}

export const cardToken = encryptCardToken;

export async function openSession(
  sb: TestSandbox,
  request: { card: CardTokenPayload; amount: number; installments?: number; currency?: string; origin?: string },
): Promise<Answer<ThreeDSSessionResponse & { code?: string; issues?: { path: string; message: string }[] }>> {
  const publicKey = await environmentKey(sb);
  return sb.call('POST', '/shield/sessions', {
    body: {
      publicKey,
      amount: request.amount,
      installments: request.installments ?? 1,
      currency: request.currency ?? 'BRL',
      cardToken: cardToken(publicKey, request.card),
    },
    // A browser's fetch from the checkout page names the page's origin.
    ...(request.origin ? { headers: { origin: request.origin } } : {}),
  });
}

/** The buyer clicks Approve or Deny on the challenge page (the form it posts). */
export async function answerChallenge(
  sb: TestSandbox,
  sessionId: string,
  decision: 'approve' | 'deny',
  parentOrigin = 'http://127.0.0.1:1',
): Promise<{ status: number; html: string }> {
  const response = await fetch(`${sb.url}/shield/challenge/${sessionId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision, parentOrigin }).toString(),
  });
  return { status: response.status, html: await response.text() };
}
