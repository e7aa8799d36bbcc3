// The shared machinery of Today's fakes (reference/briefing.md, "Fakes per suite"): a node:http
// server on 127.0.0.1:0 that records every request (path, query, the headers a conditional GET and
// the User-Agent rule need) and can be taken down and brought back on the same port.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  path: string;
  query: URLSearchParams;
  userAgent: string | undefined;
  ifNoneMatch: string | undefined;
  ifModifiedSince: string | undefined;
}

export interface FakeHttp {
  readonly url: string;
  readonly origin: string;
  requests: RecordedRequest[];
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export type FakeHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function startFakeHttp(handler: FakeHandler): Promise<FakeHttp> {
  const sockets = new Set<Socket>();
  let listening = false;
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const h = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
    requests.push({ path: url.pathname, query: url.searchParams, userAgent: h('user-agent'), ifNoneMatch: h('if-none-match'), ifModifiedSince: h('if-modified-since') });
    void Promise.resolve(handler(req, res, url)).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const listen = (p: number) =>
    new Promise<void>((r) =>
      server.listen(p, '127.0.0.1', () => {
        listening = true;
        r();
      }),
    );
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const stop = () =>
    new Promise<void>((r) => {
      if (!listening) return r();
      listening = false;
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    origin,
    requests,
    down: stop,
    up: async () => {
      if (!listening) await listen(port);
    },
    close: stop,
  };
}
