/**
 * The remote codec endpoint the Temporal UI and CLI call to show decrypted payloads: POST .../decode and
 * .../encode with `{ payloads: [{ metadata, data }] }`, bytes as base64. Two credentials:
 * - an engine API key with the `codec` scope (`Authorization: Bearer`): /codec/decode and /codec/encode, for
 *   the CLI (`--codec-endpoint <engine>/codec --codec-auth 'Bearer <key>'`) and scripts;
 * - the codec token, in the URL the UI is configured with (see codec-token.ts): /codec/t/<token>/decode.
 *   It only decodes: whoever can open the UI can read its token, and encoding would let them make
 *   payloads the worker accepts.
 * No request is trusted for where it says it comes from: an Origin header is CORS only.
 */
import { Router, type RequestHandler } from 'express';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { z } from 'zod';
import { ENCRYPTED_ENCODING, payloadEncoding } from '../temporal/payload-codec';
import type { ApiKey, ApiKeyScope } from '../config/api-keys';
import { matchesSecret } from '../http/bearer-auth';
import { requireApiKey, requireScope } from './auth';
import { ApiError, parseBody } from './errors';
import { jsonBodies } from './http-refusals';

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');
const jsonPayloadSchema = z.object({
  metadata: z.record(z.string(), base64).nullish(),
  data: base64.nullish(),
});
// Protobuf's JSON form omits an empty list: the Temporal CLI sends `{}` for a query without arguments.
const codecRequestSchema = z.object({ payloads: z.array(jsonPayloadSchema).default([]) });
type JsonPayload = z.infer<typeof jsonPayloadSchema>;

function fromJson(payload: JsonPayload): Payload {
  return {
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')]),
    ),
    data: Buffer.from(payload.data ?? '', 'base64'),
  };
}

function toJson(payload: Payload): { metadata: Record<string, string>; data: string } {
  return {
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
    ),
    data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
  };
}

/**
 * For display, a payload that is not encrypted is shown as it is stored (a workflow someone started by
 * hand, which the worker refuses): one such payload must not hide the rest of a history.
 */
async function decodeForDisplay(codec: PayloadCodec, payloads: Payload[]): Promise<Payload[]> {
  const encrypted = payloads.map((payload) => payloadEncoding(payload) === ENCRYPTED_ENCODING);
  const decoded = await codec.decode(payloads.filter((_, index) => encrypted[index]));
  let next = 0;
  return payloads.map((payload, index) => (encrypted[index] ? (decoded[next++] ?? payload) : payload));
}

export interface CodecRouteOptions {
  codec: PayloadCodec;
  apiKeys: readonly ApiKey[];
  /** The Temporal UI's codec token; unset: only API keys are accepted. */
  codecToken?: string;
  /** Browser origins of the Temporal UI allowed to call (CORS). */
  corsOrigins: readonly string[];
}

/** The scope of /codec/decode and /codec/encode with an API key, declared here: the codec is not in the OpenAPI document. */
export const CODEC_SCOPE: ApiKeyScope = 'codec';

const unauthorized = (): ApiError =>
  new ApiError(
    401,
    'UNAUTHORIZED',
    'Missing or invalid credential: send Authorization: Bearer <key>, or use the codec URL with its token',
  );

export function codecRoutes(options: CodecRouteOptions): Router {
  const router = Router();
  const cors: RequestHandler = (req, res, next) => {
    const origin = req.get('origin');
    if (origin && options.corsOrigins.includes(origin)) {
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
  const apiKey = [requireApiKey(options.apiKeys, unauthorized), requireScope(CODEC_SCOPE)];
  const codecToken: RequestHandler<{ token: string }> = (req, _res, next) => {
    // The same constant-time comparison as API keys.
    const valid = options.codecToken !== undefined && matchesSecret([options.codecToken], req.params.token);
    next(valid ? undefined : unauthorized());
  };
  const json = jsonBodies('4mb');
  const decode: RequestHandler = async (req, res) => {
    const body = parseBody(codecRequestSchema, req);
    res.json({ payloads: (await decodeForDisplay(options.codec, body.payloads.map(fromJson))).map(toJson) });
  };
  const encode: RequestHandler = async (req, res) => {
    const body = parseBody(codecRequestSchema, req);
    res.json({ payloads: (await options.codec.encode(body.payloads.map(fromJson))).map(toJson) });
  };

  router.use('/codec', cors);
  router.post('/codec/decode', apiKey, json, decode);
  router.post('/codec/encode', apiKey, json, encode);
  router.post('/codec/t/:token/decode', codecToken, json, decode);
  router.post('/codec/t/:token/encode', codecToken, (_req, _res, next) => {
    next(
      new ApiError(403, 'FORBIDDEN', 'The codec token only decodes; encoding needs an API key (POST /codec/encode)'),
    );
  });
  return router;
}
