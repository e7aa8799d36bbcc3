// Clips through the engine, against the fake ComfyUI at IMAGE_ENGINE_URL: video (the picture chain
// with an AnimateDiff motion module) and i2v (one of the member's own ready pictures, animated with
// Stable Video Diffusion) stream start, step, preview and done, and the result is a real animated
// WebP served as image/webp with the artifact's size; the prompt pipeline applies to video as to
// pictures (safety prefix, only the member's granted LoRAs with their trigger words, isAdult); a
// clip asked for while the engine is still starting is 503; status says which clip pipeline can run and what is missing;
// a missing motion module, SVD checkpoint or AnimateDiff pack is 422 with its sentence; another
// member's picture is 404; a clip that stalls fails on the (short) video stall timer.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTION_MODULE_MISSING, SVD_MISSING } from '../../server/modules/image-gen/video-models.js';
import { STALL_CLIP_SENTENCE } from '../../server/modules/image-gen/runner.js';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { getBytes } from '../harness/multipart.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

type Ev = { event: string; data: any };
function eventsOf(text: string): Ev[] {
  return text
    .split('\n\n')
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      return event && data ? { event, data: JSON.parse(data) } : null;
    })
    .filter((e): e is Ev => e !== null);
}

type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
const nodes = (graph: Record<string, unknown>, classType: string) => Object.values(graph as Graph).filter((n) => n.class_type === classType);

const ALL_PACKS = ['ComfyUI_IPAdapter_plus', 'ComfyUI_essentials', 'ComfyUI-Impact-Pack', 'ComfyUI-Impact-Subpack', 'facerestore_cf', 'ComfyUI-AnimateDiff-Evolved'];

async function serverOn(engine: FakeImageEngine, tuning: Record<string, number> = {}): Promise<TestServer> {
  const s = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url }, overrides: { tuning } });
  await until(async () => (await s.member.get('/api/image/status')).body.state === 'ready', 'the engine to be ready');
  return s;
}

/** The clip's bytes as served, and what sharp reads in them. */
async function clipOf(s: TestServer, url: string) {
  const got = await getBytes(s.url, s.member, url);
  const meta = await sharp(got.bytes, { animated: true }).metadata();
  return { type: got.type, meta };
}

