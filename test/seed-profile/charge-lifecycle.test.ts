/** The end-to-end suite of charges (PIX cash-in) and deposits, unchanged, against the seed profile. */
import './seed-env';
import '../charges/charge-lifecycle.test';
