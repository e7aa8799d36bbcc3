// Chat through Hearth against the same Ollama fake called directly, in the same run: time to the
// first token (p50/p95) and tokens per second, then Hearth's RSS while 20 answers stream at once.
// Hearth runs as `npm start` runs it (server/cli.ts in a child process) so its RSS is its own; the
// fake and the clients run in this process. The data dir is seeded in-process first (a member, a
// session, the chat model). CHAT_BENCH_N changes the number of answers per side (default 40).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { SESSION_COOKIE } from '../server/http/auth.js';
import { hashPin } from '../server/modules/auth/pin.js';
import { SESSION_TTL_MS } from '../server/modules/auth/schema.js';
import { AuthStore } from '../server/modules/auth/store.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../test/fakes/model-runtime.js';
import { freePort } from '../test/harness/net.js';
import { startHearthProcess, stopProcess } from '../test/harness/processes.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const N = Number(process.env.CHAT_BENCH_N ?? 40);
/** CHAT_BENCH_ONLY=together: only the twenty-at-once rows (and RSS), not the one-at-a-time table. */
const ONLY_TOGETHER = process.env.CHAT_BENCH_ONLY === 'together';
const CONCURRENT = 20;
const reply = (words: number) => Array.from({ length: words }, (_, i) => `token${i}`).join(' ');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

interface Timing {
  /** ms from sending the request to the first token. */
  firstMs: number;
  /** tokens per second from the first token to the last. */
  tps: number;
  tokens: number;
}

/** POST /api/chat on the fake, reading NDJSON lines as Hearth's adapter would. */
async function direct(fake: FakeModelRuntime, question: string): Promise<Timing> {
  const t0 = performance.now();
  const res = await request(`${fake.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: CHAT_MODEL.name, stream: true, messages: [{ role: 'user', content: question }] }),
  });
  let first = 0;
  let last = 0;
  let tokens = 0;
  let buffered = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    buffered += decoder.decode(chunk as Uint8Array, { stream: true });
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, nl)) as { message?: { content?: string } };
      buffered = buffered.slice(nl + 1);
      if (line.message?.content) {
        last = performance.now();
        first ||= last;
        tokens++;
      }
    }
  }
  return { firstMs: first - t0, tps: tokens > 1 ? ((tokens - 1) * 1000) / (last - first) : NaN, tokens };
}

/** POST /api/chat/chat/stream on Hearth, reading its events as the web app would. */
async function viaHearth(base: string, cookie: string, question: string): Promise<Timing> {
  const t0 = performance.now();
  const res = await request(`${base}/api/chat/chat/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: base },
    body: JSON.stringify({ message: question }),
  });
  if (res.statusCode !== 200) throw new Error(`Hearth answered ${res.statusCode}: ${await res.body.text()}`);
  let first = 0;
  let last = 0;
  let tokens = 0;
  let buffered = '';
  let failed = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    buffered += decoder.decode(chunk as Uint8Array, { stream: true });
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (frame.startsWith('event: token')) {
        last = performance.now();
        first ||= last;
        tokens++;
      } else if (frame.startsWith('event: error')) failed = frame;
    }
  }
  if (failed) throw new Error(`the stream failed: ${failed}`);
  return { firstMs: first - t0, tps: tokens > 1 ? ((tokens - 1) * 1000) / (last - first) : NaN, tokens };
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

async function seed(dataDir: string): Promise<string> {
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '' }, []), host: '127.0.0.1', port: 0 };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    const store = new AuthStore(server.deps.db);
    const now = new Date();
    const userId = randomUUID();
    await store.insertUser({ id: userId, name: 'Sam', role: 'member', avatar: null, pinHash: await hashPin('5678'), createdAt: now.toISOString(), updatedAt: now.toISOString() });
    const token = randomBytes(32).toString('base64url');
    await store.insertSession({
      id: randomUUID(),
      tokenHash: createHash('sha256').update(token).digest('hex'),
      userId,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
      userAgent: null,
    });
    await server.deps.settings.set('chat_model', CHAT_MODEL.name);
    return `${SESSION_COOKIE}=${token}`;
  } finally {
    await server.close();
  }
}

