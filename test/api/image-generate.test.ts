// Generate and the engine's edits through the ports, against a hand-driven stand-in queue
// (test/fakes/image-queue.ts): the refusals before any stream (missing pack 422, queue limit 429,
// bad input 400), the prompt pipeline as the graph the queue receives (safety prefix unless
// uncensored, only the member's granted LoRA with its trigger words and clamped weight, isAdult at
// enqueue), the stream (start, step, preview, done), the client going away while the job keeps
// going and the stream re-attaching, cancel through the queue, preview-check on the latest
// frame, an engine edit, and the image_gen chat tool's link.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import type { UserActor } from '../../server/actor.js';
import { MAX_JOBS_PER_MEMBER } from '../../server/modules/image-gen/schema.js';
import { CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { createStandInEngine, type StandInEngine } from '../fakes/image-queue.js';
import { postForm } from '../harness/multipart.js';
import { until } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { ImageGenStore } from '../../server/modules/image-gen/store.js';

function eventsOf(text: string): { event: string; data: any }[] {
  return text
    .split('\n\n')
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      return event && data ? { event, data: JSON.parse(data) } : null;
    })
    .filter((e): e is { event: string; data: any } => e !== null);
}

type Node = { class_type: string; inputs: Record<string, unknown> };
const nodes = (graph: unknown) => Object.values(graph as Record<string, Node>);
const texts = (graph: unknown) => nodes(graph).filter((n) => n.class_type === 'CLIPTextEncode').map((n) => String(n.inputs.text));
const loraFiles = (graph: unknown) => nodes(graph).filter((n) => n.class_type === 'LoraLoader').map((n) => [String(n.inputs.lora_name), n.inputs.strength_model]);

