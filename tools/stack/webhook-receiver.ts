/**
 * A merchant's webhook receiver (tests, `npm run cluster`'s check, the chaos run): records every request
 * as received (raw bytes), answers as told: the planned statuses first, then what `answer` says (200
 * without one); `drop` closes the connection without an answer, as a receiver that dies mid-request.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { merchantEventSchema, type MerchantEvent } from '../../src/merchant-events/merchant-event';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  event: MerchantEvent;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The statuses of the next answers, in order; 200 once they are used up. */
  answerNext(statuses: number[]): void;
  close(): Promise<void>;
}

export type ReceiverAnswer = number | 'drop';

export async function startWebhookReceiver(answer: () => ReceiverAnswer = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const planned: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      received.push({
        headers: req.headers,
        rawBody,
        event: merchantEventSchema.parse(JSON.parse(rawBody.toString('utf8'))),
      });
      const next = planned.shift() ?? answer();
      if (next === 'drop') req.socket.destroy();
      else res.writeHead(next).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answerNext: (statuses) => planned.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
