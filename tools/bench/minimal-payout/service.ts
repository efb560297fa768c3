/**
 * The minimal payout's process: its worker (the workflow and its two provider calls as local activities), a client
 * on the worker's own connection (eager start needs it) and the callback receiver. The bench measures its CPU as it
 * measures the engine worker's (docs/benchmarks.md). Prints "minimal.ready" once it polls; a line "run <prefix>
 * <payouts> <window> [<rate>]" on its input starts a run (starter.ts), answered by one line "minimal.done <JSON>".
 * Stops on SIGTERM or when its input closes (the bench is gone).
 */
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { z } from 'zod';
import { CALLBACK_PATH, startCallbackReceiver } from './callback-receiver';
import { createProviderCalls } from './provider-calls';
import { runPayouts } from './starter';

const settingsSchema = z.object({
  TEMPORAL_ADDRESS: z.string().min(1),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  MINIMAL_TASK_QUEUE: z.string().min(1).default('minimal-payout'),
  MINIMAL_CALLBACK_PORT: z.coerce.number().int().min(1).max(65_535),
  PAYMENT_API_BASE_URL: z.url(),
  PAYMENT_API_CLIENT_ID: z.string().min(1),
  PAYMENT_API_CLIENT_SECRET: z.string().min(1),
  PAYMENT_API_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  WEBHOOK_SECRET: z.string().min(1),
  // The workflows kept in memory between their tasks: the payouts in flight, or each task replays its history.
  MINIMAL_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(0).default(1_000),
  // Workflow-task slots for the payouts in flight: a start is eager only when a slot is free for its first task.
  MINIMAL_WORKFLOW_TASK_SLOTS: z.coerce.number().int().min(2).default(200),
});

const runCommand = z.tuple(
  [z.literal('run'), z.string().regex(/^[\w-]{1,64}$/), z.coerce.number().int().min(1), z.coerce.number().int().min(1)],
  z.coerce.number().positive(),
);

async function main(): Promise<void> {
  const settings = settingsSchema.parse(process.env);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address: settings.TEMPORAL_ADDRESS });
  const client = new Client({ connection, namespace: settings.TEMPORAL_NAMESPACE });
  const checked = new EventEmitter();
  const worker = await Worker.create({
    connection,
    namespace: settings.TEMPORAL_NAMESPACE,
    taskQueue: settings.MINIMAL_TASK_QUEUE,
    workflowsPath: require.resolve('./workflow'),
    maxCachedWorkflows: settings.MINIMAL_MAX_CACHED_WORKFLOWS,
    maxConcurrentWorkflowTaskExecutions: settings.MINIMAL_WORKFLOW_TASK_SLOTS,
    activities: createProviderCalls(
      {
        baseUrl: settings.PAYMENT_API_BASE_URL,
        clientId: settings.PAYMENT_API_CLIENT_ID,
        clientSecret: settings.PAYMENT_API_CLIENT_SECRET,
        callbackUrl: `http://127.0.0.1:${settings.MINIMAL_CALLBACK_PORT}${CALLBACK_PATH}`,
        timeoutMs: settings.PAYMENT_API_TIMEOUT_MS,
      },
      (state) => checked.emit('checked', state),
    ),
  });
  const receiver = await startCallbackReceiver({
    port: settings.MINIMAL_CALLBACK_PORT,
    client,
    webhookSecret: settings.WEBHOOK_SECRET,
  });
  const stop = (): void => {
    receiver.close();
    if (worker.getState() === 'RUNNING') worker.shutdown();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const input = createInterface({ input: process.stdin });
  input.on('close', stop);
  input.on('line', (line) => {
    const [, prefix, payouts, window, rate] = runCommand.parse(line.trim().split(' '));
    const request = { taskQueue: settings.MINIMAL_TASK_QUEUE, prefix, payouts, window, checked };
    runPayouts(client, rate === undefined ? request : { ...request, rate }).then(
      (run) => process.stdout.write(`minimal.done ${JSON.stringify(run)}\n`),
      (error: unknown) => {
        process.stderr.write(`minimal: ${error instanceof Error ? error.message : String(error)}\n`);
        stop();
      },
    );
  });
  const running = worker.run();
  process.stdout.write('minimal.ready\n');
  await running;
  await connection.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
