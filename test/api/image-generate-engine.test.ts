// Generate and edit through the engine, against the fake ComfyUI at IMAGE_ENGINE_URL: status with
// per-pipeline availability, the stream (start with isAdult, step, preview, done), the prompt
// pipeline as the engine receives it (safety prefix, the member's granted LoRA and its trigger
// words, never another's), missing pack 422, queue limit 429, cancel, the client going away while
// the job keeps building and the re-attached stream, an engine edit, and the chat tool's link.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserActor } from '../../server/actor.js';
import { MAX_JOBS_PER_MEMBER } from '../../server/modules/image-gen/schema.js';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { getBytes, postForm } from '../harness/multipart.js';
import { until } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

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

const positiveOf = (graph: Record<string, unknown>): string[] =>
  Object.values(graph as Record<string, { class_type: string; inputs: Record<string, unknown> }>)
    .filter((n) => n.class_type === 'CLIPTextEncode')
    .map((n) => String(n.inputs.text));
const lorasOf = (graph: Record<string, unknown>): string[] =>
  Object.values(graph as Record<string, { class_type: string; inputs: Record<string, unknown> }>)
    .filter((n) => n.class_type === 'LoraLoader')
    .map((n) => String(n.inputs.lora_name));

describe('generate and edit on the engine', () => {
  let engine: FakeImageEngine;
  let s: TestServer;
  const cookie = (c: { cookie?: string }) => ({ cookie: c.cookie!, origin: s.url });

  beforeAll(async () => {
    // the IPAdapter pack is missing: face_id cannot run here
    engine = await startFakeImageEngine({ packs: ['ComfyUI_essentials', 'ComfyUI-Impact-Pack', 'ComfyUI-Impact-Subpack', 'facerestore_cf'], files: { lora_name: ['kites.ckpt', 'other.ckpt'] }, stepMs: 5 });
    s = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url } });
    await until(async () => (await s.member.get('/api/image/status')).body.state === 'ready', 'the engine to be ready');
  });
  afterAll(async () => {
    await s?.close();
    await engine?.close();
  });
  beforeEach(() => {
    engine.script = {};
  });

  it('status: ready, with what each pipeline needs from this engine', async () => {
    const st = (await s.member.get('/api/image/status')).body;
    expect(st).toMatchObject({ state: 'ready', configured: true });
    const by = Object.fromEntries(st.pipelines.map((p: { pipeline: string }) => [p.pipeline, p]));
    expect(by.txt2img).toMatchObject({ available: true, reason: null });
    expect(by.auto_color).toMatchObject({ available: true });
    expect(by.face_id.available).toBe(false);
    expect(by.face_id.reason).toMatch(/add-on/);
    expect(by.face_id.missing.join(' ')).toMatch(/IPAdapter/);
  });

  it('generate streams start, steps, previews and done; the picture is the member\'s PNG', async () => {
    const r = await s.member.post('/api/image/generate', { prompt: 'a red kite over the sea', steps: 4 });
    expect(r.status).toBe(200);
    const events = eventsOf(r.text);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('start');
    expect(names.at(-1)).toBe('done');
    expect(names).toContain('step');
    expect(names).toContain('preview');
    expect(events[0]!.data).toMatchObject({ isAdult: false, artifact: { kind: 'generated', pipeline: 'txt2img', prompt: 'a red kite over the sea' } });
    const preview = events.find((e) => e.event === 'preview')!.data;
    expect(Buffer.from(preview.jpeg, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const done = events.at(-1)!.data.artifact;
    expect(done).toMatchObject({ state: 'ready', contentType: 'image/png' });
    const pic = await getBytes(s.url, s.member, done.url);
    expect(pic.type).toBe('image/png');
    expect((await sharp(pic.bytes).metadata()).format).toBe('png');
    expect((await s.admin.get(done.url)).status).toBe(404);
    // the safety prefix went to the engine; the member's own words too
    const sent = positiveOf(engine.prompts.at(-1)!.graph).join(' | ');
    expect(sent).toContain('family-friendly');
    expect(sent).toContain('a red kite over the sea');
  });

  it('LoRAs: only the member\'s granted one reaches the engine, with its trigger words; the adult flag rides on start', async () => {
    const dir = path.join(s.dataDir, 'image-engine', 'models', 'loras');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'kites.ckpt'), 'x');
    writeFileSync(path.join(dir, 'other.ckpt'), 'x');
    const reg = (await s.admin.post('/api/admin/image-loras/recover-disk')).body.registered as { id: string; filePath: string }[];
    const kites = reg.find((l) => l.filePath === 'kites.ckpt')!.id;
    const other = reg.find((l) => l.filePath === 'other.ckpt')!.id;
    await s.admin.patch(`/api/admin/image-loras/${kites}`, { triggerTokens: ['kitestyle'], maxWeight: 1 });
    await s.admin.put(`/api/admin/image-loras/${kites}/grants/${s.users.member.id}`, { state: 'on' });
    const r = await s.member.post('/api/image/generate', { prompt: 'a kite', loraIds: [kites, other], loraWeights: { [kites]: 3 }, steps: 2 });
    const done = eventsOf(r.text).at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data.artifact.loras).toEqual([{ id: kites, name: 'kites', weight: 1 }]);
    const graph = engine.prompts.at(-1)!.graph;
    expect(lorasOf(graph)).toEqual(['kites.ckpt']);
    expect(positiveOf(graph).join(' ')).toContain('kitestyle');
  });

  it('a pipeline whose pack is missing is 422 <pipeline>_not_installed before any stream', async () => {
    const ref = await postForm(s.url, s.member, '/api/image/reference-face', [{ name: 'file', filename: 'me.png', type: 'image/png', bytes: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } }).png().toBuffer() }]);
    const r = await s.member.post('/api/image/generate', { pipeline: 'face_id', prompt: 'me as an astronaut', refId: ref.body.refId });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('face_id_not_installed');
    expect(r.body.error.message).toMatch(/not set up/);
  });

  it('cancel stops a running job: the engine is interrupted and the row is cancelled', async () => {
    engine.scriptNext({ stallAtStep: 2 });
    const sse = await connectSse(s.url, '/api/image/generate', cookie(s.member), { body: { prompt: 'a slow boat', steps: 6 } });
    const start = await sse.waitFor((e) => e.event === 'start');
    await sse.waitFor((e) => e.event === 'step' && e.data.current >= 1);
    const id = start.data.id as string;
    const c = await s.member.post(`/api/image/artifacts/${id}/cancel`);
    expect(c.status).toBe(200);
    await sse.ended;
    expect(sse.events.at(-1)!.event).toBe('error');
    await until(async () => (await s.member.get(`/api/image/artifacts/${id}`)).body.artifact?.state === 'cancelled', 'the row to be cancelled');
    // the interrupt is sent on its own (the job ends either way)
    await until(() => engine.interrupts.length > 0, 'the engine to be interrupted');
  });

  it('the client going away does not cancel: the job finishes and the stream re-attaches', async () => {
    engine.scriptNext({ stepMs: 40 });
    const sse = await connectSse(s.url, '/api/image/generate', cookie(s.member), { body: { prompt: 'a lighthouse', steps: 8 } });
    const id = (await sse.waitFor((e) => e.event === 'start')).data.id as string;
    sse.close();
    const again = await connectSse(s.url, `/api/image/artifacts/${id}/stream`, cookie(s.member));
    await again.ended;
    expect(again.events.at(-1)).toMatchObject({ event: 'done', data: { id } });
    expect((await s.member.get('/api/image/building')).body.artifact).toBeNull();
    expect((await s.member.get('/api/image/history')).body.items.map((a: { id: string }) => a.id)).toContain(id);
  });

  it(`a member may have ${MAX_JOBS_PER_MEMBER} pictures on the way; the next is 429 with a sentence`, async () => {
    engine.script = { stallAtStep: 1 };
    const open = [];
    for (let i = 0; i < MAX_JOBS_PER_MEMBER; i++) {
      const sse = await connectSse(s.url, '/api/image/generate', cookie(s.member), { body: { prompt: `boat ${i}`, steps: 3 } });
      open.push({ sse, id: (await sse.waitFor((e) => e.event === 'start')).data.id as string });
    }
    const r = await s.member.post('/api/image/generate', { prompt: 'one more' });
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('too_many_pictures');
    engine.script = {};
    for (const o of open) await s.member.post(`/api/image/artifacts/${o.id}/cancel`);
    for (const o of open) await o.sse.ended;
  });

  it('an engine edit (upscale) runs on the engine and lands as an edited picture', async () => {
    const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#357' } }).png().toBuffer();
    const r = await postForm(s.url, s.member, '/api/image/edit', [{ name: 'op', value: 'upscale' }, { name: 'scale', value: '2' }, { name: 'file', filename: 'p.png', type: 'image/png', bytes: photo }]);
    expect(r.status).toBe(200);
    const events = eventsOf(r.text);
    expect(events[0]!.event).toBe('start');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { artifact: { kind: 'edited', pipeline: 'upscale', state: 'ready' } } });
  });

  it('the image_gen chat tool starts a picture as the caller and answers its link', async () => {
    const tool = s.handle.deps.chatTools.get('image_gen')!;
    const actor: UserActor = { kind: 'user', id: s.users.member.id, name: 'Sam', role: 'member', sessionId: 'x' };
    const result = await tool.run({ prompt: 'a dragon reading a book' }, { actor, signal: new AbortController().signal });
    expect(result.summary).toBe('Started a picture');
    const id = /\/images\?id=([\w-]+)/.exec(result.content)![1]!;
    await until(async () => (await s.member.get(`/api/image/artifacts/${id}`)).headers['content-type'] === 'image/png', 'the chat picture to be ready');
    expect((await s.admin.get(`/api/image/artifacts/${id}`)).status).toBe(404);
  });
});
