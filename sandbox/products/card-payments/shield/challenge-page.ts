/**
 * The issuer's 3DS challenge as the buyer sees it, inside shield.js's iframe: plain HTML, an Approve
 * and a Deny button posting back to the sandbox (same origin, no script needed), then a page that
 * tells the parent window by postMessage, to the parent's origin only, that the answer is in.
 * The message carries no result: shield.js reads the session from the sandbox.
 */
import { CARD_CURRENCY_MINOR_UNITS } from '../../../../src/payment-api/schemas/card';
import { escapeHtml, htmlPage, scriptJson } from '../../../../src/http/html-page';
import type { ThreeDSSession } from './sessions';

/** The `type` of the message the result page posts to the checkout window. */
export const CHALLENGE_COMPLETE_MESSAGE = 'shield:challenge-complete';

function formatAmount(session: ThreeDSSession): string {
  const units = CARD_CURRENCY_MINOR_UNITS[session.currency];
  const text = String(session.amountMinor).padStart(units + 1, '0');
  const whole = text.slice(0, text.length - units);
  return units === 0 ? `${session.currency} ${whole}` : `${session.currency} ${whole}.${text.slice(-units)}`;
}

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; padding: 24px; color: #1d2733; background: #fff; }
  h1 { font-size: 18px; margin: 0 0 12px; }
  p { line-height: 1.4; }
  form { display: flex; gap: 12px; margin-top: 20px; }
  button { font-size: 16px; padding: 10px 20px; border-radius: 6px; border: 1px solid #8a96a3; background: #f4f6f8; cursor: pointer; }
  button[value="approve"] { background: #14804a; border-color: #14804a; color: #fff; }
  .note { font-size: 12px; color: #5d6b79; }
`;

const page = (title: string, body: string): string => htmlPage({ title, style: STYLE, body });

/** Only a session opened for a card is ever challenged: its last four digits are known. */
export function challengePage(session: ThreeDSSession, parentOrigin: string): string {
  const installments = session.installments === 1 ? 'in one payment' : `in ${session.installments} installments`;
  return page(
    '3-D Secure: confirm your payment',
    `<h1>Sandbox issuer: confirm your payment</h1>
<p>Pay <strong>${escapeHtml(formatAmount(session))}</strong> ${installments} with your ${escapeHtml(session.brand)} card ending in <strong>${escapeHtml(session.cardLast4 ?? '')}</strong>?</p>
<form method="post" action="/shield/challenge/${escapeHtml(session.id)}">
  <input type="hidden" name="parentOrigin" value="${escapeHtml(parentOrigin)}">
  <button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>
<p class="note">This is the sandbox's challenge: no bank is asked, your choice is the issuer's answer.</p>`,
  );
}

/** After an answer (or when the challenge is no longer open): a line for the buyer, a message for the checkout. */
export function challengeAnsweredPage(sessionId: string, parentOrigin: string, text: string): string {
  const message = { type: CHALLENGE_COMPLETE_MESSAGE, sessionId };
  return page(
    '3-D Secure',
    `<p>${escapeHtml(text)}</p>
<script>window.parent.postMessage(${scriptJson(message)}, ${scriptJson(parentOrigin)});</script>`,
  );
}
