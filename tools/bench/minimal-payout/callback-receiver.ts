/**
 * The minimal payout's callback receiver: the provider's withdrawal callback, its signature checked (HMAC-SHA256 of
 * "<timestamp>.<body>" with the webhook secret, the `v1=` values of X-Service-Webhook-Signature), handed to the
 * payout's workflow as an update whose id is the callback's own (a redelivery is the same update). 200 once the
 * workflow took it or has closed (a late callback changes nothing: the check decides); 503 while Temporal cannot
 * take it, so the provider delivers it again.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { z } from 'zod';
import { minimalPayoutWorkflowId } from './contract';
import { withdrawalCallbackUpdate } from './workflow';

export const CALLBACK_PATH = '/callbacks/withdrawals';
const MAX_BODY_BYTES = 64 * 1024;
const TOLERANCE_SECONDS = 300;
const UPDATE_DEADLINE_MS = 10_000;

const callbackBody = z.object({ external_id: z.string().min(1), status: z.string().min(1) });

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined));
    request.on('error', reject);
  });
}

function signedBy(secret: string, request: IncomingMessage, body: Buffer): boolean {
  const timestamp = request.headers['x-service-webhook-timestamp'];
  const signature = request.headers['x-service-webhook-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(Date.now() / 1_000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  return signature
    .split(/[\s,]+/)
    .filter((value) => value.startsWith('v1='))
    .some((value) => {
      const given = Buffer.from(value.slice(3), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

export function startCallbackReceiver(options: {
  port: number;
  client: Client;
  webhookSecret: string;
}): Promise<Server> {
  const { client, webhookSecret } = options;
  const deliver = async (request: IncomingMessage): Promise<number> => {
    if (request.method !== 'POST' || request.url !== CALLBACK_PATH) return 404;
    const body = await readBody(request);
    if (body === undefined) return 413;
    if (!signedBy(webhookSecret, request, body)) return 401;
    let parsed: z.infer<typeof callbackBody>;
    try {
      parsed = callbackBody.parse(JSON.parse(body.toString('utf8')));
    } catch {
      return 400;
    }
    const eventId = request.headers['x-service-webhook-id'];
    try {
      await client.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () =>
        client.workflow.getHandle(minimalPayoutWorkflowId(parsed.external_id)).executeUpdate(withdrawalCallbackUpdate, {
          args: [{ status: parsed.status }],
          ...(typeof eventId === 'string' ? { updateId: eventId } : {}),
        }),
      );
      return 200;
    } catch (error) {
      return error instanceof WorkflowNotFoundError ? 200 : 503;
    }
  };
  const server = createServer((request, response) => {
    deliver(request).then(
      (status) => response.writeHead(status).end(),
      () => response.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve(server));
  });
}