describe('video and i2v on the engine', () => {
  let engine: FakeImageEngine;
  let s: TestServer;

  beforeAll(async () => {
    engine = await startFakeImageEngine({ packs: ALL_PACKS, files: { lora_name: ['kites.ckpt', 'other.ckpt'] }, stepMs: 2 });
    s = await serverOn(engine);
  });
  afterAll(async () => {
    await s?.close();
    await engine?.close();
  });

  it('status: video and i2v are available when the pack and both model files are there', async () => {
    const st = (await s.member.get('/api/image/status')).body;
    const by = Object.fromEntries(st.pipelines.map((p: { pipeline: string }) => [p.pipeline, p]));
    expect(by.video).toEqual({ pipeline: 'video', available: true, reason: null, missing: [] });
    expect(by.i2v).toEqual({ pipeline: 'i2v', available: true, reason: null, missing: [] });
  });

  it('video: start, steps, previews and done; an animated WebP with the safety prefix and the motion module', async () => {
    const r = await s.member.post('/api/image/generate', { pipeline: 'video', prompt: 'a paper boat drifting on a pond', frames: 8, steps: 3 });
    expect(r.status).toBe(200);
    const events = eventsOf(r.text);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('start');
    expect(names).toContain('step');
    expect(names).toContain('preview');
    expect(names.at(-1)).toBe('done');
    expect(events[0]!.data).toMatchObject({ isAdult: false, artifact: { kind: 'generated', pipeline: 'video', prompt: 'a paper boat drifting on a pond' } });
    expect(events.filter((e) => e.event === 'step' && e.data.total === 3).map((e) => e.data.current)).toContain(3);
    const done = events.at(-1)!.data.artifact;
    expect(done).toMatchObject({ state: 'ready', contentType: 'image/webp' });
    const clip = await clipOf(s, done.url);
    expect(clip.type).toBe('image/webp');
    expect(clip.meta.format).toBe('webp');
    expect(clip.meta.pages).toBe(8);
    expect({ width: clip.meta.width, height: clip.meta.pageHeight }).toEqual({ width: done.width, height: done.height });
    // what the engine was asked: the household's checkpoint animated by the SDXL motion module, the safety prefix first
    const graph = engine.prompts.at(-1)!.graph;
    expect(nodes(graph, 'ADE_AnimateDiffLoaderGen1')[0]!.inputs.model_name).toBe('mm_sdxl_v10_beta.ckpt');
    expect(nodes(graph, 'CheckpointLoaderSimple')[0]!.inputs.ckpt_name).toBe('sdxl_base.safetensors');
    expect(nodes(graph, 'EmptyLatentImage')[0]!.inputs.batch_size).toBe(8);
    expect(nodes(graph, 'CLIPTextEncode').map((n) => String(n.inputs.text)).join(' | ')).toMatch(/family-friendly.*a paper boat drifting on a pond/);
    // the clip is the member's own
    expect((await s.admin.get(done.url)).status).toBe(404);
    const history = (await s.member.get('/api/image/history?kind=generated')).body.items as { id: string; pipeline: string }[];
    expect(history.find((i) => i.id === done.id)?.pipeline).toBe('video');
  });

  it('video: only the member\'s granted LoRA reaches the engine, with its trigger words, under the motion module', async () => {
    const dir = path.join(s.dataDir, 'image-engine', 'models', 'loras');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'kites.ckpt'), 'x');
    writeFileSync(path.join(dir, 'other.ckpt'), 'x');
    const reg = (await s.admin.post('/api/admin/image-loras/recover-disk')).body.registered as { id: string; filePath: string }[];
    const kites = reg.find((l) => l.filePath === 'kites.ckpt')!.id;
    const other = reg.find((l) => l.filePath === 'other.ckpt')!.id;
    await s.admin.patch(`/api/admin/image-loras/${kites}`, { triggerTokens: ['kitestyle'], maxWeight: 1 });
    await s.admin.put(`/api/admin/image-loras/${kites}/grants/${s.users.member.id}`, { state: 'on' });
    const r = await s.member.post('/api/image/generate', { pipeline: 'video', prompt: 'a kite dancing', loraIds: [kites, other], loraWeights: { [kites]: 3 }, frames: 8, steps: 2 });
    const done = eventsOf(r.text).at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data.artifact.loras).toEqual([{ id: kites, name: 'kites', weight: 1 }]);
    const graph = engine.prompts.at(-1)!.graph;
    expect(nodes(graph, 'LoraLoader').map((n) => n.inputs.lora_name)).toEqual(['kites.ckpt']);
    expect(nodes(graph, 'CLIPTextEncode').map((n) => String(n.inputs.text)).join(' ')).toContain('kitestyle');
    const motionModel = nodes(graph, 'ADE_AnimateDiffLoaderGen1')[0]!.inputs.model as [string, number];
    expect((graph as Graph)[motionModel[0]]!.class_type).toBe('LoraLoader');
  });

  it('video: isAdult is computed at enqueue from the prompt, as for a picture', async () => {
    const r = await s.member.post('/api/image/generate', { pipeline: 'video', prompt: 'a nude statue turning slowly', frames: 8, steps: 2 });
    const start = eventsOf(r.text)[0]!;
    expect(start).toMatchObject({ event: 'start', data: { isAdult: true, artifact: { isAdult: true } } });
  });

  it('i2v: one of the member\'s ready pictures becomes a clip (another member\'s is 404, a clip is refused)', async () => {
    const pic = eventsOf((await s.member.post('/api/image/generate', { prompt: 'a lighthouse at dusk', steps: 2 })).text).at(-1)!.data.artifact;
    expect(pic.state).toBe('ready');
    // the admin cannot animate the member's picture: it does not exist for them
    const other = await s.admin.post('/api/image/generate', { pipeline: 'i2v', prompt: 'Animate this picture', sourceId: pic.id });
    expect(other.status).toBe(404);
    expect((await s.member.post('/api/image/generate', { pipeline: 'i2v', prompt: 'Animate this picture', sourceId: 'no-such-picture' })).status).toBe(404);
    expect((await s.member.post('/api/image/generate', { pipeline: 'i2v', prompt: 'Animate this picture' })).body.error.message).toMatch(/Choose one of your pictures/);

    const r = await s.member.post('/api/image/generate', { pipeline: 'i2v', prompt: 'Animate this picture', sourceId: pic.id, fast: true });
    expect(r.status).toBe(200);
    const events = eventsOf(r.text);
    expect(events[0]).toMatchObject({ event: 'start', data: { isAdult: false, artifact: { pipeline: 'i2v', sourceId: pic.id } } });
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['step', 'preview']));
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    const clip = await clipOf(s, done.data.artifact.url);
    expect(clip.type).toBe('image/webp');
    // svd_xt makes 25 frames, at SVD's square size for a square picture
    expect(clip.meta.pages).toBe(25);
    expect({ width: clip.meta.width, height: clip.meta.pageHeight }).toEqual({ width: done.data.artifact.width, height: done.data.artifact.height });
    const graph = engine.prompts.at(-1)!.graph;
    expect(nodes(graph, 'ImageOnlyCheckpointLoader')[0]!.inputs.ckpt_name).toBe('svd_xt.safetensors');
    // the picture went into the engine's input folder and the graph loads it
    expect(String(nodes(graph, 'LoadImage')[0]!.inputs.image)).toContain('-source');

    const again = await s.member.post('/api/image/generate', { pipeline: 'i2v', prompt: 'Animate this picture', sourceId: done.data.artifact.id });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/already a clip/);
  });
});

