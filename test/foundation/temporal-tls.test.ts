/**
 * With TEMPORAL_TLS_CA / _CERT / _KEY set, the engine's client and worker reach Temporal over mutual TLS.
 * The dev server speaks plaintext only, so an mTLS terminator (the part a real Temporal frontend plays
 * with TEMPORAL_TLS_REQUIRE_CLIENT_AUTH=true) stands in front of it here, with certificates made by openssl.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { loadConfig, type Config } from '../../src/config/env';
import { checkTemporal, connectClient } from '../../src/temporal/connection';
import { connectWorker } from '../../src/worker/create-worker';
import { certificateRequest, selfSignedCertificate } from '../helpers/certificates';
import { temporalTestAddress } from '../helpers/temporal';

const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
const file = (name: string): string => path.join(dir, name);
let proxy: tls.Server;
let proxyAddress: string;

function issue(name: string, extensions: string): void {
  certificateRequest(file(`${name}.key`), file(`${name}.csr`), `/CN=${name}`);
  writeFileSync(file(`${name}.ext`), extensions);
  execFileSync('openssl', [
    'x509',
    '-req',
    '-in',
    file(`${name}.csr`),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    file(`${name}.ext`),
    '-out',
    file(`${name}.pem`),
  ]);
}

beforeAll(async () => {
  selfSignedCertificate(file('ca.key'), file('ca.pem'), '/CN=test-ca');
  issue(
    'server',
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:temporal.test\n',
  );
  issue('client', 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n');

  const [upstreamHost, upstreamPort] = temporalTestAddress().split(':');
  proxy = tls.createServer(
    {
      key: readFileSync(file('server.key')),
      cert: readFileSync(file('server.pem')),
      ca: readFileSync(file('ca.pem')),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (socket) => {
      const upstream = net.connect(Number(upstreamPort), upstreamHost);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    },
  );
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyAddress = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const tlsConfig = (env: Record<string, string>): Config =>
  loadConfig({
    TEMPORAL_ADDRESS: proxyAddress,
    TEMPORAL_TLS_CA: file('ca.pem'),
    TEMPORAL_TLS_SERVER_NAME: 'temporal.test',
    DATA_DIR: dir,
    ...env,
  });

test('the client and the worker connect through mTLS with the configured certificate', async () => {
  const config = tlsConfig({ TEMPORAL_TLS_CERT: file('client.pem'), TEMPORAL_TLS_KEY: file('client.key') });
  const client = await connectClient(config);
  try {
    await checkTemporal(client, config.TEMPORAL_NAMESPACE);
  } finally {
    await client.close();
  }
  const worker = await connectWorker(config);
  await worker.close();
});

test('without a client certificate the frontend refuses the connection', async () => {
  await expect(connectClient(tlsConfig({}))).rejects.toThrow();
});

test('a certificate without its key is refused at start-up', () => {
  expect(() => tlsConfig({ TEMPORAL_TLS_CERT: file('client.pem') })).toThrow(
    /TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together/,
  );
});
