/*
 * The provider double's browser security module, served at its {shield_script_url}. The document's seven
 * steps, read literally: ShieldHelper.getModuleName(); window[name].setPublicKey(key); the settings (GET
 * {shield_settings_url}?publicKey=, fetched by the page); ShieldHelper.convertDecimalToCents(amount, currency);
 * ShieldHelper.prepareThreeDS(amountInCents, installments, currency); module.encrypt(number, holderName,
 * expMonth, expYear, cvv), each argument on its own. For the double's challenge card, encrypt runs the issuer's
 * challenge (an iframe of the double) after prepareThreeDS opened a session, and answers the token only once the
 * buyer approved.
 */
(function () {
  'use strict';
  var origin = new URL(document.currentScript.src).origin;
  var MODULE_NAME = 'DoubleShield';
  var MINOR_UNITS = { BRL: 2 };
  var CHALLENGE_POLL_MS = 300;
  var publicKey = null;
  var sessionId = null;

  function call(method, path, body) {
    var init = { method: method, headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(origin + path, init).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw new Error((answer && answer.message) || 'HTTP ' + response.status);
        return answer;
      });
    });
  }

  function refused(message) {
    return Promise.reject(new TypeError(message));
  }

  function withKey(run) {
    if (publicKey === null) return refused('DoubleShield.setPublicKey(publicKey) must come first');
    return run();
  }

  /** The issuer's page in an iframe; settles once the buyer answered it (or it expired). */
  function challenge(url, id) {
    return new Promise(function (resolve, reject) {
      var frame = document.createElement('iframe');
      frame.title = 'Autenticação do emissor';
      frame.src = url;
      frame.style.width = '100%';
      frame.style.height = '220px';
      frame.style.border = '0';
      document.body.appendChild(frame);
      function look() {
        call('GET', '/browser/3ds-challenges/' + encodeURIComponent(id)).then(
          function (answer) {
            if (answer.status === 'PENDENTE') return void setTimeout(look, CHALLENGE_POLL_MS);
            frame.remove();
            if (answer.status === 'APROVADO') resolve();
            else reject(new Error('autenticação do emissor ' + answer.status.toLowerCase()));
          },
          function (error) {
            frame.remove();
            reject(error);
          },
        );
      }
      setTimeout(look, CHALLENGE_POLL_MS);
    });
  }

  window[MODULE_NAME] = {
    setPublicKey: function (key) {
      if (typeof key !== 'string' || key.indexOf('pk_') !== 0)
        throw new TypeError('setPublicKey takes the environment key (pk_…)');
      publicKey = key;
    },
    encrypt: function (number, holderName, expMonth, expYear, cvv) {
      if (typeof number !== 'string' || !/^\d{12,19}$/.test(number))
        return refused(
          'encrypt(number, holderName, expMonth, expYear, cvv): number must be a string of 12 to 19 digits',
        );
      if (
        typeof holderName !== 'string' ||
        !Number.isInteger(expMonth) ||
        !Number.isInteger(expYear) ||
        typeof cvv !== 'string'
      ) {
        return refused(
          'encrypt(number, holderName, expMonth, expYear, cvv): holderName and cvv are strings, expMonth and expYear integers',
        );
      }
      return withKey(function () {
        var body = {
          publicKey: publicKey,
          number: number,
          holderName: holderName,
          expMonth: expMonth,
          expYear: expYear,
          cvv: cvv,
        };
        if (sessionId !== null) body.sessionId = sessionId;
        return call('POST', '/browser/card-tokens', body).then(function (answer) {
          if (!answer.challengeUrl) return answer.token;
          return challenge(answer.challengeUrl, answer.challengeId).then(function () {
            return answer.token;
          });
        });
      });
    },
  };

  window.ShieldHelper = {
    getModuleName: function () {
      return MODULE_NAME;
    },
    convertDecimalToCents: function (amount, currency) {
      var units = MINOR_UNITS[currency];
      var match = /^(\d+)(?:\.(\d+))?$/.exec(String(amount));
      if (units === undefined) throw new TypeError('currency not taken: ' + currency);
      if (!match || (match[2] || '').length > units)
        throw new TypeError('not an amount of ' + currency + ': ' + amount);
      return Number(match[1] + (match[2] || '').padEnd(units, '0'));
    },
    prepareThreeDS: function (amount, installments, currency) {
      if (!Number.isInteger(amount) || amount <= 0)
        return refused('prepareThreeDS(amount, installments, currency): amount is an integer of cents');
      if (!Number.isInteger(installments) || typeof currency !== 'string')
        return refused('prepareThreeDS(amount, installments, currency): installments is an integer, currency a code');
      return withKey(function () {
        return call('POST', '/browser/3ds-sessions', {
          publicKey: publicKey,
          amount: amount,
          installments: installments,
          currency: currency,
        }).then(function (answer) {
          sessionId = answer.sessionId;
          return { sessionId: answer.sessionId, threeDS: answer.threeDS };
        });
      });
    },
  };
})();
