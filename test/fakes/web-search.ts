// A stand-in for a SearXNG server (docs.searxng.org, "Search API"): node:http on 127.0.0.1:0
// answering GET /search?q=…&format=json[&categories=images|videos] with {query, number_of_results,
// results: [{url, title, content, engine, img_src?, thumbnail?}]}. What it finds is a function of
// the query and category that a test sets (by default: nothing). Like a real instance, it answers
// 403 when the JSON format is not asked for. Failure modes, switched at run time: down (not
// listening), slow (held back slowMs), not-found (404 HTML), garbage (HTML with 200), bad-json
// (JSON cut off mid-way), wrong-shape (JSON without results). Every request is recorded.
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FakeSearchMode = 'ok' | 'down' | 'slow' | 'not-found' | 'garbage' | 'bad-json' | 'wrong-shape';

export interface FakeSearchResult {
  url: string;
  title: string;
  content?: string;
  img_src?: string;
  thumbnail?: string;
}

export type SearchAnswer = (query: string, category: string) => FakeSearchResult[];

export interface FakeWebSearch {
  readonly url: string;
  /** What a search finds; tests replace it. */
  answer: SearchAnswer;
  requests: Array<{ q: string; category: string; format: string | null }>;
  setMode(mode: FakeSearchMode, opts?: { slowMs?: number }): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeWebSearch(answer: SearchAnswer = () => []): Promise<FakeWebSearch> {
  let mode: FakeSearchMode = 'ok';
  let slowMs = 2_000;
  const sockets = new Set<Socket>();
  let port = 0;

  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const q = url.searchParams.get('q') ?? '';
      const category = url.searchParams.get('categories') ?? 'general';
      state.requests.push({ q, category, format: url.searchParams.get('format') });
      if (mode === 'slow') await new Promise((r) => setTimeout(r, slowMs));
      if (res.destroyed) return;
      if (mode === 'not-found' || url.pathname !== '/search') return send(res, 404, 'text/html', '<html><body><h1>Not Found</h1></body></html>');
      if (mode === 'garbage') return send(res, 200, 'text/html', '<!doctype html><html><body>Too many requests, try again later</body></html>');
      if (mode === 'bad-json') return send(res, 200, 'application/json', '{"query": "x", "results": [{"url": "https://maker.example/", "tit');
      if (mode === 'wrong-shape') return send(res, 200, 'application/json', JSON.stringify({ error: 'rate limited' }));
      if (url.searchParams.get('format') !== 'json') return send(res, 403, 'text/html', '<h1>403 Forbidden</h1>');
      const results = state.answer(q, category).map((r) => ({ engine: 'fake', parsed_url: [], score: 1, category, ...r }));
      send(res, 200, 'application/json', JSON.stringify({ query: q, number_of_results: results.length, results, answers: [], suggestions: [], unresponsive_engines: [] }));
    })();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const listen = (p: number) => new Promise<void>((r) => server.listen(p, '127.0.0.1', () => r()));
  await listen(0);
  port = (server.address() as AddressInfo).port;
  const stop = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });

  const state: FakeWebSearch = {
    url: `http://127.0.0.1:${port}`,
    answer,
    requests: [],
    async setMode(next, opts = {}) {
      if (opts.slowMs !== undefined) slowMs = opts.slowMs;
      if (next === 'down' && mode !== 'down') await stop();
      if (next !== 'down' && mode === 'down') await listen(port);
      mode = next;
    },
    async close() {
      if (mode !== 'down') await stop();
    },
  };
  return state;
}
