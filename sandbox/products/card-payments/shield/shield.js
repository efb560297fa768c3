/*
 * The sandbox's security module, served as is at GET /shield/shield.js (the spec's {shield_script_url}).
 * It defines two globals, as the spec's "Browser-side 3DS preparation" expects:
 *
 *   ShieldHelper.getModuleName()                       -> 'SandboxShield'
 *   ShieldHelper.convertDecimalToCents(amount, currency) -> integer minor units, exact (10.10 BRL -> 1010)
 *   ShieldHelper.prepareThreeDS({ amount, installments, currency[, cardToken] })
 *                                                      -> Promise<{ sessionId, threeDS: { cavv, xid, eci, version, referenceId } }>
 *   window.SandboxShield.setPublicKey(pem)
 *   window.SandboxShield.encrypt({ number, holderName, expMonth, expYear, cvv }) -> Promise<card token>
 *
 * The sandbox's issuer needs the card to choose a frictionless or a challenge flow, and the spec's
 * prepareThreeDS takes none (amount, installments, currency), as 3DS itself needs the card: so, called the
 * spec's way (step 5 before step 6), the module reads the card from the page's card fields, found by their
 * standard autocomplete names (cc-number, cc-name, cc-exp-month, cc-exp-year, cc-csc), and sends it
 * encrypted like module.encrypt's token. A checkout may instead run step 6 first and give prepareThreeDS
 * the token (`cardToken`). With SANDBOX_SHIELD_THREE_DS=spec the sandbox's issuer never looks at the card
 * (it refuses a `cardToken`, and is frictionless).
 * The token is RSA-OAEP (SHA-256) by WebCrypto under the environment's public key; WebCrypto exists
 * only in secure contexts (https, or http on localhost / 127.0.0.1).
 *
 * Every sandbox address is taken from where this script was loaded from.
 */
