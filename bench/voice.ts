// Voice (issue 34), on the real engines (apt flite, espeak-ng, pocketsphinx, ffmpeg): the time from
// POST /api/tts/stream to its first audio line for a 3-sentence text (target < 300 ms with espeak-ng
// and flite), the real-time factor of POST /api/stt on a flite recording (processing time / audio
// length), and the event loop's p99 delay while 5 speech streams run at once (target < 50 ms).
// Hearth runs in this process, as the API tests start it. Run: npm run bench -- voice
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { request } from 'undici';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { TestClient } from '../test/harness/client.js';
import { postForm } from '../test/harness/multipart.js';
import { fliteWav } from '../test/harness/speech.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

interface Target {
  url: string;
  member: TestClient;
}

const THREE = 'Good morning to you all. Today will be sunny and warm. Take the washing in before dinner.';
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds to the first audio line, and to the end of the stream. */
async function stream(s: Target, voice: string): Promise<{ first: number; total: number }> {
  const t0 = performance.now();
  const res = await request(`${s.url}/api/tts/stream`, { method: 'POST', headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': 'application/json' }, body: JSON.stringify({ text: THREE, voice }) });
  let first = 0;
  let got = '';
  for await (const chunk of res.body) {
    if (first) continue;
    got += chunk.toString();
    if (got.includes('"type":"audio"')) first = performance.now() - t0;
  }
  return { first, total: performance.now() - t0 };
}

export async function run(): Promise<void> {
  const temp = makeTempDir('hearth-bench-voice-');
  const config = { ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: process.env.PATH ?? '' }, []), host: '127.0.0.1', port: 0 };
  const server = await createServer(config, { logger: createMemoryLogger('warn') });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    await server.deps.boot.start();
    const admin = await server.deps.auth.createFirstAdmin('Alex', '1234');
    const s: Target = { url, member: new TestClient(url, `session=${admin.token}`) };
    console.log(`\nvoice: time to the first audio line, 3 sentences (median of ${RUNS}, after one warm-up)`);
    for (const voice of ['espeak-ng:en-us', 'flite:kal16', 'flite:slt']) {
      await stream(s, voice);
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await stream(s, voice));
      const first = median(runs.map((r) => r.first));
      console.log(`  ${voice}: first audio ${first.toFixed(0)} ms (target < 300: ${first < 300 ? 'met' : 'NOT met'}), whole stream ${median(runs.map((r) => r.total)).toFixed(0)} ms`);
    }

    const text = 'Remind me to buy milk tomorrow. The quick brown fox jumps over the lazy dog.';
    const { bytes } = fliteWav(temp.dir, 'clip', text);
    const rtfs = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const r = await postForm(s.url, s.member, '/api/stt', [{ name: 'file', filename: 'clip.wav', type: 'audio/wav', bytes }]);
      rtfs.push((performance.now() - t0) / 1000 / (r.body.durationSeconds as number));
    }
    console.log(`  /api/stt real-time factor (wall, ${(bytes.length / 32_000).toFixed(1)} s flite clip, median of 3): ${median(rtfs).toFixed(2)}`);

    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    await Promise.all(Array.from({ length: 5 }, () => stream(s, 'flite:slt')));
    h.disable();
    const p99 = h.percentile(99) / 1e6;
    console.log(`  event-loop delay p99 while 5 streams run: ${p99.toFixed(1)} ms (target < 50: ${p99 < 50 ? 'met' : 'NOT met'})`);
  } finally {
    await server.close();
    temp.remove();
  }
}