describe('generate and engine edits (stand-in queue)', () => {
  let engine: StandInEngine;
  let fake: FakeModelRuntime;
  let s: TestServer;
  const headers = () => ({ cookie: s.member.cookie!, origin: s.url });
  const live = () => engine.queue.jobs.filter((j) => !j.ended);

  beforeAll(async () => {
    engine = createStandInEngine();
    fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
    s = await startTestServer({ seed: 'household', config: { imageEngineUrl: 'http://127.0.0.1:9' }, overrides: { imageEngine: engine.parts, modelRuntime: createOllamaClient({ baseUrl: fake.url }) } });
    engine.attach(s.dataDir, s.handle.deps.db);
    await s.handle.deps.settings.set('image_model', 'sdxl_base.safetensors');
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    engine.packs = null;
    for (const j of live()) await engine.queue.cancel(j.job.id);
  });

  it('status: ready, every pipeline this node list can run; one whose pack is missing says what to add', async () => {
    engine.packs = ['ComfyUI_essentials'];
    const st = (await s.member.get('/api/image/status')).body;
    expect(st).toMatchObject({ state: 'ready', configured: true, checkpoint: 'sdxl_base.safetensors' });
    const by = Object.fromEntries(st.pipelines.map((p: { pipeline: string }) => [p.pipeline, p]));
    expect(by.txt2img).toMatchObject({ available: true, reason: null, missing: [] });
    expect(by.bg_remove).toMatchObject({ available: true });
    expect(by.face_id.available).toBe(false);
    expect(by.face_id.reason).toMatch(/add-on/);
    expect(by.face_id.missing.join(' ')).toContain('cubiq/ComfyUI_IPAdapter_plus');
    expect((await s.admin.get('/api/admin/image-engine/logs')).body).toEqual({ lines: ['engine started'] });
  });

  it('generate: start (with isAdult), step, preview, done; the graph carries the safety prefix and the member\'s words', async () => {
    const sse = await connectSse(s.url, '/api/image/generate', headers(), { body: { prompt: 'a red kite over the sea', style: 'watercolor', steps: 4 } });
    expect(sse.status).toBe(200);
    const start = await sse.waitFor((e) => e.event === 'start');
    expect(start.data).toMatchObject({ isAdult: false, artifact: { state: 'queued', kind: 'generated', pipeline: 'txt2img', style: 'watercolor', prompt: 'a red kite over the sea' } });
    const id = start.data.id as string;
    const job = engine.queue.jobs.find((j) => j.job.id === id)!;
    expect(job.job).toMatchObject({ userId: s.users.member.id, pipeline: 'txt2img' });
    const sent = texts(job.graph.graph).join(' | ');
    expect(sent).toContain('family-friendly');
    expect(sent).toContain('a red kite over the sea');
    expect(sent).toMatch(/watercolou?r/i);
    engine.queue.emit(id, { type: 'step', current: 1, total: 4, position: 0 });
    engine.queue.emit(id, { type: 'preview', jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xd9]), step: 1 });
    await sse.waitFor((e) => e.event === 'preview');
    await engine.queue.finish(id);
    await sse.ended;
    expect(sse.events.map((e) => e.event), JSON.stringify(sse.events.at(-1))).toEqual(['start', 'step', 'preview', 'done']);
    expect(sse.events[1]!.data).toEqual({ id, current: 1, total: 4, position: 0 });
    expect(sse.events[2]!.data).toEqual({ id, jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xd9]).toString('base64'), step: 1 });
    expect(sse.events[3]!.data.artifact).toMatchObject({ id, state: 'ready' });
    expect((await s.member.get(`/api/image/artifacts/${id}`)).headers['content-type']).toBe('image/png');
    expect((await s.admin.get(`/api/image/artifacts/${id}`)).status).toBe(404);
  });

  it('LoRAs: only the member\'s granted one reaches the graph, weight clamped, trigger word added; an adult one marks the job adult', async () => {
    const dir = path.join(s.dataDir, 'image-engine', 'models', 'loras');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'kites.ckpt'), 'x');
    writeFileSync(path.join(dir, 'other.ckpt'), 'x');
    const reg = (await s.admin.post('/api/admin/image-loras/recover-disk')).body.registered as { id: string; filePath: string }[];
    const kites = reg.find((l) => l.filePath === 'kites.ckpt')!.id;
    const other = reg.find((l) => l.filePath === 'other.ckpt')!.id;
    await s.admin.patch(`/api/admin/image-loras/${kites}`, { triggerTokens: ['kitestyle'], maxWeight: 1 });
    await s.admin.put(`/api/admin/image-loras/${kites}/grants/${s.users.member.id}`, { state: 'on' });
    const sse = await connectSse(s.url, '/api/image/generate', headers(), { body: { prompt: 'a kite', loraIds: [kites, other], loraWeights: { [kites]: 3 } } });
    const start = await sse.waitFor((e) => e.event === 'start');
    expect(start.data.artifact.loras).toEqual([{ id: kites, name: 'kites', weight: 1 }]);
    const graph = engine.queue.jobs.find((j) => j.job.id === start.data.id)!.graph.graph;
    expect(loraFiles(graph)).toEqual([['kites.ckpt', 1]]);
    expect(texts(graph).join(' ')).toContain('kitestyle');
    await engine.queue.cancel(start.data.id);
    await sse.ended;

    // an admin uncensored, with an adult LoRA: no safety prefix, and isAdult on start
    await s.admin.patch(`/api/admin/image-loras/${other}`, { isAdult: true });
    await s.admin.patch(`/api/admin/image-loras/members/${s.users.member.id}/protections`, { uncensoredImages: true, blockAdultLoras: false });
    await s.admin.put(`/api/admin/image-loras/${other}/grants/${s.users.member.id}`, { state: 'on' });
    // without the adult state the adult LoRA is dropped: the job is not adult
    const off = await connectSse(s.url, '/api/image/generate', headers(), { body: { prompt: 'a beach', loraIds: [other] } });
    const o = await off.waitFor((e) => e.event === 'start');
    expect(o.data.isAdult).toBe(false);
    expect(o.data.artifact.loras).toEqual([]);
    await engine.queue.cancel(o.data.id);
    await off.ended;
    expect((await s.member.post('/api/privacy/adult', { pin: '5678' })).status).toBe(200);
    const adult = await connectSse(s.url, '/api/image/generate', headers(), { body: { prompt: 'a beach', loraIds: [other] } });
    const a = await adult.waitFor((e) => e.event === 'start');
    expect(a.data.isAdult).toBe(true);
    expect(texts(engine.queue.jobs.find((j) => j.job.id === a.data.id)!.graph.graph).join(' ')).not.toContain('family-friendly');
    await engine.queue.cancel(a.data.id);
    await adult.ended;
    await s.admin.patch(`/api/admin/image-loras/members/${s.users.member.id}/protections`, { uncensoredImages: false, blockAdultLoras: true });
  });

  it('a pipeline whose pack is missing is 422 <pipeline>_not_installed, before any stream and without a row', async () => {
    engine.packs = [];
    const before = await new ImageGenStore(s.handle.deps.db).countActive();
    const ref = await postForm(s.url, s.member, '/api/image/reference-face', [{ name: 'file', filename: 'me.png', type: 'image/png', bytes: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } }).png().toBuffer() }]);
    const r = await s.member.post('/api/image/generate', { pipeline: 'face_id', prompt: 'me as an astronaut', refId: ref.body.refId });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('face_id_not_installed');
    const edit = await postForm(s.url, s.member, '/api/image/edit', [{ name: 'op', value: 'remove-bg' }, { name: 'file', filename: 'p.png', type: 'image/png', bytes: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } }).png().toBuffer() }]);
    expect(edit.status).toBe(422);
    expect(edit.body.error.code).toBe('bg_remove_not_installed');
    expect(await new ImageGenStore(s.handle.deps.db).countActive()).toBe(before);
  });

  it('clamps size, steps and guidance as the spec says (256-2048 per side, steps to 40, guidance 0-20) and answers with what was used; non-numbers stay 400', async () => {
    const ask = async (body: Record<string, unknown>) => {
      const sse = await connectSse(s.url, '/api/image/generate', headers(), { body: { prompt: 'a kite', ...body } });
      expect(sse.status, JSON.stringify(body)).toBe(200);
      const start = await sse.waitFor((e) => e.event === 'start');
      sse.close();
      const job = engine.queue.jobs.find((j) => j.job.id === start.data.id)!;
      const sampler = nodes(job.graph.graph).find((n) => n.class_type === 'KSampler')!;
      const latent = nodes(job.graph.graph).find((n) => n.class_type === 'EmptyLatentImage')!;
      await engine.queue.cancel(start.data.id);
      return { used: start.data.artifact.used, graph: { width: latent.inputs.width, height: latent.inputs.height, steps: sampler.inputs.steps, guidance: sampler.inputs.cfg } };
    };
    const big = await ask({ width: 5000, height: 100, steps: 100, guidance: 50 });
    expect(big.used).toEqual({ width: 2048, height: 256, steps: 40, guidance: 20 });
    expect(big.graph).toEqual(big.used);
    const low = await ask({ width: 4096, height: 4096, steps: 0, guidance: -3 });
    expect(low.used).toEqual({ width: 2048, height: 2048, steps: 1, guidance: 0 });
    const plain = await ask({});
    expect(plain.used).toEqual({ width: 1024, height: 1024, steps: 25, guidance: 4.5 });
    for (const bad of [{ width: 'big' }, { steps: '100' }, { guidance: null }, { height: true }]) {
      const r = await s.member.post('/api/image/generate', { prompt: 'a kite', ...bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('the image_gen chat tool that asks for 4096 px still gets a picture, at the largest size the engine makes', async () => {
    const tool = s.handle.deps.chatTools.get('image_gen')!;
    const actor: UserActor = { kind: 'user', id: s.users.member.id, name: 'Sam', role: 'member', sessionId: 'x' };
    const result = await tool.run(tool.args.parse({ prompt: 'a huge poster of a lighthouse', width: 4096, height: 4096 }), { actor, signal: new AbortController().signal });
    expect(result.summary).toBe('Started a picture');
    expect(result.content).toMatch(/2048 × 2048/);
    const id = /\/images\?id=([\w-]+)/.exec(result.content)![1]!;
    const job = engine.queue.jobs.find((j) => j.job.id === id)!;
    expect(nodes(job.graph.graph).find((n) => n.class_type === 'EmptyLatentImage')!.inputs).toMatchObject({ width: 2048, height: 2048 });
    await engine.queue.cancel(id);
  });

  it('the client going away does not cancel; the stream re-attaches with the last step; cancel goes through the queue', async () => {
    const first = await connectSse(s.url, '/api/image/generate', headers(), { body: { prompt: 'a lighthouse' } });
    const id = (await first.waitFor((e) => e.event === 'start')).data.id as string;
    engine.queue.emit(id, { type: 'step', current: 3, total: 25, position: 0 });
    await first.waitFor((e) => e.event === 'step');
    first.close();
    await until(() => engine.queue.jobs.find((j) => j.job.id === id)!.listeners.size === 0, 'the first stream to leave');
    expect(engine.queue.cancelled).not.toContain(id);
    expect((await s.member.get('/api/image/building')).body.artifact).toMatchObject({ id });

    const again = await connectSse(s.url, `/api/image/artifacts/${id}/stream`, headers());
    const replay = await again.waitFor((e) => e.event === 'step');
    expect(replay.data).toMatchObject({ id, current: 3, total: 25 });
    const c = await s.member.post(`/api/image/artifacts/${id}/cancel`);
    expect(c.body.artifact).toMatchObject({ id, state: 'cancelled' });
    await again.ended;
    expect(again.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'cancelled' } });
    expect(engine.queue.cancelled).toContain(id);
  });

  it('preview-check looks at the latest preview with the vision model; a mismatch answers a corrected prompt', async () => {
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    fake.models = [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL];
    const sse = await connectSse(s.url, '/api/image/generate', headers(), { body: { prompt: 'three cats on a sofa' } });
    const id = (await sse.waitFor((e) => e.event === 'start')).data.id as string;
    engine.queue.emit(id, { type: 'preview', jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xd9]), step: 5 });
    fake.chatReply = JSON.stringify({ match: false, seen: 'two dogs on a sofa', correctedPrompt: 'three cats, not dogs, on a sofa' });
    const r = await s.member.post('/api/image/preview-check', { id });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ match: false, seen: 'two dogs on a sofa', correctedPrompt: 'three cats, not dogs, on a sofa', loraWeights: {} });
    const images = (fake.requests.filter((q) => q.path === '/api/chat').at(-1)!.body as { messages: { images?: string[] }[] }).messages.at(-1)!.images;
    expect(images).toEqual([Buffer.from([0xff, 0xd8, 0xff, 0xd9]).toString('base64')]);
    fake.chatReply = null;
    await engine.queue.cancel(id);
    await sse.ended;
  });

  it(`a member may have ${MAX_JOBS_PER_MEMBER} pictures on the way; the next is a 429 with a sentence`, async () => {
    const open = [];
    for (let i = 0; i < MAX_JOBS_PER_MEMBER; i++) {
      const sse = await connectSse(s.url, '/api/image/generate', headers(), { body: { prompt: `boat ${i}` } });
      open.push({ sse, id: (await sse.waitFor((e) => e.event === 'start')).data.id as string });
    }
    const r = await s.member.post('/api/image/generate', { prompt: 'one more' });
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('too_many_pictures');
    expect(r.body.error.message).toMatch(/Wait for one to finish/);
    for (const o of open) await s.member.post(`/api/image/artifacts/${o.id}/cancel`);
    for (const o of open) await o.sse.ended;
  });

  it('an engine edit (upscale) uploads its source to the queue and lands as an edited picture', async () => {
    const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#357' } }).png().toBuffer();
    const pending = postForm(s.url, s.member, '/api/image/edit', [{ name: 'op', value: 'upscale' }, { name: 'scale', value: '4' }, { name: 'file', filename: 'p.png', type: 'image/png', bytes: photo }]);
    await until(() => live().find((j) => j.job.pipeline === 'upscale'), 'the upscale job');
    const job = live().find((j) => j.job.pipeline === 'upscale')!;
    expect(Object.keys(job.job.inputs)).toEqual(['source']);
    const load = nodes(job.graph.graph).find((n) => n.class_type === 'LoadImage')!;
    expect(load.inputs.image).toBe(`${job.job.id}-source.png`);
    await engine.queue.finish(job.job.id);
    const r = await pending;
    const events = eventsOf(r.text);
    expect(events.map((e) => e.event)).toEqual(['start', 'done']);
    expect(events[1]!.data.artifact).toMatchObject({ kind: 'edited', pipeline: 'upscale', state: 'ready' });
  });

  it('the image_gen chat tool starts a picture as the caller and answers its link', async () => {
    const tool = s.handle.deps.chatTools.get('image_gen')!;
    const actor: UserActor = { kind: 'user', id: s.users.member.id, name: 'Sam', role: 'member', sessionId: 'x' };
    const result = await tool.run({ prompt: 'a dragon reading a book' }, { actor, signal: new AbortController().signal });
    expect(result.summary).toBe('Started a picture');
    const id = /\/images\?id=([\w-]+)/.exec(result.content)![1]!;
    expect(live().find((j) => j.job.id === id)?.job.userId).toBe(s.users.member.id);
    expect((await s.member.get('/api/image/building')).body.artifact).toMatchObject({ id, prompt: 'a dragon reading a book' });
    await engine.queue.cancel(id);
  });
});
