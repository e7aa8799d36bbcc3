// Today's news at household scale (issue 33): 200 feeds × 50 items. A feed site (node:http in a
// worker thread, so serving does not share Hearth's event loop) serves 200 RSS feeds with ETags.
// Phase 1: the news task's full refresh of every feed (first fetch: 200 × ~40 KB parsed and 10,000
// items written), with the server's event-loop delay sampled throughout (perf_hooks, 5 ms
// resolution; target p99 < 50 ms). Phase 2: a second full refresh (every feed answers 304).
// Phase 3: GET /api/news (limit 30) 500 times, one request at a time, as a signed-in member
// (target p95 < 20 ms), against GET /api/system/ready in the same run as the baseline.
// Run: npm run bench -- today-news
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startBenchServer } from './bench-server.js';

const FEEDS = Number(process.env.TODAY_BENCH_FEEDS ?? 200);
const ITEMS = 50;
const REQUESTS = 500;

const SITE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const feeds = new Map();
for (let f = 0; f < workerData.feeds; f++) {
  let items = '';
  for (let i = 0; i < workerData.items; i++) {
    const t = new Date(Date.UTC(2026, 4, 14, 8) - (f * 37 + i * 3600) * 1000).toUTCString();
    items += '<item><guid>f' + f + '-' + i + '</guid><title>Feed ' + f + ' story ' + i + ': the harbour council meets again</title><link>https://news' + f + '.example/a/' + i + '</link><description>&lt;p&gt;' + 'A paragraph of the story with &lt;b&gt;some&lt;/b&gt; markup. '.repeat(8) + '&lt;/p&gt;</description><pubDate>' + t + '</pubDate></item>';
  }
  feeds.set('/feed/' + f + '.xml', { body: '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Feed ' + f + '</title><link>https://news' + f + '.example/</link>' + items + '</channel></rss>', etag: '"v1-' + f + '"' });
}
const server = http.createServer((req, res) => {
  const feed = feeds.get(req.url);
  if (!feed) { res.writeHead(404); return res.end(); }
  if (req.headers['if-none-match'] === feed.etag) { res.writeHead(304, { etag: feed.etag }); return res.end(); }
  res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8', etag: feed.etag, 'content-length': Buffer.byteLength(feed.body) });
  res.end(feed.body);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function timedGets(url: string, headers: Record<string, string>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    const r = await fetch(url, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
    out.push(performance.now() - t);
  }
  return out;
}

async function refreshWithDelay(run: () => Promise<unknown>): Promise<{ ms: number; p50: number; p99: number; max: number }> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const t = performance.now();
  await run();
  const ms = performance.now() - t;
  h.disable();
  return { ms, p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
}

export async function run(): Promise<void> {
  const site = new Worker(SITE, { eval: true, workerData: { feeds: FEEDS, items: ITEMS } });
  const port = await new Promise<number>((resolve) => site.once('message', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const server = await startBenchServer({ name: 'today', config: () => ({ fetchAllowOrigins: [origin] }) });
  try {
    const { url, deps } = server;
    const headers = { cookie: server.member.headers.cookie };
    const now = new Date().toISOString();
    await deps.db('news_feeds').insert(Array.from({ length: FEEDS }, (_, f) => ({ url: `${origin}/feed/${f}.xml`, title: `Feed ${f}`, state: 'active', created_at: now })));

    const first = await refreshWithDelay(() => deps.news.pollDue());
    const items = Number(((await deps.db('news_items').count({ n: '*' })) as Array<{ n: number }>)[0]!.n);
    console.log(`today-news: full refresh of ${FEEDS} feeds (first fetch, ${items} items kept): ${first.ms.toFixed(0)} ms; event-loop delay p50 ${first.p50.toFixed(1)} ms, p99 ${first.p99.toFixed(1)} ms, max ${first.max.toFixed(1)} ms (target p99 < 50 ms)`);

    await deps.db('today_cache').update({ expires_at: '2000-01-01T00:00:00.000Z' });
    const second = await refreshWithDelay(() => deps.news.pollDue());
    console.log(`today-news: second full refresh (every feed 304): ${second.ms.toFixed(0)} ms; event-loop delay p99 ${second.p99.toFixed(1)} ms, max ${second.max.toFixed(1)} ms`);

    const ready = await timedGets(`${url}/api/system/ready`, {});
    const news = await timedGets(`${url}/api/news?limit=30`, headers);
    const older = await timedGets(`${url}/api/news?limit=30&before=2026-05-13T00:00:00Z`, headers);
    console.log(`today-news: GET /api/system/ready p50 ${pct(ready, 50).toFixed(2)} ms, p95 ${pct(ready, 95).toFixed(2)} ms (baseline)`);
    console.log(`today-news: GET /api/news?limit=30 p50 ${pct(news, 50).toFixed(2)} ms, p95 ${pct(news, 95).toFixed(2)} ms (target < 20 ms; ${(pct(news, 95) / pct(ready, 95)).toFixed(1)}x the baseline)`);
    console.log(`today-news: GET /api/news?limit=30&before=… p95 ${pct(older, 95).toFixed(2)} ms`);
  } finally {
    await server.close();
    await site.terminate();
  }
}
