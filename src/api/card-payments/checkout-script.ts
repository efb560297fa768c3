/**
 * The checkout page's script, served as GET /checkout/assets/checkout.js (no inline script: the page's
 * CSP allows none). It runs the spec's "Browser-side 3DS preparation" with the provider's shield.js:
 * 1 the script (loaded by the page), 2 the module and the public key, 3 the 3DS settings, 4 the amount in
 * cents, 6 the card token (before 5: the provider picks the 3DS flow by the card), 5 prepareThreeDS
 * (frictionless, or the issuer's challenge in an iframe), 7 card + token + 3DS result to the engine,
 * which calls the provider. A 3DS that did not authenticate the buyer is reported instead.
 */
export const CHECKOUT_SCRIPT = `(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('checkout-config').textContent);
  var form = document.getElementById('card-form');
  var button = document.getElementById('pay-button');
  var status = document.getElementById('checkout-status');

  function show(message, kind, state) {
    status.textContent = message;
    status.setAttribute('data-kind', kind);
    if (state) status.setAttribute('data-status', state);
  }

  function field(name) {
    return form.elements.namedItem(name).value.trim();
  }

  var MESSAGES = {
    PENDING: 'Payment authorized. Confirming with your bank...',
    PAID: 'Payment confirmed. Thank you!',
    NEEDS_REVIEW: 'We could not confirm your payment yet. The merchant will check it; do not pay again.',
  };

  function showResult(result) {
    var card = result.brand && result.last4 ? ' (' + result.brand + ' ending in ' + result.last4 + ')' : '';
    if (result.status === 'FAILED') show('Payment failed: ' + (result.reason || 'refused') + card, 'error', result.status);
    else show((MESSAGES[result.status] || result.status) + card, 'done', result.status);
  }

  async function post(url, body) {
    var response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    var answer = null;
    try {
      answer = await response.json();
    } catch (error) {
      /* Not JSON: the status says what went wrong. */
    }
    if (!response.ok) {
      var issues = answer && answer.issues ? ': ' + answer.issues.map(function (issue) { return issue.path.replace(/^card\\./, '') + ' ' + issue.message; }).join('; ') : '';
      var failure = new Error(((answer && answer.message) || 'HTTP ' + response.status) + issues);
      failure.retryable = response.status === 400 || response.status === 422;
      throw failure;
    }
    return answer;
  }

  function clearSecrets() {
    form.elements.namedItem('cc-number').value = '';
    form.elements.namedItem('cc-csc').value = '';
  }

  /* Step 2: the module named by the helper, with the environment's fixed public key. */
  var shieldModule = window[ShieldHelper.getModuleName()];
  shieldModule.setPublicKey(config.publicKey);
  /* Only now can a card be taken: the button stays disabled if the provider's script did not load. */
  button.disabled = false;

  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    button.disabled = true;
    show('Processing your payment...', 'busy');
    var card = {
      holderName: field('cc-name'),
      number: field('cc-number').replace(/[\\s-]/g, ''),
      expiryMonth: field('cc-exp-month').padStart(2, '0'),
      expiryYear: field('cc-exp-year'),
      cvv: field('cc-csc'),
    };
    var prepared;
    try {
      /* Step 3: the 3DS settings. */
      var settings = await (await fetch(config.settingsUrl + '?publicKey=' + encodeURIComponent(config.publicKey))).json();
      if (!settings.currencies || !(config.currency in settings.currencies)) throw new Error('this payment method does not take ' + config.currency);
      /* Step 4: the amount in cents. */
      var amount = ShieldHelper.convertDecimalToCents(config.amount, config.currency);
      /* Step 6: the card token. */
      var cardToken = await shieldModule.encrypt({ number: card.number, holderName: card.holderName, expMonth: Number(card.expiryMonth), expYear: Number(card.expiryYear), cvv: card.cvv });
      /* Step 5: 3DS, frictionless or with the issuer's challenge. */
      var result = await ShieldHelper.prepareThreeDS({ amount: amount, installments: config.installments, currency: config.currency, cardToken: cardToken });
      prepared = { cardToken: cardToken, sessionId: result.sessionId, threeDS: result.threeDS };
    } catch (error) {
      if (error && error.name === 'ShieldError' && /^THREE_DS_/.test(error.code || '')) {
        clearSecrets();
        try {
          showResult(await post(config.failUrl, { token: config.token, code: error.code }));
        } catch (failure) {
          show(failure.message, 'error');
        }
        return;
      }
      show('Check the card details: ' + (error && error.message ? error.message : 'they could not be read'), 'error');
      button.disabled = false;
      return;
    }
    /* Step 7: to the engine, which calls the provider. */
    try {
      var answer = await post(config.payUrl, { token: config.token, card: card, cardToken: prepared.cardToken, sessionId: prepared.sessionId, threeDS: prepared.threeDS });
      clearSecrets();
      showResult(answer);
    } catch (failure) {
      show(failure.message, 'error');
      button.disabled = !failure.retryable;
    }
  });
})();
`;
