// Admin › Benchmarks (issue 39): a run streams its progress and ends with done (a late joiner gets
// the replay), one run at a time (409), the results are kept (across a restart) and the Features
// page's fit hint uses the measured chat speed; chat per installed chat model through the model
// runtime (the fake's eval_count/eval_duration), the image engine skipped with its reason when not
// set up, a real disk measure in the data folder whose temporary file is gone after.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchmarkResults, BenchmarksResponse } from '../../server/modules/benchmarks/schema.js';
import { IMAGE_NOT_SET_UP } from '../../server/modules/benchmarks/measures.js';
import { FeaturePlan, type CatalogItemView } from '../../server/modules/features/schema.js';
import { createStandInEngine, type StandInEngine } from '../fakes/image-queue.js';
import { CANNED_REPLY, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { until } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('benchmarks (/api/admin/benchmarks)', () => {
  const temp = makeTempDir();
  let fake: FakeModelRuntime;
  let s: TestServer;
  const start = (dataDir: string, seed: 'household' | undefined) =>
    startTestServer({ seed, dataDir, config: { modelRuntimeUrl: fake.url }, overrides: { tuning: { benchmarkDiskBytes: 4 * 1024 * 1024 } } });

  beforeAll(async () => {
    fake = await startFakeModelRuntime();
    s = await start(temp.dir, 'household');
  });
  afterAll(async () => {
    await s?.close();
    await fake.close();
    temp.remove();
  });

  it('answers 401 anonymous and 403 to a member; nothing stored and no stream before a run', async () => {
    for (const [m, p] of [['get', '/api/admin/benchmarks'], ['post', '/api/admin/benchmarks/run'], ['get', '/api/admin/benchmarks/stream']] as const) {
      expect((await s.anon[m](p)).status, p).toBe(401);
      expect((await s.member[m](p)).status, p).toBe(403);
    }
    expect(BenchmarksResponse.parse((await s.admin.get('/api/admin/benchmarks')).body)).toEqual({ running: false, last: null });
    const none = await s.admin.get('/api/admin/benchmarks/stream');
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/No benchmark has run/);
  });

  it('runs once at a time, streams progress ending with done, and stores the results', async () => {
    fake.chunkDelayMs = 40; // a run long enough to ask again while it goes
    const run = await s.admin.post('/api/admin/benchmarks/run', {});
    expect(run.status).toBe(202);
    expect(run.body).toMatchObject({ running: true, startedAt: expect.any(String) });
    const again = await s.admin.post('/api/admin/benchmarks/run', {});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'benchmark_running', message: expect.stringMatching(/already running/) });
    expect((await s.admin.get('/api/admin/benchmarks')).body.running).toBe(true);

    const live = await connectSse(s.url, '/api/admin/benchmarks/stream', { cookie: s.admin.cookie! });
    expect(live.status).toBe(200);
    await live.ended;
    fake.chunkDelayMs = 5;
    const names = live.events.map((e) => e.event);
    expect(names[0]).toBe('start');
    expect(names.at(-1)).toBe('done');
    expect(names).toEqual(expect.arrayContaining(['progress', 'chat', 'image', 'disk']));
    const done = BenchmarkResults.parse(live.events.at(-1)!.data);

    // every installed chat model (the embedding model is not one), measured with Ollama's own timing
    const models = done.chat.map((c) => c.model).sort();
    expect(models).toEqual(['llama3.2:3b', 'llava:7b']);
    const llama = done.chat.find((c) => c.model === 'llama3.2:3b')!;
    expect(llama.error).toBeNull();
    // the fake answers eval_count (one token a word of its reply) in eval_duration 0.345678901 s
    const evalCount = CANNED_REPLY.match(/\S+\s*/g)!.length;
    expect(llama.tokensPerSecond).toBe(Math.round((evalCount / 0.345678901) * 10) / 10);
    expect(llama.wordsPerSecond).toBeCloseTo(llama.tokensPerSecond! * 0.75, 0);
    expect(llama.firstTokenMs).toBeGreaterThanOrEqual(0);
    expect(done.chatSkipped).toBeNull();
    // no image engine here: skipped, with the reason
    expect(done.image).toEqual({ secondsPerStep: null, steps: null, skipped: IMAGE_NOT_SET_UP });
    // the disk: real figures, and the temporary file is gone
    expect(done.disk).toMatchObject({ bytes: 4 * 1024 * 1024, error: null });
    expect(done.disk.writeMBps).toBeGreaterThan(0);
    expect(done.disk.readMBps).toBeGreaterThan(0);
    expect(readdirSync(path.join(s.dataDir, 'benchmarks'))).toEqual([]);

    // a late joiner gets the whole run replayed, ending with done
    const late = await connectSse(s.url, '/api/admin/benchmarks/stream', { cookie: s.admin.cookie! });
    await late.ended;
    expect(late.events.map((e) => e.event)).toEqual(names);

    const stored = BenchmarksResponse.parse((await s.admin.get('/api/admin/benchmarks')).body);
    expect(stored).toEqual({ running: false, last: done });
  });

  it('the Features page says the measured speed of an installed chat model, and it survives a restart', async () => {
    const { users } = s;
    await s.close();
    s = await start(temp.dir, undefined);
    s.admin = await s.signIn(users.admin.id, '1234');
    const last = BenchmarksResponse.parse((await s.admin.get('/api/admin/benchmarks')).body).last!;
    expect(last).not.toBeNull();
    const plan = FeaturePlan.parse((await s.admin.get('/api/admin/features')).body);
    const items: CatalogItemView[] = plan.groups.flatMap((g) => [g.base, ...g.items, ...g.categories.flatMap((c) => c.items)]);
    const small = items.find((i) => i.id === 'chat-small')!;
    const measured = last.chat.find((c) => c.model === 'llama3.2:3b')!;
    expect(small.measuredSpeed).toEqual({ wordsPerSecond: measured.wordsPerSecond, tokensPerSecond: measured.tokensPerSecond, measuredAt: last.finishedAt });
    // a model the benchmark did not measure has no figure
    expect(items.find((i) => i.id === 'chat-large')!.measuredSpeed).toBeNull();
  });

  it('says why chat was not measured when the model runtime is down, and still ends with done', async () => {
    await fake.setMode('down');
    try {
      expect((await s.admin.post('/api/admin/benchmarks/run', {})).status).toBe(202);
      const conn = await connectSse(s.url, '/api/admin/benchmarks/stream', { cookie: s.admin.cookie! });
      await conn.ended;
      const done = BenchmarkResults.parse(conn.events.at(-1)!.data);
      expect(conn.events.at(-1)!.event).toBe('done');
      expect(done.chat).toEqual([]);
      expect(done.chatSkipped).toMatch(/isn.t running.*Chat was not measured/);
    } finally {
      await fake.setMode('ok');
    }
  });
});

