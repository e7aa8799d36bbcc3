// Music on the image engine, against the fake ComfyUI at IMAGE_ENGINE_URL with its audio nodes: the
// stream (start, steps, done) and the graph the engine validated, the piece served with Range and
// private to its member, history newest first, delete removing the file, the refusals before any
// stream (400 input, 422 content dials, 422 music_not_installed saying what to add, 429 one at a
// time, 503 engine down) and a piece that fails on the way (cut, error, stall, not audio) leaving
// nothing behind.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readObjectInfo } from '../../server/adapters/image-engine/object-info.js';
import { validateGraph } from '../../server/adapters/image-engine/validate-graph.js';
import { AUDIO_CHECKPOINT_FILE, AUDIO_ENCODER_FILE, startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { AUDIO_OBJECT_INFO, objectInfoAnswer } from '../fixtures/comfyui/index.js';
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

type Node = { class_type: string; inputs: Record<string, unknown> };
const nodesOf = (graph: Record<string, unknown>, cls: string) => Object.values(graph as Record<string, Node>).filter((n) => n.class_type === cls);

describe('music', () => {
  let engine: FakeImageEngine;
  let s: TestServer;
  const musicFiles = () => {
    const dir = path.join(s.dataDir, 'music', s.users.member.id);
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const available = async () => (await s.member.get('/api/music/status')).body.available === true;

  beforeAll(async () => {
    engine = await startFakeImageEngine({ audio: 'installed', stepMs: 1 });
    s = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url }, overrides: { tuning: { imageStallMs: 1500 } } });
    await until(available, 'music to be available');
  });
  afterAll(async () => {
    await s?.close();
    await engine?.close();
  });
  beforeEach(() => {
    engine.script = {};
    engine.audioFormat = 'flac';
  });

  it('generate streams start, steps and done; the engine got the Stable Audio graph, valid against its node list', async () => {
    const r = await s.member.post('/api/music/generate', { prompt: 'calm piano over soft rain', seconds: 12, seed: 42 });
    expect(r.status).toBe(200);
    const events = eventsOf(r.text);
    expect(events[0]).toMatchObject({ event: 'start', data: { seconds: 12, seed: 42, steps: 50 } });
    expect(events.filter((e) => e.event === 'step').at(-1)!.data).toMatchObject({ current: 50, total: 50 });
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data.piece).toMatchObject({ prompt: 'calm piano over soft rain', seconds: 12, seed: 42, contentType: 'audio/flac', isAdult: false });

    const graph = engine.prompts.at(-1)!.graph;
    expect(nodesOf(graph, 'CheckpointLoaderSimple')[0]!.inputs.ckpt_name).toBe(AUDIO_CHECKPOINT_FILE);
    expect(nodesOf(graph, 'CLIPLoader')[0]!.inputs).toEqual({ clip_name: AUDIO_ENCODER_FILE, type: 'stable_audio' });
    expect(nodesOf(graph, 'EmptyLatentAudio')[0]!.inputs.seconds).toBe(12);
    expect(nodesOf(graph, 'KSampler')[0]!.inputs.seed).toBe(42);
    expect(nodesOf(graph, 'VAEDecodeAudio')).toHaveLength(1);
    expect(nodesOf(graph, 'SaveAudio')).toHaveLength(1);
    // a member kept family-safe: the negative steers away from explicit words
    expect(nodesOf(graph, 'CLIPTextEncode').map((n) => n.inputs.text)).toContain('explicit lyrics, profanity, vulgar vocals, screaming, low quality, distorted, noise, clipping, muffled');
    // the engine's own strict check of what Hearth sent
    const info = readObjectInfo(objectInfoAnswer(), AUDIO_OBJECT_INFO);
    expect(validateGraph(graph, info, { strict: true })).toMatchObject({ ok: true, node_errors: {} });

    // the piece: real FLAC bytes, a Range answered, private to the member
    const url = done.data.piece.url as string;
    const whole = await request(`${s.url}${url}`, { headers: { cookie: s.member.cookie! } });
    const bytes = Buffer.from(await whole.body.arrayBuffer());
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/flac');
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('fLaC');
    expect(bytes.length).toBe(done.data.piece.bytes);
    const part = await request(`${s.url}${url}`, { headers: { cookie: s.member.cookie!, range: 'bytes=0-3' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-3/${bytes.length}`);
    expect(Buffer.from(await part.body.arrayBuffer()).toString('ascii')).toBe('fLaC');
    expect((await s.admin.get(url)).status).toBe(404);
    expect((await s.admin.delete(`/api/music/${done.data.id}`)).status).toBe(404);
    expect((await s.admin.get('/api/music')).body.pieces).toEqual([]);
    expect((await s.anon.get('/api/music')).status).toBe(401);
    expect((await s.anon.get(url)).status).toBe(401);
  });

  it('history is newest first; a WAV from the engine is kept as WAV; delete removes row and file', async () => {
    engine.audioFormat = 'wav';
    const second = eventsOf((await s.member.post('/api/music/generate', { prompt: 'a brass band marching', seconds: 5 })).text).at(-1)!;
    expect(second.data.piece.contentType).toBe('audio/wav');
    const history = (await s.member.get('/api/music')).body;
    expect(history.pieces.length).toBeGreaterThanOrEqual(2);
    expect(history.pieces[0].id).toBe(second.data.id);
    expect(history.pieces.map((p: { createdAt: string }) => p.createdAt)).toEqual([...history.pieces.map((p: { createdAt: string }) => p.createdAt)].sort().reverse());

    expect(musicFiles()).toContain(`${second.data.id}.wav`);
    expect((await s.member.delete(`/api/music/${second.data.id}`)).status).toBe(204);
    expect(musicFiles()).not.toContain(`${second.data.id}.wav`);
    expect((await s.member.get(second.data.piece.url)).status).toBe(404);
    expect((await s.member.get('/api/music')).body.pieces.map((p: { id: string }) => p.id)).not.toContain(second.data.id);
  });

  it('bad input is a plain 400 and nothing reaches the engine', async () => {
    const before = engine.prompts.length;
    for (const body of [{ prompt: 'a tune', seconds: 4 }, { prompt: 'a tune', seconds: 48 }, { prompt: '   ', seconds: 10 }, { prompt: 'x'.repeat(501), seconds: 10 }, { prompt: 'a tune' }, { prompt: 'a tune', seconds: 10, seed: -1 }]) {
      const r = await s.member.post('/api/music/generate', body);
      expect(r.status).toBe(400);
      expect(r.headers['content-type']).toMatch(/application\/json/);
      expect(typeof r.body.error.message).toBe('string');
    }
    expect(engine.prompts.length).toBe(before);
  });

  it('content dials: adult words from a family-safe member are refused before the stream; an adult member gets an adult piece, hidden outside the adult state', async () => {
    const before = engine.prompts.length;
    const refused = await s.member.post('/api/music/generate', { prompt: 'an explicit erotic song', seconds: 8 });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('prompt_not_allowed');
    expect(refused.body.error.message).toMatch(/family-friendly/);
    expect(engine.prompts.length).toBe(before);

    expect((await s.admin.put(`/api/admin/content/members/${s.users.member.id}`, { level: 'adult' })).status).toBe(200);
    try {
      const done = eventsOf((await s.member.post('/api/music/generate', { prompt: 'an explicit erotic song', seconds: 8 })).text).at(-1)!;
      expect(done.event).toBe('done');
      expect(done.data.piece.isAdult).toBe(true);
      const texts = nodesOf(engine.prompts.at(-1)!.graph, 'CLIPTextEncode').map((n) => String(n.inputs.text));
      expect(texts.join(' ')).not.toContain('explicit lyrics');
      const history = (await s.member.get('/api/music')).body;
      expect(history.pieces.map((p: { id: string }) => p.id)).not.toContain(done.data.id);
      expect(history.hiddenByContent).toBe(1);
      expect((await s.member.get(done.data.piece.url)).status).toBe(404);
      expect((await s.member.delete(`/api/music/${done.data.id}`)).status).toBe(404);
    } finally {
      await s.admin.put(`/api/admin/content/members/${s.users.member.id}`, { level: 'teen' });
    }
  });

  it('an engine cut mid-stream, an execution error and an answer that is not audio end with an error event and leave nothing', async () => {
    const files = musicFiles().length;
    const pieces = (await s.member.get('/api/music')).body.pieces.length;

    engine.scriptNext({ failAtStep: 3 });
    const failed = eventsOf((await s.member.post('/api/music/generate', { prompt: 'a lullaby', seconds: 6 })).text);
    expect(failed.at(-1)).toMatchObject({ event: 'error', data: { code: 'music_engine_error' } });
    expect(failed.at(-1)!.data.message).toMatch(/could not finish this piece/);

    engine.audioFormat = 'garbage';
    const garbage = eventsOf((await s.member.post('/api/music/generate', { prompt: 'a lullaby', seconds: 6 })).text);
    expect(garbage.at(-1)).toMatchObject({ event: 'error', data: { code: 'music_bad_output' } });
    engine.audioFormat = 'flac';

    engine.scriptNext({ crashAtStep: 3 });
    const cut = eventsOf((await s.member.post('/api/music/generate', { prompt: 'a lullaby', seconds: 6 })).text);
    expect(cut[0]!.event).toBe('start');
    expect(cut.at(-1)).toMatchObject({ event: 'error', data: { code: 'music_engine_cut' } });

    // the engine is gone: a plain 503 sentence before any stream
    const down = await s.member.post('/api/music/generate', { prompt: 'a lullaby', seconds: 6 });
    expect(down.status).toBe(503);
    expect(down.headers['content-type']).toMatch(/application\/json/);
    expect(down.body.error.message).toMatch(/not answering/);

    expect(musicFiles().length).toBe(files);
    expect(musicFiles().filter((f) => f.endsWith('.part'))).toEqual([]);
    expect((await s.member.get('/api/music')).body.pieces.length).toBe(pieces);
    await engine.restart();
    await until(available, 'music to be available again');
  });

  it('a piece takes its turn in the household\'s engine queue: it waits behind a picture being drawn, then is made', async () => {
    engine.scriptNext({ stepMs: 40 });
    const picture = await connectSse(s.url, '/api/image/generate', { cookie: s.admin.cookie!, origin: s.url }, { body: { prompt: 'a red kite', steps: 6 } });
    await picture.waitFor((e) => e.event === 'step' && e.data.current > 0);
    const r = await s.member.post('/api/music/generate', { prompt: 'a lute in the rain', seconds: 5 });
    const events = eventsOf(r.text);
    expect(events.map((e) => e.event)).toContain('queued');
    expect(events.find((e) => e.event === 'queued')!.data.position).toBe(1);
    expect(events.at(-1)!.event).toBe('done');
    // the picture was finished on the engine before the piece was sent to it
    expect(picture.events.at(-1)!.event).toBe('done');
    const order = engine.prompts.slice(-2).map((p) => Object.values(p.graph as Record<string, Node>).some((n) => n.class_type === 'SaveAudio'));
    expect(order).toEqual([false, true]);
    picture.close();
  });

  it('one piece at a time per member (429); a stalled engine ends the piece with an error event', async () => {
    engine.scriptNext({ stallAtStep: 2 });
    const first = await connectSse(s.url, '/api/music/generate', { cookie: s.member.cookie!, origin: s.url }, { body: { prompt: 'slow drums', seconds: 10 } });
    await first.waitFor((e) => e.event === 'step');
    const busy = await s.member.post('/api/music/generate', { prompt: 'another', seconds: 10 });
    expect(busy.status).toBe(429);
    expect(busy.body.error.code).toBe('music_busy');
    const end = await first.waitFor((e) => e.event === 'error', 10_000);
    expect(end.data.code).toBe('music_stalled');
    await until(() => engine.interrupts.length > 0, 'the engine to be interrupted');
  });

  it('the fake engine refuses a broken audio graph as ComfyUI does: an unknown node, an input out of range', async () => {
    const post = async (prompt: Record<string, unknown>) => {
      const res = await request(`${engine.url}/prompt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt }) });
      return { status: res.statusCode, body: (await res.body.json()) as any };
    };
    const unknown = await post({ '1': { class_type: 'StableAudioMagic', inputs: {} } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ type: 'invalid_prompt', message: 'Cannot execute because node StableAudioMagic does not exist.' });
    const graph = {
      '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: AUDIO_CHECKPOINT_FILE } },
      '5': { class_type: 'EmptyLatentAudio', inputs: { seconds: 0.5, batch_size: 1 } },
      '6': { class_type: 'KSampler', inputs: { model: ['1', 0], seed: 1, steps: 2, cfg: 4, sampler_name: 'euler', scheduler: 'normal', positive: ['1', 1], negative: ['1', 1], latent_image: ['5', 0], denoise: 1 } },
      '7': { class_type: 'VAEDecodeAudio', inputs: { samples: ['6', 0], vae: ['1', 2] } },
      '8': { class_type: 'SaveAudio', inputs: { audio: ['7', 0], filename_prefix: 'x' } },
    };
    const refused = await post(graph);
    expect(refused.status).toBe(400);
    expect(refused.body.error.type).toBe('prompt_outputs_failed_validation');
    // the CLIP output linked as conditioning is a type mismatch; the half second is under EmptyLatentAudio's min of 1
    const reasons = Object.values(refused.body.node_errors as Record<string, { class_type: string; errors: { type: string }[] }>).flatMap((n) => n.errors.map((e) => `${n.class_type}:${e.type}`));
    expect(reasons).toEqual(expect.arrayContaining(['EmptyLatentAudio:value_smaller_than_min', 'KSampler:return_type_mismatch']));
  });

  it('missing nodes or model files are a plain 422 music_not_installed saying what to add', async () => {
    try {
      await engine.restart({ audio: 'no-models' });
      await until(async () => (await s.member.get('/api/music/status')).body.missing?.length > 0, 'the engine without music models');
      const before = engine.prompts.length;
      const r = await s.member.post('/api/music/generate', { prompt: 'a waltz', seconds: 10 });
      expect(r.status).toBe(422);
      expect(r.headers['content-type']).toMatch(/application\/json/);
      expect(r.body.error.code).toBe('music_not_installed');
      expect(r.body.error.message).toMatch(/Stable Audio Open checkpoint/);
      expect(r.body.error.message).toMatch(/text_encoders/);
      const status = (await s.member.get('/api/music/status')).body;
      expect(status).toMatchObject({ available: false });
      expect(status.missing).toHaveLength(2);

      await engine.restart({ audio: 'none' });
      await until(async () => /audio nodes/.test((await s.member.get('/api/music/status')).body.reason ?? ''), 'the engine without audio nodes');
      const r2 = await s.member.post('/api/music/generate', { prompt: 'a waltz', seconds: 10 });
      expect(r2.status).toBe(422);
      expect(r2.body.error.message).toMatch(/EmptyLatentAudio/);
      expect(engine.prompts.length).toBe(before);
    } finally {
      await engine.restart({ audio: 'installed' });
      await until(available, 'music to be available again');
    }
  });
});

describe('music on an engine that is still starting, and a member who leaves', () => {
  let engine: FakeImageEngine;
  let s: TestServer;

  beforeAll(async () => {
    // the engine listens only after a while (loading its nodes): a piece asked for meanwhile waits for it
    engine = await startFakeImageEngine({ audio: 'installed', stepMs: 1, startDelayMs: 1500 });
    s = await startTestServer({ seed: 'household', config: { imageEngineUrl: engine.url } });
  });
  afterAll(async () => {
    await s?.close();
    await engine?.close();
  });

  it('a piece asked for while the engine starts waits for it, then is made; a member deleted takes their pieces\' files along', async () => {
    const r = await s.member.post('/api/music/generate', { prompt: 'morning birds', seconds: 5 });
    expect(r.status).toBe(200);
    const done = eventsOf(r.text).at(-1)!;
    expect(done.event).toBe('done');
    const folder = path.join(s.dataDir, 'music', s.users.member.id);
    expect(readdirSync(folder)).toEqual([`${done.data.id}.flac`]);
    expect((await s.admin.delete(`/api/admin/users/${s.users.member.id}`)).status).toBe(200);
    await until(() => !existsSync(folder), 'the member\'s music folder to be removed');
  });
});
