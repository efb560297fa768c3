/** `npm run cluster:install`: builds the Temporal server and its SQL schema tool for `npm run cluster`, unless built already. */
import { installServer, SERVER_BIN_DIR, TEMPORAL_SERVER_VERSION } from './server-build';

const log = (line: string) => process.stderr.write(`[cluster:install] ${line}\n`);
const startedAt = Date.now();
installServer(log).then(
  (built) => {
    const seconds = Math.round((Date.now() - startedAt) / 1_000);
    process.stdout.write(
      `Temporal server ${TEMPORAL_SERVER_VERSION}: ${SERVER_BIN_DIR} (${built ? `built in ${seconds} s` : 'already built'})\n`,
    );
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
