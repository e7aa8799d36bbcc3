// The household's engine queue (server/modules/image-gen/runner.ts) against the fake engine:
// fair order across members with positions, previews and steps relayed, outputs stored as real
// PNG / animated WebP, cancel of a waiting and a running job, a stall, a crash mid-job (the engine
// restarts), an execution_error and a refusal as sentences.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createComfyUiClient } from '../../server/adapters/image-engine/comfyui.js';
import { withImageEngineAppErrors } from '../../server/adapter-errors/image-engine.js';
import { createMemoryLogger } from '../../server/platform/logger.js';
import type { EngineJob, ImageEngineRuntime, ImageJobRowPatch, JobEvent } from '../../server/modules/image-gen/parts.js';
import { CRASH_SENTENCE, EngineJobRunner, FORGOTTEN_SENTENCE, STALL_SENTENCE } from '../../server/modules/image-gen/runner.js';
import type { Artifact } from '../../server/modules/image-gen/schema.js';
import { buildGraph } from '../../server/modules/image-gen/workflow-graph.js';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { waitFor } from '../harness/net.js';
import { makeTempDir } from '../harness/temp-dir.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(opts: { stepMs?: number; stallMs?: number; packs?: string[] } = {}) {
  const engine = await startFakeImageEngine({ stepMs: opts.stepMs ?? 5, packs: opts.packs });
  cleanups.push(() => engine.close());
  const tmp = makeTempDir('image-runner-');
  cleanups.push(() => tmp.remove());
  const rows = new Map<string, ImageJobRowPatch>();
  const restarts: string[] = [];
  const runtime: ImageEngineRuntime = {
    status: () => ({ state: 'ready', error: null, configured: true, external: true, since: new Date().toISOString() }),
    ensureStarted: () => undefined,
    whenReady: async () => undefined,
    restart: async (reason) => {
      restarts.push(reason);
      await engine.restart();
    },
    logTail: async () => [],
    stop: async () => undefined,
  };
  const runner = new EngineJobRunner({
    client: withImageEngineAppErrors(createComfyUiClient({ baseUrl: engine.url, timeoutMs: 2000 })), // as the image-gen module builds it
    runtime,
    rows: {
      update: async (id, patch) => void rows.set(id, { ...rows.get(id), ...patch }),
      artifact: async (id) => ({ id, state: rows.get(id)?.state, url: `/api/image/artifacts/${id}` }) as unknown as Artifact,
    },
    imagesDir: tmp.dir,
    logger: createMemoryLogger(),
    now: () => new Date(),
    stallMs: opts.stallMs ?? 10_000,
    queuePollMs: 100,
  });
  cleanups.push(() => runner.stop());
  const events = new Map<string, JobEvent[]>();
  const enqueue = (id: string, userId: string, pipeline: 'txt2img' | 'video' | 'face_id' = 'txt2img', checkpoint = 'sdxl_base.safetensors') => {
    const job: EngineJob = {
      id,
      userId,
      pipeline,
      inputs: {},
      build: () =>
        pipeline === 'face_id'
          ? buildGraph({ pipeline: 'face_id', referenceFace: 'reference_face.png', checkpoint, seed: 1, width: 512, height: 512, hiRes: false, positive: 'a fox', negative: '', filenamePrefix: `hearth/${id}` })
          : pipeline === 'video'
          ? buildGraph({ pipeline: 'video', checkpoint: 'sdxl_base.safetensors', motionModule: 'mm_sdxl_v10_beta.ckpt', seed: 1, width: 384, height: 256, frames: 8, fastMode: true, positive: 'waves', negative: '', filenamePrefix: `hearth/${id}` })
          : buildGraph({ pipeline: 'txt2img', checkpoint, seed: 1, width: 512, height: 512, hiRes: false, steps: 3, positive: 'a fox', negative: '', filenamePrefix: `hearth/${id}` }),
    };
    rows.set(id, { state: 'queued' });
    events.set(id, []);
    runner.enqueue(job);
    runner.subscribe(id, (e) => events.get(id)!.push(e));
  };
  const ended = (id: string) => waitFor(() => events.get(id)!.find((e) => e.type === 'done' || e.type === 'error'), `the end of ${id}`, 15_000);
  return { engine, runner, rows, restarts, events, enqueue, ended, imagesDir: tmp.dir };
}

const starts = (engine: FakeImageEngine) => engine.prompts.map((p) => (p.graph['7'] as { inputs: { filename_prefix: string } } | undefined)?.inputs.filename_prefix.replace('hearth/', ''));

