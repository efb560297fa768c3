/**
 * Imported first by every entry point (the engine API, the worker, the sandbox, `npm start`'s launcher, the
 * `payouts` command), before anything that loads a native module. npm scripts run on the Node that the `node`
 * dependency pins (node_modules/.bin first on their PATH); started by hand with the machine's older `node`
 * (Debian's 20), better-sqlite3 13 ends the process with a segmentation fault and no word of why. So an older
 * Node is refused here, in one line that says how to start it instead.
 */
import { dependencies } from '../../package.json';

/** The pinned Node's major (24 for "24.19.0"): a later Node runs the engine too. */
export const PINNED_NODE_MAJOR = Number(dependencies.node.split('.')[0]);

if (Number(process.versions.node.split('.')[0]) < PINNED_NODE_MAJOR) {
  process.stderr.write(
    `This is Node ${process.versions.node} (${process.execPath}); the payout engine runs on Node ${PINNED_NODE_MAJOR} or later. ` +
      `Start it through npm (npm start, npm run api|worker|sandbox, npx payouts): npm scripts run on the Node ${dependencies.node} that npm install put in node_modules.\n`,
  );
  process.exit(1);
}