export async function run(): Promise<void> {
  const temp = makeTempDir('hearth-bench-chat-');
  const fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
  let child: Awaited<ReturnType<typeof startHearthProcess>> | null = null;
  try {
    const cookie = await seed(temp.dir);
    const port = await freePort();
    // CHAT_BENCH_CPU_PROF=<dir>: Hearth's child writes a CPU profile there when it stops
    const prof = process.env.CHAT_BENCH_CPU_PROF;
    child = await startHearthProcess({
      port,
      dataDir: temp.dir,
      env: { MODEL_RUNTIME_URL: fake.url, LOG_LEVEL: 'warn' },
      what: 'Hearth for the chat bench',
      nodeArgs: prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [],
    });
    const base = `http://127.0.0.1:${port}`;
    const rows: string[][] = [];

    // Same fake, same answers, interleaved: direct then through Hearth, N times each, at three
    // paces: 10 ms a token (a fast local model, ~100 tokens/s), 1 ms a token (faster than any model
    // Hearth will run) and no delay at all (the fake writes every line at once: the relay's ceiling).
    for (const [label, delay, words] of ONLY_TOGETHER
      ? []
      : ([
          ['10 ms/token', 10, 60],
          ['1 ms/token', 1, 300],
          ['no delay', 0, 2000],
        ] as const)) {
      fake.chunkDelayMs = delay;
      fake.chatReply = (req) => (req.format !== undefined ? JSON.stringify({ title: 'Bench answer' }) : reply(words));
      for (let i = 0; i < 5; i++) {
        await direct(fake, `warm-up ${i}`);
        await viaHearth(base, cookie, `warm-up ${i}`);
      }
      const d: Timing[] = [];
      const h: Timing[] = [];
      for (let i = 0; i < N; i++) {
        d.push(await direct(fake, `question ${i}`));
        h.push(await viaHearth(base, cookie, `question ${i}`));
      }
      const added = h.map((x, i) => x.firstMs - d[i]!.firstMs);
      const tpsD = pct(d.map((x) => x.tps), 50);
      const tpsH = pct(h.map((x) => x.tps), 50);
      rows.push([
        label,
        `${pct(d.map((x) => x.firstMs), 50).toFixed(2)} / ${pct(d.map((x) => x.firstMs), 95).toFixed(2)}`,
        `${pct(h.map((x) => x.firstMs), 50).toFixed(2)} / ${pct(h.map((x) => x.firstMs), 95).toFixed(2)}`,
        pct(added, 50).toFixed(2),
        tpsD.toFixed(0),
        tpsH.toFixed(0),
        (tpsH / tpsD).toFixed(3),
      ]);
    }

    if (rows.length > 0) {
      console.log(`\nchat: ${N} answers each side, same fake, same run (Hearth in a child process, as npm start runs it)`);
      const head = ['pace', 'direct first token ms p50/p95', 'Hearth first token ms p50/p95', 'added p50 ms', 'direct tok/s p50', 'Hearth tok/s p50', 'ratio'];
      console.table(rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]]))));
    }

    // Twenty answers at once at a model's pace (20 ms a token, 300 tokens: ~6 s each), first
    // directly against the fake, then through Hearth (which also names each new conversation with
    // one more short answer before its done event): end-to-end throughput is all tokens received
    // over the wall time from the first request to the last stream's end. Target: Hearth at least
    // 0.9x of direct, in the same run.
    fake.chunkDelayMs = 20;
    fake.chatReply = (req) => (req.format !== undefined ? JSON.stringify({ title: 'Bench answer' }) : reply(300));
    const together = async (one: (i: number) => Promise<Timing>) => {
      const t0 = performance.now();
      const all = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => one(i)));
      const wallMs = performance.now() - t0;
      const tokens = all.reduce((n, r) => n + r.tokens, 0);
      return { tps: (tokens * 1000) / wallMs, wallMs, tokens, first: all.map((r) => r.firstMs) };
    };
    await together((i) => direct(fake, `warm-up together ${i}`));
    await together((i) => viaHearth(base, cookie, `warm-up together ${i}`));
    const dTogether = await together((i) => direct(fake, `together ${i}`));
    const hTogether = await together((i) => viaHearth(base, cookie, `together ${i}`));
    const ratio = hTogether.tps / dTogether.tps;
    console.log(`\nchat: ${CONCURRENT} answers at once, 20 ms a token, 300 tokens each (same fake, same run)`);
    console.table(
      [
        ['direct', dTogether],
        ['through Hearth', hTogether],
      ].map(([label, r]) => {
        const x = r as typeof dTogether;
        return {
          side: label,
          'first token ms p50/p95': `${pct(x.first, 50).toFixed(1)} / ${pct(x.first, 95).toFixed(1)}`,
          'all done s': (x.wallMs / 1000).toFixed(2),
          tokens: x.tokens,
          'tokens/s end to end': x.tps.toFixed(0),
        };
      }),
    );
    console.log(`  end-to-end throughput through Hearth: ${ratio.toFixed(3)}x of direct (target >= 0.9x: ${ratio >= 0.9 ? 'met' : 'NOT met'})`);

    // RSS: idle, then while 20 answers stream at once (20 ms a token, 300 tokens: ~6 s each).
    const pid = child.pid!;
    const idle = rssMb(pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
    let overlapped = 0;
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        const t = await viaHearth(base, cookie, `concurrent ${i}`);
        if (t.firstMs < 1000) overlapped++;
        return t;
      }),
    );
    const wall = performance.now() - started;
    clearInterval(sampler);
    const after = rssMb(pid);
    console.log(
      `\nchat RSS (Hearth child): idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB with ${CONCURRENT} concurrent streams ` +
        `(${overlapped} started within 1 s, all done in ${(wall / 1000).toFixed(1)} s, ${results.reduce((n, r) => n + r.tokens, 0)} tokens), after ${after.toFixed(0)} MB`,
    );
  } finally {
    await stopProcess(child);
    await fake.close();
    temp.remove();
  }
}