(function (root) {
  'use strict';

  var MODULE_NAME = 'SandboxShield';
  /* Minor units of the currencies the sandbox accepts (ISO 4217); kept equal to the sandbox's list by a test. */
  var MINOR_UNITS = { BRL: 2, USD: 2, EUR: 2, JPY: 0 };
  /* RSA-OAEP with SHA-256 under a 2048-bit key encrypts at most 256 - 2 * 32 - 2 bytes. */
  var MAX_TOKEN_PLAINTEXT_BYTES = 190;
  var CHALLENGE_COMPLETE_MESSAGE = 'shield:challenge-complete';

  var currentScript = typeof document !== 'undefined' ? document.currentScript : null;
  var shieldBase = currentScript && currentScript.src ? new URL('.', currentScript.src).href : null;
  var sandboxOrigin = shieldBase ? new URL(shieldBase).origin : null;

  var publicKeyPem = null;
  var publicKeyPromise = null;

  function shieldError(message, code) {
    var error = new Error(message);
    error.name = 'ShieldError';
    error.code = code;
    return error;
  }

  function requireBase() {
    if (!shieldBase)
      throw shieldError(
        'shield.js must be loaded by a <script src> tag: it finds the sandbox from its own address',
        'NOT_LOADED_BY_SCRIPT_TAG',
      );
    return shieldBase;
  }

  /* Exact decimal -> integer minor units, from the amount's text: no float multiplication. */
  function convertDecimalToCents(amount, currency) {
    var units = Object.prototype.hasOwnProperty.call(MINOR_UNITS, currency) ? MINOR_UNITS[currency] : undefined;
    if (units === undefined) throw new RangeError('Unsupported currency: ' + String(currency));
    var text =
      typeof amount === 'number'
        ? Number.isFinite(amount)
          ? String(amount)
          : ''
        : typeof amount === 'string'
          ? amount.trim()
          : '';
    var match = /^(\d+)(?:\.(\d+))?$/.exec(text);
    if (!match) throw new RangeError('amount must be a non-negative decimal number written without an exponent');
    var fraction = (match[2] || '').replace(/0+$/, '');
    if (fraction.length > units)
      throw new RangeError('amount has more decimal places than ' + currency + ' allows (' + units + ')');
    while (fraction.length < units) fraction += '0';
    var cents = Number(match[1] + fraction);
    if (!Number.isSafeInteger(cents)) throw new RangeError('amount is too large');
    return cents;
  }

  function pemToDer(pem) {
    var body = String(pem)
      .replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '')
      .replace(/\s+/g, '');
    var binary = atob(body);
    var bytes = new Uint8Array(binary.length);
    for (var index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
  }

  function toBase64(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = '';
    for (var index = 0; index < bytes.length; index += 1) binary += String.fromCharCode(bytes[index]);
    return btoa(binary);
  }

  function setPublicKey(pem) {
    if (typeof pem !== 'string' || pem.trim() === '')
      throw new TypeError('setPublicKey needs the PEM of the environment public key');
    if (!root.crypto || !root.crypto.subtle)
      throw shieldError(
        'WebCrypto is not available: serve the checkout page over https (or from localhost)',
        'INSECURE_CONTEXT',
      );
    var der = pemToDer(pem);
    publicKeyPem = pem;
    publicKeyPromise = root.crypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
      'encrypt',
    ]);
    /* A bad key surfaces at encrypt; this only keeps the browser from reporting it unhandled now. */
    publicKeyPromise.catch(function () {});
  }

  /* The card's fields as the spec names them; messages name the field, never its value. */
  function cardPayload(card) {
    var input = card || {};
    var number = typeof input.number === 'string' ? input.number.replace(/[\s-]/g, '') : '';
    if (!/^\d{12,19}$/.test(number)) throw new TypeError('number must be 12 to 19 digits');
    var holderName = typeof input.holderName === 'string' ? input.holderName.trim() : '';
    if (holderName === '') throw new TypeError('holderName must not be empty');
    if (!Number.isInteger(input.expMonth) || input.expMonth < 1 || input.expMonth > 12)
      throw new TypeError('expMonth must be an integer from 1 to 12');
    if (!Number.isInteger(input.expYear) || input.expYear < 1000 || input.expYear > 9999)
      throw new TypeError('expYear must be a four-digit integer');
    var cvv = typeof input.cvv === 'string' ? input.cvv.trim() : '';
    if (!/^\d{3,4}$/.test(cvv)) throw new TypeError('cvv must be a string of 3 or 4 digits');
    return { number: number, holderName: holderName, expMonth: input.expMonth, expYear: input.expYear, cvv: cvv };
  }

  async function encrypt(card) {
    if (!publicKeyPromise) throw shieldError('call setPublicKey first', 'NO_PUBLIC_KEY');
    var bytes = new TextEncoder().encode(JSON.stringify(cardPayload(card)));
    if (bytes.length > MAX_TOKEN_PLAINTEXT_BYTES)
      throw new RangeError('the card data is too long to encrypt (holderName)');
    var key = await publicKeyPromise;
    var ciphertext = await root.crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, bytes);
    bytes.fill(0);
    return toBase64(ciphertext);
  }

  /* The card as the buyer typed it into the page, by the fields' standard autocomplete names; null when the page has no such fields. */
  function pageCard() {
    if (typeof document === 'undefined') return null;
    function value(name) {
      var input = document.querySelector('input[autocomplete~="' + name + '"]');
      return input ? String(input.value).trim() : null;
    }
    var card = {
      number: value('cc-number'),
      holderName: value('cc-name'),
      expMonth: value('cc-exp-month'),
      expYear: value('cc-exp-year'),
      cvv: value('cc-csc'),
    };
    if (
      Object.keys(card).some(function (key) {
        return card[key] === null;
      })
    )
      return null;
    return {
      number: card.number,
      holderName: card.holderName,
      expMonth: Number(card.expMonth),
      expYear: Number(card.expYear),
      cvv: card.cvv,
    };
  }

  async function readAnswer(response) {
    var body = null;
    try {
      body = await response.json();
    } catch {
      /* Not JSON: the status alone tells what went wrong. */
    }
    if (!response.ok) {
      throw shieldError(
        (body && body.message) || 'the sandbox answered HTTP ' + response.status,
        (body && body.code) || 'HTTP_' + response.status,
      );
    }
    return body;
  }

  function sessionUrl(sessionId) {
    return new URL('sessions/' + encodeURIComponent(sessionId), requireBase()).href;
  }

  /* Shows the issuer's challenge in an iframe; settles on the buyer's answer or when its time is up. */
  function runChallenge(session) {
    return new Promise(function (resolve, reject) {
      var overlay = document.createElement('div');
      overlay.setAttribute('data-shield-challenge', session.sessionId);
      overlay.style.cssText =
        'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center';
      var frame = document.createElement('iframe');
      frame.title = '3-D Secure challenge';
      frame.style.cssText = 'width:min(420px,95vw);height:min(360px,90vh);border:0;border-radius:8px;background:#fff';
      var page = new URL('challenge/' + encodeURIComponent(session.sessionId), requireBase());
      page.searchParams.set('parentOrigin', root.location.origin);
      frame.src = page.href;

      var settled = false;
      var timer = null;
      function finish(error, result) {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        root.removeEventListener('message', onMessage);
        overlay.remove();
        if (error) reject(error);
        else resolve(result);
      }
      function onMessage(event) {
        if (event.origin !== sandboxOrigin || event.source !== frame.contentWindow) return;
        var data = event.data;
        if (!data || data.type !== CHALLENGE_COMPLETE_MESSAGE || data.sessionId !== session.sessionId) return;
        /* The message only says "answered": the result is read from the sandbox. */
        fetch(sessionUrl(session.sessionId))
          .then(readAnswer)
          .then(function (result) {
            if (result.status === 'AUTHENTICATED' && result.threeDS)
              finish(null, { sessionId: result.sessionId, threeDS: result.threeDS });
            else if (result.status === 'DENIED')
              finish(shieldError('The buyer denied the 3DS challenge', 'THREE_DS_DENIED'));
            else
              finish(
                shieldError(
                  'The 3DS challenge ended without authentication (' + result.status + ')',
                  'THREE_DS_' + result.status,
                ),
              );
          }, finish);
      }
      timer = setTimeout(function () {
        finish(shieldError('The 3DS challenge was abandoned: no answer in time', 'THREE_DS_ABANDONED'));
      }, session.challengeTimeoutMs);
      root.addEventListener('message', onMessage);
      overlay.appendChild(frame);
      document.body.appendChild(overlay);
    });
  }

  /* amount in minor units (convertDecimalToCents); cardToken from module.encrypt when given, else the page's card (above). */
  async function prepareThreeDS(options) {
    var input = options || {};
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
      throw new TypeError('amount must be a positive integer of minor units (ShieldHelper.convertDecimalToCents)');
    if (!Number.isInteger(input.installments) || input.installments < 1)
      throw new TypeError('installments must be a positive integer');
    if (!Object.prototype.hasOwnProperty.call(MINOR_UNITS, input.currency))
      throw new RangeError('Unsupported currency: ' + String(input.currency));
    if (input.cardToken !== undefined && (typeof input.cardToken !== 'string' || input.cardToken === '')) {
      throw new TypeError('cardToken, when given, must be the token of ' + MODULE_NAME + '.encrypt');
    }
    if (!publicKeyPem) throw shieldError('call ' + MODULE_NAME + '.setPublicKey first', 'NO_PUBLIC_KEY');
    var request = {
      publicKey: publicKeyPem,
      amount: input.amount,
      installments: input.installments,
      currency: input.currency,
    };
    if (input.cardToken !== undefined) request.cardToken = input.cardToken;
    else {
      var typed = pageCard();
      if (typed) request.pageCardToken = await encrypt(typed);
    }
    var response = await fetch(new URL('sessions', requireBase()).href, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    });
    var session = await readAnswer(response);
    if (session.status === 'AUTHENTICATED') return { sessionId: session.sessionId, threeDS: session.threeDS };
    if (session.status === 'CHALLENGE_REQUIRED') return runChallenge(session);
    throw shieldError('Unexpected 3DS session status ' + session.status, 'THREE_DS_' + session.status);
  }

  root[MODULE_NAME] = Object.freeze({ setPublicKey: setPublicKey, encrypt: encrypt });
  root.ShieldHelper = Object.freeze({
    getModuleName: function () {
      return MODULE_NAME;
    },
    convertDecimalToCents: convertDecimalToCents,
    prepareThreeDS: prepareThreeDS,
  });
})(typeof window !== 'undefined' ? window : globalThis);
