// The machinery of a fake outside service with failure modes switched at run time: a node:http
// server on 127.0.0.1:0 that records every request (path, query, User-Agent), stops listening in
// mode 'down' (and listens again, on the same port, when switched back), holds every answer back
// `slowMs` in mode 'slow', and otherwise hands the request and the current mode to the fake's own
// answer. The open-food-facts and geocoder fakes are built on it.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedCall {
  path: string;
  query: Record<string, string>;
  userAgent: string | undefined;
}

export interface ModalFake<M extends string> {
  readonly url: string;
  readonly origin: string;
  requests: RecordedCall[];
  setMode(mode: M | 'ok' | 'down' | 'slow', opts?: { slowMs?: number }): Promise<void>;
  close(): Promise<void>;
}

export function sendText(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startModalFake<M extends string>(answer: (mode: M | 'ok' | 'slow', req: IncomingMessage, res: ServerResponse, url: URL) => void): Promise<ModalFake<M>> {
  let mode: M | 'ok' | 'down' | 'slow' = 'ok';
  let slowMs = 10_000;
  const sockets = new Set<Socket>();
  let port = 0;
  const requests: RecordedCall[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://fake');
    requests.push({ path: u.pathname, query: Object.fromEntries(u.searchParams), userAgent: req.headers['user-agent'] });
    const now = mode as M | 'ok' | 'slow';
    if (now === 'slow') setTimeout(() => answer(now, req, res, u), slowMs);
    else answer(now, req, res, u);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  await listen();
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    async setMode(next, opts = {}) {
      if (opts.slowMs !== undefined) slowMs = opts.slowMs;
      if (next === 'down' && mode !== 'down') await stop();
      if (next !== 'down' && mode === 'down') await listen();
      mode = next;
    },
    async close() {
      if (mode !== 'down') await stop();
    },
  };
}
