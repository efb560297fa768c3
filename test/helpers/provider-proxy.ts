/**
 * A plain HTTP proxy in front of the sandbox that records every request the engine sends the provider,
 * so that a test asserts on what the engine did (how many POSTs, with which body) rather than on what the
 * provider kept. A connection the sandbox drops or resets is dropped towards the engine too; a test may
 * answer a request itself instead of forwarding it (a gateway's odd status), hold it: never forwarded,
 * never answered (a request lost on its way while the engine waits for its answer), delay it: forwarded
 * late, after the engine gave up on it (a provider that takes a request it was slow to answer), or
 * translate what passes to a path: its query and body on the way there, its 2xx JSON answer on the way back
 * (another provider's shapes and query limits, where the spec shows none).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProviderRequest {
  method: string;
  /** Without the query string. */
  path: string;
  /** As the engine sent them (trace context, credentials). */
  headers: http.IncomingHttpHeaders;
  /** As the engine sent it. */
  body: string;
}

export interface CannedAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** A canned JSON answer: `body` as the provider would write it. */
export const jsonAnswer = (status: number, body: unknown): CannedAnswer => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

/** How requests to a path and their answers are translated on their way through (JSON in, JSON out). */
export interface Translation {
  query?: (params: URLSearchParams) => void;
  request?: (body: unknown) => unknown;
  /** Applied to a 2xx answer only: an error passes as the provider wrote it. */
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
  /** The next request to `path` reaches the provider `ms` later, whether or not the engine still waits for its answer. */
  delayNext(path: string, ms: number): void;
  /** Every request to `path` (exact, or every path a pattern matches) from now on, and its answer, go through `translation` (the latest given wins). */
  translate(path: string | RegExp, translation: Translation): void;
  close(): Promise<void>;
}

function readBody(stream: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

const translated = (body: Buffer, translate: ((body: unknown) => unknown) | undefined): Buffer =>
  translate && body.length > 0 ? Buffer.from(JSON.stringify(translate(JSON.parse(body.toString('utf8'))))) : body;

export async function startProviderProxy(targetUrl: string): Promise<ProviderProxy> {
  const requests: ProviderRequest[] = [];
  const canned = new Map<string, CannedAnswer>();
  const held = new Set<string>();
  const delayed = new Map<string, number>();
  const translations: [string | RegExp, Translation][] = [];
  const translationOf = (path: string): Translation | undefined =>
    translations.find(([pattern]) => (typeof pattern === 'string' ? pattern === path : pattern.test(path)))?.[1];
  const timers = new Set<NodeJS.Timeout>();

  /** Sends the request on to the provider; its answer goes back to the engine while the engine still listens. */
  const forward = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: Buffer,
    translation: Translation | undefined,
    tiedToEngine: boolean,
  ): void => {
    const headers = { ...req.headers, 'content-length': String(body.length) };
    const url = new URL(targetUrl + (req.url ?? '/'));
    translation?.query?.(url.searchParams);
    const upstream = http.request(url, { method: req.method, headers }, (answered) => {
      // A delayed request whose engine gave up on it: the provider's answer goes nowhere.
      if (res.destroyed) {
        answered.resume();
        return;
      }
      const status = answered.statusCode ?? 502;
      if (!translation?.answer || status < 200 || status >= 300) {
        res.writeHead(answered.statusCode ?? 502, answered.headers);
        answered.pipe(res);
        return;
      }
      void readBody(answered).then((raw) => {
        const answer = translated(raw, translation.answer);
        res.writeHead(status, { ...answered.headers, 'content-length': String(answer.length) }).end(answer);
      });
    });
    // The provider reset or dropped the connection: so does the proxy, and the engine sees what it would have.
    upstream.on('error', () => res.socket?.destroy());
    if (tiedToEngine) res.on('close', () => upstream.destroy());
    upstream.end(body);
  };

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    void readBody(req).then((raw) => {
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body: raw.toString('utf8') });
      if (held.delete(path)) return;
      const answer = canned.get(path);
      if (answer) {
        canned.delete(path);
        res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
        return;
      }
      const translation = translationOf(path);
      const body = translated(raw, translation?.request);
      const delayMs = delayed.get(path);
      if (delayMs === undefined) {
        forward(req, res, body, translation, true);
        return;
      }
      delayed.delete(path);
      const timer = setTimeout(() => {
        timers.delete(timer);
        forward(req, res, body, translation, false);
      }, delayMs);
      timers.add(timer);
    });
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
    delayNext: (path, ms) => {
      delayed.set(path, ms);
    },
    translate: (path, translation) => {
      translations.unshift([path, translation]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
