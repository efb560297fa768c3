/** `npm run build:workflows`: the workflow bundle for production workers (WORKFLOW_BUNDLE_PATH). */
import path from 'node:path';
import { writeWorkflowBundle } from '../worker/workflow-source';

const out = path.resolve(process.argv[2] ?? 'dist/workflow-bundle.js');
writeWorkflowBundle(out).then(
  () => process.stdout.write(`workflow bundle written to ${out}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