describe('the image job runner', () => {
  it('runs one job at a time, one per member in turn, tells each its position, relays steps and previews, and stores a real PNG', async () => {
    const { engine, runner, rows, events, enqueue, ended, imagesDir } = await setup({ stepMs: 30 });
    enqueue('a1', 'anna');
    enqueue('a2', 'anna');
    enqueue('a3', 'anna');
    enqueue('b1', 'ben');
    enqueue('c1', 'cleo');
    expect(['a2', 'b1', 'c1', 'a3'].map((id) => runner.position(id))).toEqual([1, 2, 3, 4]);
    expect(runner.position('a1')).toBe(0);
    expect(events.get('a3')!.some((e) => e.type === 'step' && e.position === 4)).toBe(true);
    expect(runner.counts()).toEqual({ running: 1, waiting: 4 });
    for (const id of ['a1', 'a2', 'b1', 'c1', 'a3']) expect((await ended(id)).type).toBe('done');
    expect(starts(engine)).toEqual(['a1', 'a2', 'b1', 'c1', 'a3']);
    const a1 = events.get('a1')!;
    expect(a1.filter((e) => e.type === 'step' && e.current > 0).map((e) => (e as { current: number }).current)).toEqual([1, 2, 3]);
    const previews = a1.filter((e): e is Extract<JobEvent, { type: 'preview' }> => e.type === 'preview');
    expect(previews.length).toBe(3);
    expect((await sharp(previews[0]!.jpeg).metadata()).format).toBe('jpeg');
    expect(rows.get('a1')).toMatchObject({ state: 'ready', outputPath: 'anna/a1.png', contentType: 'image/png', stepCurrent: 3, stepTotal: 3 });
    expect((await sharp(readFileSync(path.join(imagesDir, 'anna', 'a1.png'))).metadata()).format).toBe('png');
  });

  it('stores video as an animated WebP', async () => {
    const { rows, enqueue, ended, imagesDir } = await setup();
    enqueue('v1', 'anna', 'video');
    expect((await ended('v1')).type).toBe('done');
    // the size recorded is one frame's, as the engine wrote it
    expect(rows.get('v1')).toMatchObject({ outputPath: 'anna/v1.webp', contentType: 'image/webp', width: 384, height: 256 });
    const meta = await sharp(readFileSync(path.join(imagesDir, 'anna', 'v1.webp')), { animated: true }).metadata();
    expect(meta.pages).toBe(8);
  });

  it('cancels a waiting job and a running one (queue delete plus interrupt)', async () => {
    const { engine, runner, rows, enqueue, ended } = await setup();
    engine.scriptNext({ stallAtStep: 2 });
    enqueue('a1', 'anna');
    enqueue('b1', 'ben');
    await waitFor(() => engine.running?.stalled, 'a1 on the engine', 10_000);
    expect(await runner.cancel('b1')).toBe(true);
    expect(rows.get('b1')).toMatchObject({ state: 'cancelled' });
    expect(await ended('b1')).toMatchObject({ type: 'error', code: 'cancelled' });
    expect(await runner.cancel('a1')).toBe(true);
    expect(await ended('a1')).toMatchObject({ type: 'error', code: 'cancelled' });
    await waitFor(() => engine.interrupts.length > 0, 'the interrupt', 5_000);
    const promptId = engine.prompts[0]!.promptId;
    expect(engine.queueEdits).toEqual([{ delete: [promptId] }]);
    expect(engine.interrupts).toEqual([{ prompt_id: promptId }]);
    expect(rows.get('a1')).toMatchObject({ state: 'cancelled' });
    expect(await runner.cancel('a1')).toBe(false);
    expect(engine.prompts).toHaveLength(1);
  });

  it('fails a stalled job with a sentence and interrupts it', async () => {
    const { engine, rows, enqueue, ended } = await setup({ stallMs: 400 });
    engine.scriptNext({ stallAtStep: 2 });
    enqueue('a1', 'anna');
    expect(await ended('a1')).toEqual({ type: 'error', code: 'image_engine_stalled', message: STALL_SENTENCE });
    expect(rows.get('a1')).toMatchObject({ state: 'failed', error: STALL_SENTENCE });
    await waitFor(() => engine.interrupts.length === 1, 'the interrupt', 5_000);
  });

  it('fails a job whose engine crashed mid-job, restarts the engine, and the next job runs', async () => {
    const { engine, restarts, enqueue, ended } = await setup();
    engine.scriptNext({ crashAtStep: 2 });
    enqueue('a1', 'anna');
    enqueue('b1', 'ben');
    expect(await ended('a1')).toEqual({ type: 'error', code: 'image_engine_crashed', message: CRASH_SENTENCE });
    expect(restarts).toHaveLength(1);
    expect((await ended('b1')).type).toBe('done');
  });

  it('turns an execution_error and a refusal into sentences', async () => {
    const { engine, rows, enqueue, ended } = await setup();
    engine.scriptNext({ failAtStep: 1 });
    enqueue('a1', 'anna');
    expect(await ended('a1')).toMatchObject({ type: 'error', code: 'image_engine_error', message: 'The picture engine ran out of graphics memory. Try a smaller size or fast mode.' });
    expect(rows.get('a1')).toMatchObject({ state: 'failed' });
    enqueue('b1', 'ben', 'txt2img', 'gone.safetensors');
    expect(await ended('b1')).toEqual({
      type: 'error',
      code: 'image_engine_refused',
      message: `The picture engine refused the picture's recipe: the model file "gone.safetensors" is not in the picture engine's checkpoints folder (CheckpointLoaderSimple).`,
    });
    expect(rows.get('b1')).toMatchObject({ state: 'failed' });
  });

  it('fails a job the engine forgot (the queue poll no longer finds it)', async () => {
    const { engine, rows, enqueue, ended } = await setup();
    engine.scriptNext({ forgetAtStep: 2 });
    enqueue('a1', 'anna');
    expect(await ended('a1')).toEqual({ type: 'error', code: 'image_engine_lost_job', message: FORGOTTEN_SENTENCE });
    expect(rows.get('a1')).toMatchObject({ state: 'failed', error: FORGOTTEN_SENTENCE });
  });

  it('restarts the engine when a refusal says a custom node is missing', async () => {
    const { restarts, enqueue, ended } = await setup({ packs: [] });
    enqueue('f1', 'anna', 'face_id');
    const end = await ended('f1');
    expect(end).toMatchObject({ type: 'error', code: 'image_engine_refused' });
    expect((end as { message: string }).message).toMatch(/custom node pack that brings it is not installed/);
    expect(restarts).toEqual([expect.stringMatching(/^a node is missing \(IPAdapter/)]);
  });
});
