/** The end-to-end suite of every payout rail (PIX key, copy-and-paste, internal, crypto), unchanged, against the seed profile. */
import './seed-env';
import '../payouts/payout-rails.test';
