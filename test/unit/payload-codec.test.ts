/**
 * The payload codec every client and worker uses: it decodes only what it encrypted (a plaintext payload
 * is refused), after a key rotation it still decodes history written with the previous key, and it
 * encrypts with the key's subkey for Temporal payloads while still decoding what the key itself encrypted.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import { loadConfig } from '../../src/config/env';
import { createPayloadCodec } from '../../src/temporal/connection';
import { purposeKey } from '../../src/temporal/key-purposes';
import { temporal } from '@temporalio/proto';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'payload-codec-'));
const oldKey = randomBytes(32).toString('base64');
const newKey = randomBytes(32).toString('base64');
const codecWith = (env: Record<string, string>) => createPayloadCodec(loadConfig({ DATA_DIR: dataDir, ...env }));
const json = (value: unknown): Payload => ({
  metadata: { [METADATA_ENCODING_KEY]: Buffer.from('json/plain') },
  data: Buffer.from(JSON.stringify(value)),
});
const text = (payload: Payload | undefined): string => Buffer.from(payload?.data ?? []).toString();

test('a plaintext payload is refused; binary/null (no data) passes as it is', async () => {
  const codec = codecWith({ PAYLOAD_ENCRYPTION_KEY: newKey, PAYLOAD_ENCRYPTION_KEY_ID: 'k2' });
  await expect(codec.decode([json({ pixKey: 'ana@example.com' })])).rejects.toThrow(
    /not encrypted \(encoding json\/plain\)/,
  );
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
  await expect(
    codec.decode([{ ...marker, metadata: { [METADATA_ENCODING_KEY]: Buffer.from('binary/plain') } }]),
  ).rejects.toThrow(/not encrypted/);
});

test('every payload gets an IV of its own, past the block of random bytes the IVs are drawn from', async () => {
  const codec = codecWith({ PAYLOAD_ENCRYPTION_KEY: newKey, PAYLOAD_ENCRYPTION_KEY_ID: 'k2' });
  const plain = Array.from({ length: 1_000 }, (_, index) => json({ index }));
  const encoded = await codec.encode(plain);
  expect(
    new Set(
      encoded.map((payload) =>
        Buffer.from(payload.data ?? [])
          .subarray(0, 12)
          .toString('hex'),
      ),
    ).size,
  ).toBe(1_000);
  expect((await codec.decode(encoded)).map(text)).toEqual(plain.map(text));
});

test('after a rotation, PAYLOAD_ENCRYPTION_PREVIOUS_KEYS decodes payloads of the old key; new ones use the new key', async () => {
  const before = codecWith({ PAYLOAD_ENCRYPTION_KEY: oldKey, PAYLOAD_ENCRYPTION_KEY_ID: 'k1' });
  const [written] = await before.encode([json('history of k1')]);

  const rotated = codecWith({
    PAYLOAD_ENCRYPTION_KEY: newKey,
    PAYLOAD_ENCRYPTION_KEY_ID: 'k2',
    PAYLOAD_ENCRYPTION_PREVIOUS_KEYS: `k1:${oldKey}`,
  });
  expect(text((await rotated.decode([written ?? {}]))[0])).toBe('"history of k1"');
  const [fresh] = await rotated.encode([json('new')]);
  expect(Buffer.from(fresh?.metadata?.['encryption-key-id'] ?? []).toString()).toBe('k2');

  const withoutPrevious = codecWith({ PAYLOAD_ENCRYPTION_KEY: newKey, PAYLOAD_ENCRYPTION_KEY_ID: 'k2' });
  await expect(withoutPrevious.decode([written ?? {}])).rejects.toThrow(/no key with id k1/);
});

describe('one key, a subkey per purpose', () => {
  const key = randomBytes(32);
  const codec = () =>
    createPayloadCodec(
      loadConfig({
        DATA_DIR: dataDir,
        PAYLOAD_ENCRYPTION_KEY: key.toString('base64'),
        PAYLOAD_ENCRYPTION_KEY_ID: 'k3',
      }),
    );
  /** AES-256-GCM as the codec lays it out: IV, ciphertext, tag; the key id as associated data. */
  const open = (aesKey: Buffer, payload: Payload): Buffer => {
    const data = Buffer.from(payload.data ?? []);
    const decipher = createDecipheriv('aes-256-gcm', aesKey, data.subarray(0, 12));
    decipher.setAAD(Buffer.from('k3'));
    decipher.setAuthTag(data.subarray(data.length - 16));
    return Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
  };

  test("Temporal's payloads are sealed with the payloads' subkey: the key itself and the stores' subkeys do not open them", async () => {
    const [sealed] = await codec().encode([json({ pixKey: 'ana@example.com' })]);
    if (!sealed) throw new Error('nothing encoded');
    expect(Buffer.from(sealed.metadata?.['encryption-key-derivation'] ?? []).toString()).toBe(
      'hkdf-sha256/temporal-payloads/v1',
    );
    expect(
      temporal.api.common.v1.Payload.decode(open(purposeKey(key, 'temporal-payloads'), sealed)).data?.toString(),
    ).toBe('{"pixKey":"ana@example.com"}');
    for (const other of [key, purposeKey(key, 'batch-items'), purposeKey(key, 'webhook-secrets')])
      expect(() => open(other, sealed)).toThrow(/authenticate/);
  });

  test('a payload encrypted with the key itself, before the subkeys, still decodes; an unknown derivation is refused', async () => {
    const plain = temporal.api.common.v1.Payload.encode(json('written before the subkeys')).finish();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from('k3'));
    const old: Payload = {
      metadata: { [METADATA_ENCODING_KEY]: Buffer.from('binary/encrypted'), 'encryption-key-id': Buffer.from('k3') },
      data: Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]),
    };
    expect(text((await codec().decode([old]))[0])).toBe('"written before the subkeys"');
    const unknown = {
      ...old,
      metadata: { ...old.metadata, 'encryption-key-derivation': Buffer.from('hkdf-sha512/other/v9') },
    };
    await expect(codec().decode([unknown])).rejects.toThrow(/unknown key derivation/);
  });
});
