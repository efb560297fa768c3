/** The end-to-end suite of card payments in a real browser, unchanged, against the seed profile. */
import './seed-env';
import '../card-payments/card-checkout-browser.test';