describe('benchmarks with a running image engine (stand-in queue)', () => {
  let engine: StandInEngine;
  let fake: FakeModelRuntime;
  let s: TestServer;
  beforeAll(async () => {
    engine = createStandInEngine();
    fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
    s = await startTestServer({ seed: 'household', config: { imageEngineUrl: 'http://127.0.0.1:9', modelRuntimeUrl: fake.url }, overrides: { imageEngine: engine.parts, tuning: { benchmarkDiskBytes: 1024 * 1024 } } });
    engine.attach(s.dataDir, s.handle.deps.db);
    await s.handle.deps.settings.set('image_model', 'sdxl_base.safetensors');
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  it('makes one small picture as the admin, times its steps, and deletes it', async () => {
    expect((await s.admin.post('/api/admin/benchmarks/run', {})).status).toBe(202);
    const conn = await connectSse(s.url, '/api/admin/benchmarks/stream', { cookie: s.admin.cookie! });
    const job = await until(() => engine.queue.jobs.find((j) => !j.ended), 'the benchmark picture queued');
    expect(job.job).toMatchObject({ userId: s.users.admin.id, pipeline: 'txt2img' });
    engine.queue.emit(job.job.id, { type: 'step', current: 1, total: 8, position: 0 });
    await new Promise((r) => setTimeout(r, 20));
    engine.queue.emit(job.job.id, { type: 'step', current: 8, total: 8, position: 0 });
    await engine.queue.finish(job.job.id);
    await conn.ended;
    const done = BenchmarkResults.parse(conn.events.at(-1)!.data);
    expect(done.image).toMatchObject({ steps: 8, skipped: null });
    expect(done.image.secondsPerStep).toBeGreaterThan(0);
    // the measured picture is not kept in the admin's history
    expect(await s.handle.deps.db('generated_images').where({ id: job.job.id }).first()).toBeUndefined();
  });
});
