/** `npm run fuzz:install`: finds or installs the pinned schemathesis, printing its version. */
import { resolveSchemathesis, schemathesisVersion } from './schemathesis';

try {
  process.stdout.write(`${schemathesisVersion(resolveSchemathesis())}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
