/**
 * A plain HTTP proxy in front of the sandbox that records every request the engine sends the provider,
 * so that a test asserts on what the engine did (how many POSTs) rather than on what the provider kept.
 * A connection the sandbox drops or resets is dropped towards the engine too; a test may answer a
 * request itself instead of forwarding it (a gateway's odd status), or hold it: never forwarded, never
 * answered (a request lost on its way while the engine waits for its answer), or reshape what passes (another
 * provider's query limits and answer shapes, where the spec shows none).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProviderRequest {
  method: string;
  /** Without the query string. */
  path: string;
  /** As the engine sent them (trace context, credentials). */
  headers: http.IncomingHttpHeaders;
}

export interface CannedAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** How requests to a path pass: their query rewritten on the way there, their 2xx JSON answer on the way back. */
export interface Reshaping {
  query?: (params: URLSearchParams) => void;
  answer?: (body: unknown) => unknown;
}

export interface ProviderProxy {
  url: string;
  requests: readonly ProviderRequest[];
  /** Requests with this method and path (exact) so far. */
  count(method: string, path: string): number;
  /** The next request to `path` is answered with `answer` and never reaches the provider. */
  answerNext(path: string, answer: CannedAnswer): void;
  /** The next request to `path` never reaches the provider and is never answered (until the engine gives up on it). */
  holdNext(path: string): void;
  /** Every request whose path matches passes reshaped from now on. */
  reshape(path: RegExp, reshaping: Reshaping): void;
  close(): Promise<void>;
}

export async function startProviderProxy(targetUrl: string): Promise<ProviderProxy> {
  const requests: ProviderRequest[] = [];
  const canned = new Map<string, CannedAnswer>();
  const held = new Set<string>();
  const reshapings: [RegExp, Reshaping][] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    if (held.delete(path)) {
      req.resume();
      return;
    }
    const answer = canned.get(path);
    if (answer) {
      canned.delete(path);
      req.resume();
      res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
      return;
    }
    const reshaping = reshapings.find(([pattern]) => pattern.test(path))?.[1];
    const url = new URL(targetUrl + (req.url ?? '/'));
    reshaping?.query?.(url.searchParams);
    const upstream = http.request(url, { method: req.method, headers: req.headers }, (answered) => {
      const status = answered.statusCode ?? 502;
      const answer = reshaping?.answer;
      if (!answer || status < 200 || status >= 300) {
        res.writeHead(status, answered.headers);
        answered.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answered.on('data', (chunk: Buffer) => chunks.push(chunk));
      answered.on('end', () => {
        const body = JSON.stringify(answer(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      });
    });
    // The provider reset or dropped the connection: so does the proxy, and the engine sees what it would have.
    upstream.on('error', () => res.socket?.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (method, path) => requests.filter((request) => request.method === method && request.path === path).length,
    answerNext: (path, answer) => {
      canned.set(path, answer);
    },
    holdNext: (path) => {
      held.add(path);
    },
    reshape: (path, reshaping) => {
      reshapings.push([path, reshaping]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
