/** `npm run temporal:install`: finds or installs the Temporal CLI and test server, printing where they are. */
import { binaryVersion, temporalCliPath, temporalTestServerPath } from './binaries';

try {
  const cli = temporalCliPath();
  process.stdout.write(`temporal CLI: ${cli} (${binaryVersion(cli).split('\n')[0]})\n`);
  process.stdout.write(`temporal test server: ${temporalTestServerPath()}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
