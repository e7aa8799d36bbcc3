// Vision (issue 39): POST /api/vision/analyze end to end against the same Ollama fake called
// directly with the request Hearth sends it (the describe schema as `format`, the prepared picture).
// A real server and the fake (test/fakes/model-runtime.ts, no streaming delay), a 1200×800 JPEG.
// The task is `describe` (no OCR); the server's own timings split out the resize (sharp), so
//   added = analyze end to end − resize − the fake's answer to the same request called directly
// is what Hearth adds: the session, the multipart form held in memory, the model pick (a look at the
// runtime's models), the ajv check, the JSON answer. Target: added p50 < 20 ms. OCR is measured
// apart on the receipt task (the server's ocrMs) for scale.
// Run: npm run bench -- vision (BENCH_RUNS, default 40; alternating, after 5 warm-up rounds).
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { createOllamaClient } from '../server/adapters/model-runtime/ollama.js';
import { TASK_SCHEMAS } from '../server/modules/vision/tasks.js';
import { startFakeModelRuntime } from '../test/fakes/model-runtime.js';
import { plainPhoto, receiptPng } from '../test/fixtures/vision/photos.js';
import { multipart } from '../test/harness/multipart.js';
import { startBenchServer } from './bench-server.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export async function run(): Promise<void> {
  const fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
  const server = await startBenchServer({ name: 'vision', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }) } });
  try {
    const photo = await plainPhoto(1200, 800);
    const receipt = await receiptPng();
    const analyze = async (bytes: Buffer, task: string) => {
      const form = multipart([
        { name: 'task', value: task },
        { name: 'image', filename: 'photo.jpg', type: 'image/jpeg', bytes },
      ]);
      const t = performance.now();
      const res = await request(`${server.url}/api/vision/analyze`, { method: 'POST', body: form.body, headers: { ...server.member.headers, 'content-type': form.type } });
      const body = (await res.body.json()) as { timings: { resizeMs: number; ocrMs: number; modelMs: number } };
      if (res.statusCode !== 200) throw new Error(`analyze answered ${res.statusCode}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - t, timings: body.timings };
    };
    // the request Hearth sends, captured once, then sent straight to the fake
    fake.requests.length = 0;
    await analyze(photo, 'describe');
    const sent = JSON.stringify(fake.requests.find((r) => r.path === '/api/chat')!.body);
    if (!sent.includes(JSON.stringify(TASK_SCHEMAS.describe))) throw new Error('the captured request is not the describe task');
    const direct = async () => {
      const t = performance.now();
      const res = await request(`${fake.url}/api/chat`, { method: 'POST', body: sent, headers: { 'content-type': 'application/json' } });
      await res.body.text();
      return performance.now() - t;
    };
    for (let i = 0; i < 5; i++) {
      await analyze(photo, 'describe');
      await direct();
    }
    const total: number[] = [];
    const resize: number[] = [];
    const fakeMs: number[] = [];
    const added: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const a = await analyze(photo, 'describe');
      const d = await direct();
      total.push(a.ms);
      resize.push(a.timings.resizeMs);
      fakeMs.push(d);
      added.push(a.ms - a.timings.resizeMs - d);
    }
    const ocr: number[] = [];
    const receiptTotal: number[] = [];
    for (let i = 0; i < Math.min(RUNS, 10); i++) {
      const r = await analyze(receipt, 'receipt');
      ocr.push(r.timings.ocrMs);
      receiptTotal.push(r.ms);
    }
    const f = (n: number) => n.toFixed(1);
    console.log(`vision analyze (describe, 1200×800 JPEG, ${RUNS} runs alternating with the fake called directly)`);
    console.log(`  end to end:        p50 ${f(pct(total, 50))} ms  p95 ${f(pct(total, 95))} ms`);
    console.log(`  resize (sharp):    p50 ${f(pct(resize, 50))} ms  p95 ${f(pct(resize, 95))} ms`);
    console.log(`  fake directly:     p50 ${f(pct(fakeMs, 50))} ms  p95 ${f(pct(fakeMs, 95))} ms`);
    console.log(`  added by Hearth:   p50 ${f(pct(added, 50))} ms  p95 ${f(pct(added, 95))} ms  (target p50 < 20 ms)`);
    console.log(`  receipt task (900×610 PNG, ${ocr.length} runs): OCR p50 ${f(pct(ocr, 50))} ms, end to end p50 ${f(pct(receiptTotal, 50))} ms`);
  } finally {
    await server.close();
    await fake.close();
  }
}
