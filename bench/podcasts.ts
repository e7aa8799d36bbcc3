// Podcasts at household scale (issue 35). An enclosure host (node:http in a worker thread, so serving
// does not share Hearth's event loop) serves one 64 MB episode with Range.
// Phase 1: the episode read whole, straight from the host and through Hearth's proxy
// (GET /api/podcasts/episodes/:id/audio: session, the SSRF guard, the analytics-free enclosure
// fetched and piped), alternating, 5 times each, in the same run; throughput medians and their ratio
// (target ≥ 0.9x). The same episode's offline copy read through Hearth is printed beside them.
// Phase 2: a member following 100 shows × 500 episodes (half published after they followed);
// GET /api/podcasts/inbox 500 times, one request at a time (target p95 < 20 ms), against
// GET /api/system/ready in the same run as the baseline.
// Run: npm run bench -- podcasts
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startBenchServer } from './bench-server.js';

const MB = 1024 * 1024;
const EPISODE_BYTES = 64 * MB;
const ROUNDS = 5;
const SHOWS = 100;
const EPISODES = 500;
const REQUESTS = 500;

const HOST = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const body = Buffer.alloc(workerData.bytes);
for (let i = 0; i < body.length; i += 4096) body[i] = i % 251;
// /paced.mp3: the same bytes at about 50 MB/s (a fast home connection is far slower), 1 MB every 20 ms
function paced(res) {
  res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': body.length });
  let at = 0;
  const next = () => {
    if (at >= body.length) return res.end();
    const chunk = body.subarray(at, at + 1048576);
    at += chunk.length;
    res.write(chunk);
    setTimeout(next, 20);
  };
  next();
}
const server = http.createServer((req, res) => {
  if (req.url === '/paced.mp3') return paced(res);
  if (req.url !== '/ep.mp3') { res.writeHead(404); return res.end(); }
  const m = /^bytes=(\\d*)-(\\d*)$/.exec(req.headers.range || '');
  if (!m) { res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': body.length, 'accept-ranges': 'bytes' }); return res.end(body); }
  const start = Number(m[1] || 0), end = Math.min(m[2] ? Number(m[2]) : body.length - 1, body.length - 1);
  res.writeHead(206, { 'content-type': 'audio/mpeg', 'content-length': end - start + 1, 'content-range': 'bytes ' + start + '-' + end + '/' + body.length });
  res.end(body.subarray(start, end + 1));
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

// the player: a thread of its own, so reading does not share Hearth's event loop either
const READER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ url, headers }) => {
  try {
    const t = performance.now();
    const r = await fetch(url, { headers });
    if (r.status !== 200) throw new Error(url + ' answered ' + r.status);
    let n = 0;
    for await (const chunk of r.body) n += chunk.length;
    parentPort.postMessage({ n, ms: performance.now() - t });
  } catch (err) {
    parentPort.postMessage({ error: String(err) });
  }
});
`;
let reader: Worker | null = null;

/** Reads a whole answer (in the reader thread), in MB/s. */
async function readAll(url: string, headers: Record<string, string> = {}): Promise<number> {
  reader ??= new Worker(READER, { eval: true });
  const r = reader;
  const out = await new Promise<{ n?: number; ms?: number; error?: string }>((resolve) => {
    r.once('message', resolve);
    r.postMessage({ url, headers });
  });
  if (out.error) throw new Error(out.error);
  if (out.n !== EPISODE_BYTES) throw new Error(`${url} sent ${out.n} bytes`);
  return out.n / MB / (out.ms! / 1000);
}

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

export async function run(): Promise<void> {
  const host = new Worker(HOST, { eval: true, workerData: { bytes: EPISODE_BYTES } });
  const port = await new Promise<number>((resolve) => host.once('message', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const server = await startBenchServer({ name: 'podcasts', config: () => ({ fetchAllowOrigins: [origin] }) });
  try {
    const { url, deps } = server;
    const db = deps.db;
    const headers = { cookie: server.member.headers.cookie };
    const followedAt = '2026-06-01T00:00:00.000Z';

    // phase 1: one show, one 64 MB episode
    const showId = randomUUID();
    const episodeId = randomUUID();
    await db('podcast_subscriptions').insert({ id: showId, user_id: server.member.id, feed_url: `${origin}/feed.xml`, title: 'Bench show', subscribed_at: followedAt });
    await db('podcast_episodes').insert({ id: episodeId, subscription_id: showId, key: 'big', title: 'Big episode', audio_url: `${origin}/ep.mp3`, audio_type: 'audio/mpeg', published_at: followedAt });
    const direct: number[] = [];
    const proxied: number[] = [];
    await readAll(`${origin}/ep.mp3`); // warm both paths once
    await readAll(`${url}/api/podcasts/episodes/${episodeId}/audio`, headers);
    for (let i = 0; i < ROUNDS; i++) {
      direct.push(await readAll(`${origin}/ep.mp3`));
      proxied.push(await readAll(`${url}/api/podcasts/episodes/${episodeId}/audio`, headers));
    }
    const d = pct(direct, 50);
    const p = pct(proxied, 50);
    console.log(`podcasts: a 64 MB episode read whole, median of ${ROUNDS}: straight from the host ${d.toFixed(0)} MB/s, through Hearth's proxy ${p.toFixed(0)} MB/s = ${(p / d).toFixed(2)}x (target ≥ 0.9x)`);
    // the same with the host sending at about 50 MB/s, as a real enclosure host (far) at most does
    await db('podcast_episodes').where({ id: episodeId }).update({ audio_url: `${origin}/paced.mp3` });
    const pacedDirect: number[] = [];
    const pacedProxied: number[] = [];
    for (let i = 0; i < 3; i++) {
      pacedDirect.push(await readAll(`${origin}/paced.mp3`));
      pacedProxied.push(await readAll(`${url}/api/podcasts/episodes/${episodeId}/audio`, headers));
    }
    const pd = pct(pacedDirect, 50);
    const pp = pct(pacedProxied, 50);
    console.log(`podcasts: the host sending at ~50 MB/s, median of 3: straight ${pd.toFixed(0)} MB/s, through Hearth's proxy ${pp.toFixed(0)} MB/s = ${(pp / pd).toFixed(2)}x`);
    await db('podcast_episodes').where({ id: episodeId }).update({ audio_url: `${origin}/ep.mp3` });

    // the same episode's offline copy (written where the queue would put it), served from disk
    const copyId = 'bench0000000000000000000000000000';
    const file = path.join(server.dataDir, 'podcasts', `${copyId}.mp3`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, Buffer.alloc(EPISODE_BYTES));
    await db('podcast_copies').insert({ id: copyId, audio_url: `${origin}/ep.mp3`, destination: `podcasts/${copyId}.mp3`, audio_type: 'audio/mpeg', state: 'ready', bytes: EPISODE_BYTES, created_at: followedAt });
    await db('podcast_downloads').insert({ episode_id: episodeId, copy_id: copyId, requested_at: followedAt });
    const copy: number[] = [];
    for (let i = 0; i < ROUNDS; i++) copy.push(await readAll(`${url}/api/podcasts/episodes/${episodeId}/audio`, headers));
    console.log(`podcasts: the same episode from Hearth's offline copy: ${pct(copy, 50).toFixed(0)} MB/s (${(pct(copy, 50) / d).toFixed(2)}x the host)`);
    await db('podcast_subscriptions').where({ id: showId }).delete();
    await db('podcast_copies').delete();

    // phase 2: 100 shows × 500 episodes
    const t0 = performance.now();
    for (let sIdx = 0; sIdx < SHOWS; sIdx++) {
      const id = randomUUID();
      await db('podcast_subscriptions').insert({ id, user_id: server.member.id, feed_url: `https://feeds.example/${sIdx}.xml`, title: `Show ${sIdx}`, subscribed_at: followedAt });
      const rows = Array.from({ length: EPISODES }, (_, e) => ({
        id: randomUUID(),
        subscription_id: id,
        key: `s${sIdx}-e${e}`,
        title: `Show ${sIdx} episode ${e}: a conversation about bread`,
        audio_url: `https://cdn.example/${sIdx}/${e}.mp3`,
        audio_type: 'audio/mpeg',
        audio_length: 30 * MB,
        duration_sec: 1800,
        // half before following, half after (those are in the inbox until finished)
        published_at: new Date(Date.parse(followedAt) + (e - EPISODES / 2) * 3_600_000 + sIdx * 60_000).toISOString(),
        finished: e % 7 === 0,
      }));
      for (let i = 0; i < rows.length; i += 250) await db('podcast_episodes').insert(rows.slice(i, i + 250));
    }
    console.log(`podcasts: ${SHOWS} shows × ${EPISODES} episodes written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const ready = await timedGets(`${url}/api/system/ready`, {});
    const inbox = await timedGets(`${url}/api/podcasts/inbox`, headers);
    const shows = await timedGets(`${url}/api/podcasts/subscriptions`, headers);
    console.log(`podcasts: GET /api/system/ready p50 ${pct(ready, 50).toFixed(2)} ms, p95 ${pct(ready, 95).toFixed(2)} ms (baseline)`);
    console.log(`podcasts: GET /api/podcasts/inbox (newest 200 of ${SHOWS * EPISODES} episodes) p50 ${pct(inbox, 50).toFixed(2)} ms, p95 ${pct(inbox, 95).toFixed(2)} ms (target < 20 ms; ${(pct(inbox, 95) / pct(ready, 95)).toFixed(1)}x the baseline)`);
    console.log(`podcasts: GET /api/podcasts/subscriptions (${SHOWS} shows) p95 ${pct(shows, 95).toFixed(2)} ms`);
  } finally {
    await server.close();
    await host.terminate();
    await reader?.terminate();
    reader = null;
  }
}
