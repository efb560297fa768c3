/*
 * The checkout page's script, served as GET /checkout/assets/checkout.js (no inline script: the page's
 * CSP allows none). It runs the spec's "Browser-side 3DS preparation" with the provider's shield.js:
 * 1 the script (loaded by the page), 2 the module and the public key, 3 the 3DS settings, 4 the amount in
 * cents, 5 prepareThreeDS (frictionless, or the issuer's challenge in an iframe), 6 the card token, 7 card
 * + token + 3DS result to the engine, which calls the provider. Steps 5 and 6 run in the spec's order, with
 * the spec's arguments (PAYMENT_SHIELD_STEP_ORDER=spec, the default), or 6 first with the token given to
 * prepareThreeDS, for a module that wants the card that way (encrypt-first); their arguments go as one object or
 * one by one in the spec's order (PAYMENT_SHIELD_ARGUMENTS); 5 is skipped when the settings'
 * threeDS.enabled is false. The settings are read by what the page needs: a `currencies` list that leaves out
 * the order's currency stops the checkout, an absent one restricts nothing. A 3DS that did not authenticate the
 * buyer is reported instead. A provider that cannot be reached (its script, its settings) is said so, and no
 * card is taken. Once the provider took the card, the page follows the payment (GET .../status, backing off,
 * for at most three minutes) and tells the buyer its outcome in their words: paid, declined, challenge refused,
 * expired.
 */
