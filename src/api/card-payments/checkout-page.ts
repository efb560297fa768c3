/**
 * The checkout page: plain HTML, no framework, accessible (labels, a live status region, standard
 * `autocomplete` names so browsers and password managers fill the card). Its script (./checkout-script.ts)
 * runs the spec's browser steps with the provider's shield.js. The Content-Security-Policy lets scripts,
 * fetches and frames come from this origin and the provider's only, and styles only from the page's own
 * <style> element, by its hash (computed here from the text served, so an edited style stays allowed);
 * with PAYMENT_SHIELD_SCRIPT_INTEGRITY the browser runs the provider's script only if it is the expected
 * one (Subresource Integrity: PCI DSS 4.0 6.4.3). The Pay button is disabled until the page's script has
 * the provider's module in hand: a script refused or missing leaves a form that cannot be sent at all
 * (not one the browser would send by itself, card and all, in a URL). The page is never cached or
 * framed, and sends no Referer (its URL carries the token).
 */
import { createHash } from 'node:crypto';
import { formatCentavos } from '../../money/centavos';
import { escapeHtml, htmlPage, scriptJson } from '../../http/html-page';
import type { CheckoutOrder } from './checkout-service';
import type { ShieldArguments, ShieldStepOrder } from './shield-config';

export interface CheckoutPageConfig {
  publicKey: string;
  /** The provider's shield.js ({shield_script_url}) and 3DS settings ({shield_settings_url}) as the browser reaches them. */
  scriptUrl: string;
  settingsUrl: string;
  /** PAYMENT_SHIELD_STEP_ORDER: prepareThreeDS before module.encrypt (`spec`), or after it with the card token. */
  stepOrder: ShieldStepOrder;
  /** PAYMENT_SHIELD_ARGUMENTS: how prepareThreeDS and module.encrypt take the arguments the spec names. */
  arguments: ShieldArguments;
  token: string;
  /** The expected hash of the provider's script (`sha384-…`): the browser refuses any other. */
  shieldIntegrity?: string;
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d2330;margin:0;padding:2rem 1rem}
main{max-width:26rem;margin:0 auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:1.5rem 1.75rem}
h1{font-size:1.25rem;margin:0 0 .25rem}
.amount{font-size:1.75rem;font-weight:700;margin:.25rem 0 1.25rem}
fieldset{border:0;padding:0;margin:0}
legend{font-weight:600;margin-bottom:.75rem}
label{display:block;font-size:.875rem;font-weight:600;margin:.75rem 0 .25rem}
input{box-sizing:border-box;width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #aab1bf;border-radius:6px}
input:focus{outline:3px solid #8ab4f8;border-color:#2f6fde}
.row{display:flex;gap:.75rem;align-items:flex-end}.row>div{flex:1}
button{margin-top:1.25rem;width:100%;font:inherit;font-weight:700;padding:.75rem;border:0;border-radius:6px;background:#2f6fde;color:#fff;cursor:pointer}
button:disabled{background:#8c99b3;cursor:progress}
[role=status]{margin-top:1rem;min-height:1.5rem}
[data-kind=error]{color:#b3261e}[data-kind=done]{color:#1e7b34}
.note{font-size:.8rem;color:#5b6475;margin-top:1rem}`;

/** The CSP source of the one <style> the pages carry: its hash, as the browser computes it over the element's text. */
const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;

function contentSecurityPolicy(shieldOrigins: readonly string[]): string {
  const origins = shieldOrigins.join(' ');
  return [
    "default-src 'none'",
    `script-src 'self' ${origins}`,
    `connect-src 'self' ${origins}`,
    `frame-src ${origins}`,
    `style-src ${STYLE_SOURCE}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Headers of every checkout answer: no caching, no framing, no Referer carrying the token away. */
export function checkoutHeaders(shieldOrigins: readonly string[]): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(shieldOrigins),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  };
}

function layout(title: string, body: string, head = ''): string {
  return htmlPage({ title, style: STYLE, head, body: `<main>\n${body}\n</main>` });
}

/** A page that only says something (a closed, expired or unknown checkout). */
export function checkoutMessagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p role="status">${escapeHtml(message)}</p>`);
}

const CLOSED_MESSAGES: Partial<Record<NonNullable<CheckoutOrder['state']>, string>> = {
  AUTHORIZING: 'Your card is being authorized.',
  PENDING: 'Your payment was authorized and is being confirmed.',
  PAID: 'This order is paid. Thank you!',
  FAILED: 'The payment did not go through. Ask the merchant for a new payment link.',
  EXPIRED: 'This checkout has expired. Ask the merchant for a new payment link.',
  NEEDS_REVIEW: 'Your payment is being checked. The merchant will confirm it.',
};

export function checkoutPage(order: CheckoutOrder, page: CheckoutPageConfig): string {
  const amount = `R$ ${formatCentavos(order.amountCents).replace('.', ',')}`;
  const installments = order.installmentCount > 1 ? ` in ${order.installmentCount} installments` : '';
  const closed = order.state && order.state !== 'AWAITING_CARD' ? CLOSED_MESSAGES[order.state] : undefined;
  if (closed) return checkoutMessagePage('Checkout', closed);
  const base = `/checkout/${encodeURIComponent(order.externalId)}`;
  const config = {
    publicKey: page.publicKey,
    settingsUrl: page.settingsUrl,
    encryptFirst: page.stepOrder === 'encrypt-first',
    positionalArguments: page.arguments === 'positional',
    amount: formatCentavos(order.amountCents),
    currency: 'BRL',
    installments: order.installmentCount,
    payUrl: `${base}/pay`,
    failUrl: `${base}/fail`,
    statusUrl: `${base}/status`,
    token: page.token,
  };
  const integrity = page.shieldIntegrity
    ? ` integrity="${escapeHtml(page.shieldIntegrity)}" crossorigin="anonymous"`
    : '';
  const head = `<script src="${escapeHtml(page.scriptUrl)}"${integrity}></script>
<script type="application/json" id="checkout-config">${scriptJson(config)}</script>
<script src="/checkout/assets/checkout.js" defer></script>
`;
  const body = `<h1>Pay by card</h1>
<p class="amount" id="amount">${escapeHtml(amount)}${escapeHtml(installments)}</p>
<form id="card-form" novalidate>
<fieldset>
<legend>Card details</legend>
<label for="cc-name">Name on card</label>
<input id="cc-name" name="cc-name" autocomplete="cc-name" required maxlength="100" autocapitalize="characters" spellcheck="false">
<label for="cc-number">Card number</label>
<input id="cc-number" name="cc-number" autocomplete="cc-number" inputmode="numeric" required maxlength="23" spellcheck="false">
<div class="row">
<div><label for="cc-exp-month">Expiry month (MM)</label>
<input id="cc-exp-month" name="cc-exp-month" autocomplete="cc-exp-month" inputmode="numeric" required maxlength="2" placeholder="MM"></div>
<div><label for="cc-exp-year">Expiry year (YYYY)</label>
<input id="cc-exp-year" name="cc-exp-year" autocomplete="cc-exp-year" inputmode="numeric" required maxlength="4" placeholder="YYYY"></div>
<div><label for="cc-csc">Security code</label>
<input id="cc-csc" name="cc-csc" autocomplete="cc-csc" inputmode="numeric" required maxlength="4" type="password"></div>
</div>
</fieldset>
<button type="submit" id="pay-button" disabled>Pay ${escapeHtml(amount)}</button>
</form>
<p id="checkout-status" role="status" aria-live="polite"></p>
<p class="note">Your bank may ask you to confirm this payment (3-D Secure). Card details are passed to the payment provider and never stored here.</p>`;
  return layout(`Pay ${amount}`, body, head);
}
