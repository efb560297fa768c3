/**
 * The payload codec every client and worker uses: it decodes only what it encrypted (a plaintext payload
 * is refused), and after a key rotation it still decodes history written with the previous key.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import { loadConfig } from '../../src/config/env';
import { createPayloadCodec } from '../../src/temporal/connection';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payload-codec-'));
const oldKey = randomBytes(32).toString('base64');
const newKey = randomBytes(32).toString('base64');
const codecWith = (env: Record<string, string>) => createPayloadCodec(loadConfig({ DATA_DIR: dataDir, ...env }));
const json = (value: unknown): Payload => ({ metadata: { [METADATA_ENCODING_KEY]: Buffer.from('json/plain') }, data: Buffer.from(JSON.stringify(value)) });
const text = (payload: Payload | undefined): string => Buffer.from(payload?.data ?? []).toString();

test('a plaintext payload is refused; binary/null (no data) passes as it is', async () => {
  const codec = codecWith({ PAYLOAD_ENCRYPTION_KEY: newKey, PAYLOAD_ENCRYPTION_KEY_ID: 'k2' });
  await expect(codec.decode([json({ pixKey: 'ana@example.com' })])).rejects.toThrow(/not encrypted \(encoding json\/plain\)/);
  await expect(codec.decode([{ data: Buffer.from('{}') }])).rejects.toThrow(/not encrypted \(encoding unset\)/);

  const nothing: Payload = { metadata: { [METADATA_ENCODING_KEY]: Buffer.from('binary/null') } };
  expect(await codec.decode([nothing])).toEqual([nothing]);
  // What the engine itself writes still round-trips, binary/null included.
  const [encodedNull, encodedJson] = await codec.encode([nothing, json({ amountCents: 100 })]);
  const decoded = await codec.decode([encodedNull ?? {}, encodedJson ?? {}]);
  expect(Buffer.from(decoded[0]?.metadata?.[METADATA_ENCODING_KEY] ?? []).toString()).toBe('binary/null');
  expect(text(decoded[1])).toBe('{"amountCents":100}');
});

test("the server's marker of an activity cancelled before it started passes; other plaintext strings do not", async () => {
  const codec = codecWith({ PAYLOAD_ENCRYPTION_KEY: newKey, PAYLOAD_ENCRYPTION_KEY_ID: 'k2' });
  const marker = json('ACTIVITY_ID_NOT_STARTED');
  expect(await codec.decode([marker])).toEqual([marker]);
  await expect(codec.decode([json('ACTIVITY_ID_NOT_STARTED ')])).rejects.toThrow(/not encrypted/);
  await expect(codec.decode([{ ...marker, metadata: { [METADATA_ENCODING_KEY]: Buffer.from('binary/plain') } }])).rejects.toThrow(/not encrypted/);
});

test('after a rotation, PAYLOAD_ENCRYPTION_PREVIOUS_KEYS decodes payloads of the old key; new ones use the new key', async () => {
  const before = codecWith({ PAYLOAD_ENCRYPTION_KEY: oldKey, PAYLOAD_ENCRYPTION_KEY_ID: 'k1' });
  const [written] = await before.encode([json('history of k1')]);

  const rotated = codecWith({ PAYLOAD_ENCRYPTION_KEY: newKey, PAYLOAD_ENCRYPTION_KEY_ID: 'k2', PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: `k1:${oldKey}` });
  expect(text((await rotated.decode([written ?? {}]))[0])).toBe('"history of k1"');
  const [fresh] = await rotated.encode([json('new')]);
  expect(Buffer.from(fresh?.metadata?.['encryption-key-id'] ?? []).toString()).toBe('k2');

  const withoutPrevious = codecWith({ PAYLOAD_ENCRYPTION_KEY: newKey, PAYLOAD_ENCRYPTION_KEY_ID: 'k2' });
  await expect(withoutPrevious.decode([written ?? {}])).rejects.toThrow(/no key with id k1/);
});
