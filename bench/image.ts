// Image generation's engine queue against the fake engine, in one process, in the same run:
// - overhead per job: the runner's graph build + upload-free submit + socket + first preview relayed
//   to a listener, against the same sequence done directly with the adapter (baseline), p50/p95;
// - preview relay latency: from a frame reaching the adapter's socket to the job's listener;
// - RSS while 10 jobs are queued (one on the engine), against the RSS before.
// IMAGE_BENCH_N changes the number of jobs per side (default 30). Target: overhead under 20 ms p50.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createComfyUiClient } from '../server/adapters/image-engine/comfyui.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import type { EngineJob, ImageEngineClient, ImageEngineRuntime } from '../server/modules/image-gen/parts.js';
import { EngineJobRunner } from '../server/modules/image-gen/runner.js';
import type { Artifact } from '../server/modules/image-gen/schema.js';
import { buildGraph } from '../server/modules/image-gen/workflow-graph.js';
import { startFakeImageEngine } from '../test/fakes/image-engine.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const N = Number(process.env.IMAGE_BENCH_N ?? 30);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const graph = (id: string) => buildGraph({ pipeline: 'txt2img', checkpoint: 'sdxl_base.safetensors', seed: 1, width: 1024, height: 1024, steps: 4, positive: 'a red fox in the snow', negative: 'blurry', filenamePrefix: `hearth/${id}` });

export async function run(): Promise<void> {
  const engine = await startFakeImageEngine({ stepMs: 2 });
  const tmp = makeTempDir('image-bench-');
  try {
    const client = createComfyUiClient({ baseUrl: engine.url });
    // baseline: the adapter alone, graph built beforehand
    const direct: number[] = [];
    for (let i = 0; i < N; i++) {
      const built = graph(`d${i}`);
      const t0 = performance.now();
      const clientId = randomUUID();
      const socket = await client.connect(clientId);
      const first = new Promise<void>((resolve) => socket.onFrame((f) => f.type === 'preview' && resolve()));
      await client.submit(built.graph, clientId);
      await first;
      direct.push(performance.now() - t0);
      await new Promise<void>((resolve) => socket.onFrame((f) => f.type === 'executing' && f.node === null && resolve()));
      socket.close();
    }

    // Hearth: the runner, with adapter arrival stamped for the relay latency
    const relay: number[] = [];
    let lastArrival = 0;
    const stamped: ImageEngineClient = {
      ...client,
      connect: async (id, signal) => {
        const s = await client.connect(id, signal);
        const inner = s.onFrame.bind(s);
        return { ...s, onFrame: (l) => inner((f) => (f.type === 'preview' && (lastArrival = performance.now()), l(f))), onClose: s.onClose.bind(s), close: s.close.bind(s) };
      },
    };
    const runtime = { whenReady: async () => undefined, restart: async () => undefined } as unknown as ImageEngineRuntime;
    const runner = new EngineJobRunner({
      client: stamped,
      runtime,
      rows: { update: async () => undefined, artifact: async (id) => ({ id }) as unknown as Artifact },
      imagesDir: tmp.dir,
      logger: createMemoryLogger('warn'),
      now: () => new Date(),
    });
    const job = (id: string, userId = 'anna'): EngineJob => ({ id, userId, pipeline: 'txt2img', inputs: {}, build: () => graph(id) });
    const hearth: number[] = [];
    for (let i = 0; i < N; i++) {
      const id = `h${i}`;
      const t0 = performance.now();
      const done = new Promise<void>((resolve) => {
        runner.enqueue(job(id));
        let first = true;
        runner.subscribe(id, (e) => {
          if (e.type === 'preview') {
            relay.push(performance.now() - lastArrival);
            if (first) hearth.push(performance.now() - t0);
            first = false;
          }
          if (e.type === 'done' || e.type === 'error') resolve();
        });
      });
      await done;
    }
    const overhead = pct(hearth, 50) - pct(direct, 50);

    // RSS with 10 jobs queued
    global.gc?.();
    const before = process.memoryUsage().rss;
    engine.script = { stepMs: 20 };
    const ends = Array.from({ length: 10 }, (_, i) => {
      const id = `q${i}`;
      runner.enqueue(job(id, `member${i % 3}`));
      return new Promise<void>((resolve) => runner.subscribe(id, (e) => (e.type === 'done' || e.type === 'error') && resolve()));
    });
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    await Promise.all(ends);
    clearInterval(sampler);
    await runner.stop();

    console.log(`image: ${N} jobs per side against the fake engine (4 sampler steps, 2 ms a step)`);
    console.log(`  direct (adapter only) submit -> first preview: p50 ${pct(direct, 50).toFixed(1)} ms, p95 ${pct(direct, 95).toFixed(1)} ms`);
    console.log(`  Hearth runner enqueue -> first preview relayed: p50 ${pct(hearth, 50).toFixed(1)} ms, p95 ${pct(hearth, 95).toFixed(1)} ms`);
    console.log(`  overhead per job (p50 difference): ${overhead.toFixed(1)} ms (target < 20 ms)`);
    console.log(`  preview relay (adapter frame -> job listener): p50 ${pct(relay, 50).toFixed(3)} ms, p95 ${pct(relay, 95).toFixed(3)} ms`);
    console.log(`  RSS (this process, fake included): ${(before / 1e6).toFixed(0)} MB before, ${(peak / 1e6).toFixed(0)} MB peak with 10 jobs queued (x${(peak / before).toFixed(2)})`);
  } finally {
    await engine.close();
    tmp.remove();
  }
}
