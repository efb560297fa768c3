/**
 * The bare payout's stand-in for the provider and the engine API (tools/bench/bare-payout-workflow.ts): a
 * process of its own, as the callback ingress is, that signals each bare payout's callback once its
 * submission has run, through a Temporal client like the API's (the engine's codec). It listens on
 * BENCH_SIGNALLER_PORT for the bare worker's lines: "submitted <workflowId>" is signalled at once (the
 * engine's sandbox settles at once too); "settled <externalId>" is written to standard output, where the
 * bench counts the bare payouts that ended. Prints "signaller.listening" when it takes lines.
 */
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { stopWhenParentDies } from '../../src/cli/parent-watch';
import { loadConfigOrExit } from '../../src/config/env';
import { connectClient } from '../../src/temporal/connection';
import { withdrawalCallbackSignal } from '../../src/lifecycles/payout-client';

const signallerEnvSchema = z.object({ BENCH_SIGNALLER_PORT: z.coerce.number().int().min(1).max(65_535) });

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const { BENCH_SIGNALLER_PORT } = signallerEnvSchema.parse(process.env);
  const temporal = await connectClient(config);
  const signal = async (workflowId: string): Promise<void> => {
    try {
      await temporal.client.workflow.getHandle(workflowId).signal(withdrawalCallbackSignal, {
        status: 'COMPLETED',
        transactionId: `bare-${workflowId}`,
        receivedAt: new Date().toISOString(),
      });
    } catch (error) {
      // A lost signal leaves its payout to its timer: the bench's deadline reports it, this line says why.
      process.stderr.write(`signaller: ${workflowId}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  };
  const server = createServer((socket) => {
    createInterface({ input: socket }).on('line', (line) => {
      const [kind, id] = line.split(' ');
      if (kind === 'submitted' && id) void signal(id);
      else if (kind === 'settled' && id) process.stdout.write(`settled ${id}\n`);
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(BENCH_SIGNALLER_PORT, '127.0.0.1', () => process.stdout.write('signaller.listening\n'));
  const stop = (): void => {
    server.close();
    void temporal.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  stopWhenParentDies();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