describe('video and i2v when something is missing', () => {
  const engines: FakeImageEngine[] = [];
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const e of engines) await e.close();
  });
  const setUp = async (opts: Parameters<typeof startFakeImageEngine>[0], tuning?: Record<string, number>) => {
    const engine = await startFakeImageEngine(opts);
    engines.push(engine);
    const s = await serverOn(engine, tuning);
    servers.push(s);
    return { engine, s };
  };
  const statusOf = async (s: TestServer, pipeline: string) => ((await s.member.get('/api/image/status')).body.pipelines as { pipeline: string }[]).find((p) => p.pipeline === pipeline);

  it('no AnimateDiff pack and no SVD checkpoint: 422 with the sentence, and status says what to add', async () => {
    const { s } = await setUp({ packs: ALL_PACKS.filter((p) => p !== 'ComfyUI-AnimateDiff-Evolved'), files: { ckpt_name: ['sdxl_base.safetensors'] } });
    const video = await s.member.post('/api/image/generate', { pipeline: 'video', prompt: 'a boat' });
    expect(video.status).toBe(422);
    expect(video.body.error).toMatchObject({ code: 'video_not_installed' });
    expect(video.body.error.message).toMatch(/ComfyUI-AnimateDiff-Evolved add-on\. An admin can add it/);
    expect(await statusOf(s, 'video')).toMatchObject({ available: false, missing: ['ComfyUI-AnimateDiff-Evolved (Kosinkadink/ComfyUI-AnimateDiff-Evolved)'] });

    const pic = eventsOf((await s.member.post('/api/image/generate', { prompt: 'a kite', steps: 2 })).text).at(-1)!.data.artifact;
    const i2v = await s.member.post('/api/image/generate', { pipeline: 'i2v', prompt: 'Animate this picture', sourceId: pic.id });
    expect(i2v.status).toBe(422);
    expect(i2v.body.error).toEqual({ code: 'i2v_not_installed', message: SVD_MISSING, details: expect.anything() });
    expect(await statusOf(s, 'i2v')).toMatchObject({ available: false, reason: SVD_MISSING, missing: [expect.stringContaining('svd_xt.safetensors')] });
  });

  it('the pack without a motion module: 422 video_not_installed saying where the file goes', async () => {
    const { s, engine } = await setUp({ packs: ALL_PACKS, files: { model_name: [] } });
    const r = await s.member.post('/api/image/generate', { pipeline: 'video', prompt: 'a boat' });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'video_not_installed', message: MOTION_MODULE_MISSING });
    expect(r.body.error.message).toContain('models/animatediff_models');
    expect(await statusOf(s, 'video')).toMatchObject({ available: false, reason: MOTION_MODULE_MISSING });
    expect(engine.prompts).toEqual([]);
  });

  it('while the engine is still starting, a clip is 503 with a sentence (its model files are chosen from the running engine)', async () => {
    // nothing answers yet, as while the engine loads its nodes
    const engine = await startFakeImageEngine({ packs: ALL_PACKS });
    engines.push(engine);
    await engine.setMode('down');
    const s = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url } });
    servers.push(s);
    const r = await s.member.post('/api/image/generate', { pipeline: 'video', prompt: 'a boat' });
    expect(r.status).toBe(503);
    expect(r.body.error).toMatchObject({ code: 'image_engine_starting', message: expect.stringMatching(/still starting.*Try again in a minute/) });
  });

  it('a clip that stops making progress fails on the video stall timer with a sentence', async () => {
    // pictures keep a long timer here: only the clip's (short) one can end the job
    const { s, engine } = await setUp({ packs: ALL_PACKS, stepMs: 2 }, { imageStallMs: 60_000, imageStallVideoMs: 300 });
    engine.scriptNext({ stallAtStep: 2 });
    const r = await s.member.post('/api/image/generate', { pipeline: 'video', prompt: 'a windmill turning', frames: 8, steps: 4 });
    const events = eventsOf(r.text);
    expect(events.at(-1)).toEqual({ event: 'error', data: { code: 'image_engine_stalled', message: STALL_CLIP_SENTENCE } });
    const id = events[0]!.data.id as string;
    expect((await s.member.get(`/api/image/artifacts/${id}`)).body.artifact).toMatchObject({ state: 'failed', error: STALL_CLIP_SENTENCE });
    await until(() => engine.interrupts.length > 0, 'the engine to be interrupted');
  });
});
