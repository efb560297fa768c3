/**
 * The remote codec endpoint the Temporal UI calls to show decrypted payloads (`--ui-codec-endpoint`):
 * POST /codec/decode and /codec/encode with `{ payloads: [{ metadata, data }] }`, bytes as base64.
 * Callers present an engine API key. The local dev UI cannot send one, so outside production a request
 * from a loopback socket whose Origin is the local Temporal UI is let through as well.
 */
import express, { Router, type Request, type RequestHandler } from 'express';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { z } from 'zod';
import { bearerToken, isValidApiKey } from './auth';
import { ApiError, parseBody } from './errors';

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');
const jsonPayloadSchema = z.object({
  metadata: z.record(z.string(), base64).nullish(),
  data: base64.nullish(),
});
const codecRequestSchema = z.object({ payloads: z.array(jsonPayloadSchema) });
type JsonPayload = z.infer<typeof jsonPayloadSchema>;

function fromJson(payload: JsonPayload): Payload {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')])),
    data: Buffer.from(payload.data ?? '', 'base64'),
  };
}

function toJson(payload: Payload): { metadata: Record<string, string>; data: string } {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
    data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
  };
}

export interface CodecRouteOptions {
  codec: PayloadCodec;
  apiKeys: readonly string[];
  /** Origins of the Temporal UI allowed to call from a browser (CORS). */
  uiOrigins: readonly string[];
  /** Outside production: trust the local UI on loopback without a key. */
  trustLocalUi: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function fromLocalUi(req: Request, options: CodecRouteOptions): boolean {
  const origin = req.get('origin');
  return options.trustLocalUi && origin !== undefined && options.uiOrigins.includes(origin) && LOOPBACK.has(req.socket.remoteAddress ?? '');
}

export function codecRoutes(options: CodecRouteOptions): Router {
  const router = Router();
  const cors: RequestHandler = (req, res, next) => {
    const origin = req.get('origin');
    if (origin && options.uiOrigins.includes(origin)) {
      res.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, X-Namespace, Authorization',
        Vary: 'Origin',
      });
    }
    if (req.method === 'OPTIONS') res.sendStatus(204);
    else next();
  };
  const authorize: RequestHandler = (req, _res, next) => {
    if (isValidApiKey(options.apiKeys, bearerToken(req)) || fromLocalUi(req, options)) next();
    else next(new ApiError(401, 'UNAUTHORIZED', 'Missing or invalid API key: send Authorization: Bearer <key>'));
  };
  router.use('/codec', cors, authorize, express.json({ limit: '4mb' }));
  for (const direction of ['encode', 'decode'] as const) {
    router.post(`/codec/${direction}`, async (req, res) => {
      const body = parseBody(codecRequestSchema, req);
      const payloads = await options.codec[direction](body.payloads.map(fromJson));
      res.json({ payloads: payloads.map(toJson) });
    });
  }
  return router;
}
