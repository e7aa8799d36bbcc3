// Prompt help against the Ollama fake (enhance-prompt, auto-enhance with weights clamped to the
// member's own LoRAs, preview-check's refusals), clear 503s when the AI helper is down, and the
// engine's refusals before any stream: generate while the engine is not set up is a 503 with a
// sentence, and the image_gen chat tool answers that the engine is offline.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import type { UserActor } from '../../server/actor.js';
import { CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { ImageGenStore } from '../../server/modules/image-gen/store.js';

describe('image prompt help and refusals', () => {
  let fake: FakeModelRuntime;
  let s: TestServer;
  const lastChat = () => fake.requests.filter((r) => r.path === '/api/chat').at(-1)?.body as FakeChatRequest;

  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
    s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }) } });
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.models = [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL];
    fake.chatReply = null;
    fake.requests.length = 0;
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
  });

  it('enhance-prompt answers the model\'s clearer prompt, the request passed as data', async () => {
    fake.chatReply = 'two brown dogs playing in a green park';
    const r = await s.member.post('/api/image/enhance-prompt', { prompt: 'dogs in a park' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ prompt: 'two brown dogs playing in a green park', changed: true });
    expect(lastChat().model).toBe(CHAT_MODEL.name);
    expect(lastChat().messages.at(-1)).toMatchObject({ role: 'user', content: 'dogs in a park' });
  });

  it('auto-enhance clamps the suggested weights to the member\'s own LoRAs and never names another', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const path = await import('node:path');
    const dir = path.join(s.dataDir, 'image-engine', 'models', 'loras');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mine.ckpt'), 'x');
    writeFileSync(path.join(dir, 'theirs.ckpt'), 'x');
    const registered = (await s.admin.post('/api/admin/image-loras/recover-disk')).body.registered as { id: string; filePath: string }[];
    const mine = registered.find((l) => l.filePath === 'mine.ckpt')!.id;
    const theirs = registered.find((l) => l.filePath === 'theirs.ckpt')!.id;
    await s.admin.put(`/api/admin/image-loras/${mine}/grants/${s.users.member.id}`, { state: 'on' });
    fake.chatReply = JSON.stringify({ prompt: 'one castle on a hill', weights: { [mine]: 9, [theirs]: 1 } });
    const r = await s.member.post('/api/image/auto-enhance', { prompt: 'castle' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ prompt: 'one castle on a hill', loraWeights: { [mine]: 1.5 } });
    expect(JSON.stringify(lastChat().messages)).not.toContain(theirs);
  });

  it('a stopped AI helper is a 503 with a sentence, never a 500; bad input is a 400', async () => {
    await fake.setMode('down');
    const r = await s.member.post('/api/image/enhance-prompt', { prompt: 'a boat' });
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('model_runtime_unavailable');
    expect(r.body.error.message).not.toMatch(/ECONNREFUSED|fetch failed/);
    await fake.setMode('ok');
    expect((await s.member.post('/api/image/enhance-prompt', { prompt: '' })).status).toBe(400);
    expect((await s.member.post('/api/image/enhance-prompt', { prompt: 'x'.repeat(1001) })).status).toBe(400);
    expect((await s.member.post('/api/image/auto-enhance', { prompt: 'x', loraIds: 'all' })).status).toBe(400);
    expect((await s.member.post('/api/image/preview-check', {})).status).toBe(400);
  });

  it('preview-check: someone else\'s picture is 404; one without a preview is a 409 with a sentence', async () => {
    const id = '22222222-2222-4222-8222-222222222222';
    await new ImageGenStore(s.handle.deps.db).insertArtifact({
      id, userId: s.users.member.id, kind: 'generated', pipeline: 'txt2img', state: 'building', stepCurrent: 0, stepTotal: 25, isAdult: false, prompt: 'a kite',
      finalPrompt: null, negativePrompt: null, style: null, params: {}, loras: [], sourceId: null, error: null, outputPath: null, contentType: null,
      width: null, height: null, bytes: null, createdAt: new Date().toISOString(), startedAt: null, finishedAt: null,
    });
    expect((await s.admin.post('/api/image/preview-check', { id })).status).toBe(404);
    const r = await s.member.post('/api/image/preview-check', { id });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'no_preview' });
  });

  it('generate while the engine is not set up is a 503 with the way to fix it, before any stream', async () => {
    const r = await s.member.post('/api/image/generate', { prompt: 'a lighthouse at night' });
    expect(r.status).toBe(503);
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.body.error.code).toBe('image_engine_unavailable');
    expect(r.body.error.message).toMatch(/admin/);
    for (const body of [{}, { prompt: '' }, { prompt: 'x', pipeline: 'bg_remove' }, { prompt: 'x', width: 'wide' }, { prompt: 'x', loraIds: ['a', 'b', 'c', 'd'] }]) {
      expect((await s.member.post('/api/image/generate', body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('the image_gen chat tool answers that the engine is offline, and starts nothing', async () => {
    const tool = s.handle.deps.chatTools.get('image_gen')!;
    expect(tool).toBeDefined();
    const actor: UserActor = { kind: 'user', id: s.users.member.id, name: 'Sam', role: 'member', sessionId: 'x' };
    const before = await new ImageGenStore(s.handle.deps.db).countActive(s.users.member.id);
    const result = await tool.run({ prompt: 'a dragon reading a book' }, { actor, signal: new AbortController().signal });
    expect(result.summary).toBe('The image engine is offline');
    expect(result.content).toMatch(/offline/);
    expect(await new ImageGenStore(s.handle.deps.db).countActive(s.users.member.id)).toBe(before);
    // the Extension says why it is not offered to chat
    const listed = (await s.member.get('/api/tools')).body.tools.find((t: { id: string }) => t.id === 'image_gen');
    expect(listed).toMatchObject({ offline: true, available: false });
  });
});
