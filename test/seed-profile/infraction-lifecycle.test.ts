/** The end-to-end suite of MED infractions, unchanged, against the seed profile. */
import './seed-env';
import '../infractions/infraction-lifecycle.test';