/* global ShieldHelper -- defined by the provider's shield.js, which the page loads first */
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('checkout-config').textContent);
  var form = document.getElementById('card-form');
  var button = document.getElementById('pay-button');
  var status = document.getElementById('checkout-status');

  /* data-status: where the payment stands; data-final: the page's last word on it (the outcome is known, or it stopped following). */
  function show(message, kind, state, final) {
    status.textContent = message;
    status.setAttribute('data-kind', kind);
    if (state) status.setAttribute('data-status', state);
    if (final) status.setAttribute('data-final', 'true');
  }

  function field(name) {
    return form.elements.namedItem(name).value.trim();
  }

  var NEW_LINK = ' No payment was made. To try again, ask the merchant for a new payment link.';
  /* What each outcome means to the buyer: [words, kind, final]. */
  var OUTCOMES = {
    AUTHORIZING: ['Payment authorized. Confirming with your bank...', 'busy', false],
    PENDING: ['Payment authorized. Confirming with your bank...', 'busy', false],
    PAID: ['Payment confirmed. Thank you! Your order is paid.', 'done', true],
    EXPIRED: ['This checkout has expired.' + NEW_LINK, 'error', true],
    NEEDS_REVIEW: [
      'We could not confirm your payment yet. The merchant will check it and let you know; do not pay again.',
      'busy',
      true,
    ],
  };
  /* A 3DS that did not authenticate the buyer, by the security module's code. */
  var CHALLENGE_WORDS = {
    THREE_DS_DENIED: 'You did not confirm the payment with your bank.' + NEW_LINK,
    THREE_DS_ABANDONED: 'The confirmation with your bank was not completed in time.' + NEW_LINK,
  };

  function cardOf(result) {
    return result.brand && result.last4 ? ' (' + result.brand + ' ending in ' + result.last4 + ')' : '';
  }

  function showResult(result, challengeCode) {
    if (result.status === 'FAILED') {
      var words = challengeCode
        ? CHALLENGE_WORDS[challengeCode] || 'Your bank could not confirm the payment.' + NEW_LINK
        : 'Your card was declined' +
          cardOf(result) +
          (result.reason ? ': ' + result.reason + '.' : '.') +
          ' No payment was made. To try another card, ask the merchant for a new payment link.';
      show(words, 'error', 'FAILED', true);
      return;
    }
    var outcome = OUTCOMES[result.status] || [result.status, 'busy', true];
    show(outcome[0] + (outcome[2] ? '' : cardOf(result)), outcome[1], result.status, outcome[2]);
  }

  function sleep(ms) {
    return new Promise(function (resolve) {
      setTimeout(resolve, ms);
    });
  }

  function isFinal(state) {
    return state === 'FAILED' || !OUTCOMES[state] || OUTCOMES[state][2];
  }

  /* After the provider took the card: follow the payment to its outcome, within a bound, then say so. */
  var FOLLOW_FOR_MS = 180000;
  async function follow(result) {
    var until = Date.now() + FOLLOW_FOR_MS;
    var wait = 1000;
    while (!isFinal(result.status)) {
      if (Date.now() + wait > until) {
        show(
          'Your bank is still confirming the payment. You can close this page: the merchant will confirm it. Do not pay again.',
          'busy',
          result.status,
          true,
        );
        return;
      }
      await sleep(wait);
      wait = Math.min(wait * 2, 5000);
      try {
        result = await get(config.statusUrl + '?token=' + encodeURIComponent(config.token));
      } catch (failure) {
        if (!failure.retryable) {
          show(failure.message, 'error', undefined, true);
          return;
        }
      }
    }
    showResult(result);
  }

  async function get(url) {
    var response = await fetch(url, { headers: { Accept: 'application/json' } });
    if (response.ok) return response.json();
    var failure = new Error(
      response.status === 410
        ? OUTCOMES.EXPIRED[0]
        : 'The payment could not be followed (HTTP ' +
            response.status +
            '). The merchant will confirm it; do not pay again.',
    );
    /* A busy or unreachable engine is asked again; a refused link is not. */
    failure.retryable = response.status >= 500 || response.status === 429;
    throw failure;
  }

  async function post(url, body) {
    var response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    var answer = null;
    try {
      answer = await response.json();
    } catch {
      /* Not JSON: the status says what went wrong. */
    }
    if (!response.ok) {
      var issues =
        answer && answer.issues
          ? ': ' +
            answer.issues
              .map(function (issue) {
                return issue.path.replace(/^card\./, '') + ' ' + issue.message;
              })
              .join('; ')
          : '';
      var failure = new Error(
        response.status === 410
          ? OUTCOMES.EXPIRED[0]
          : ((answer && answer.message) || 'HTTP ' + response.status) + issues,
      );
      failure.retryable = response.status === 400 || response.status === 422;
      throw failure;
    }
    return answer;
  }

  /* The settings' currencies: absent, no restriction; else an object keyed by currency, or a list of them. */
  function takesCurrency(currencies, currency) {
    if (currencies === undefined || currencies === null) return true;
    if (Array.isArray(currencies)) return currencies.indexOf(currency) !== -1;
    return typeof currencies === 'object' && Object.prototype.hasOwnProperty.call(currencies, currency);
  }

  function clearSecrets() {
    form.elements.namedItem('cc-number').value = '';
    form.elements.namedItem('cc-csc').value = '';
  }

  var UNAVAILABLE =
    'The payment provider cannot be reached right now, so no card can be taken. No payment was made; try again later.';
  /* Step 1 failed (the provider's script did not load, or was refused): the button stays disabled. */
  if (typeof window.ShieldHelper === 'undefined') {
    show(UNAVAILABLE, 'error', undefined, true);
    return;
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
      number: field('cc-number').replace(/[\s-]/g, ''),
      expiryMonth: field('cc-exp-month').padStart(2, '0'),
      expiryYear: field('cc-exp-year'),
      cvv: field('cc-csc'),
    };
    /* Step 3: the 3DS settings. The provider unreachable or refusing this shop's key: nothing to do but say so. */
    var settings;
    try {
      var settingsResponse = await fetch(config.settingsUrl + '?publicKey=' + encodeURIComponent(config.publicKey));
      if (!settingsResponse.ok) throw new Error('HTTP ' + settingsResponse.status);
      settings = await settingsResponse.json();
    } catch {
      clearSecrets();
      show(UNAVAILABLE, 'error', undefined, true);
      return;
    }
    var prepared;
    try {
      if (!takesCurrency(settings.currencies, config.currency))
        throw new Error('this payment method does not take ' + config.currency);
      /* Step 4: the amount in cents. */
      var amount = ShieldHelper.convertDecimalToCents(config.amount, config.currency);
      /* The spec names the arguments of steps 5 and 6, in order: passed as one object, or one by one (PAYMENT_SHIELD_ARGUMENTS). */
      var call = function (fn, self, named) {
        return config.positionalArguments
          ? fn.apply(
              self,
              named.map(function (entry) {
                return entry[1];
              }),
            )
          : fn.call(self, Object.fromEntries(named));
      };
      var threeDS = [
        ['amount', amount],
        ['installments', config.installments],
        ['currency', config.currency],
      ];
      var encrypt = function () {
        return call(shieldModule.encrypt, shieldModule, [
          ['number', card.number],
          ['holderName', card.holderName],
          ['expMonth', Number(card.expiryMonth)],
          ['expYear', Number(card.expiryYear)],
          ['cvv', card.cvv],
        ]);
      };
      if (settings.threeDS && settings.threeDS.enabled === false) {
        /* No 3DS: step 6 alone. */
        prepared = { cardToken: await encrypt() };
      } else if (config.encryptFirst) {
        /* Step 6, then step 5 with the token: the provider's module picks frictionless or challenge by the card. */
        var token = await encrypt();
        var byCard = await call(ShieldHelper.prepareThreeDS, ShieldHelper, threeDS.concat([['cardToken', token]]));
        prepared = { cardToken: token, sessionId: byCard.sessionId, threeDS: byCard.threeDS };
      } else {
        /* Step 5, frictionless or with the issuer's challenge, then step 6: the spec's order and arguments. */
        var result = await call(ShieldHelper.prepareThreeDS, ShieldHelper, threeDS);
        prepared = { cardToken: await encrypt(), sessionId: result.sessionId, threeDS: result.threeDS };
      }
    } catch (error) {
      if (error && error.name === 'ShieldError' && /^THREE_DS_/.test(error.code || '')) {
        clearSecrets();
        try {
          showResult(await post(config.failUrl, { token: config.token, code: error.code }), error.code);
        } catch (failure) {
          show(failure.message, 'error', undefined, true);
        }
        return;
      }
      show('Check the card details: ' + (error && error.message ? error.message : 'they could not be read'), 'error');
      button.disabled = false;
      return;
    }
    /* Step 7: to the engine, which calls the provider. */
    try {
      var answer = await post(config.payUrl, {
        token: config.token,
        card: card,
        cardToken: prepared.cardToken,
        sessionId: prepared.sessionId,
        threeDS: prepared.threeDS,
      });
      clearSecrets();
      showResult(answer);
      if (!isFinal(answer.status)) await follow(answer);
    } catch (failure) {
      show(failure.message, 'error', undefined, !failure.retryable);
      button.disabled = !failure.retryable;
    }
  });
})();
