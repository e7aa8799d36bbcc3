// POST /api/reader/:id/summarize and /:id/ask end to end: the real server, the fake capture engine
// for the article text and the Ollama fake for the model, in each of its failure modes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { FakeCaptureEngine } from '../fakes/capture-engine.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import type { TestClient } from '../harness/client.js';
import { waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const ARTICLE = 'The city council voted on Tuesday to build a new library downtown. Construction starts in March and costs 12 million euros.';
const SUMMARY = { summary: 'The council approved a downtown library that starts in March.', tags: ['Library', 'city council', 'budget'] };

let server: TestServer;
let fake: FakeModelRuntime;
const engine = new FakeCaptureEngine();
let n = 0;

async function captured(client: TestClient, body: Record<string, unknown> = {}): Promise<string> {
  const url = `https://city${++n}.example.org/library`;
  engine.setPage(url, { title: 'New library', text: ARTICLE });
  const r = await client.post('/api/reader', { url, type: 'offline', ...body });
  expect(r.status, r.text).toBe(201);
  const id = r.body.item.id as string;
  await waitFor(async () => (await client.get(`/api/reader/${id}`)).body.item.archiveState === 'ready', 'the capture to finish', 5000);
  return id;
}

describe('reader AI routes', () => {
  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 1 });
    server = await startTestServer({
      seed: 'household',
      overrides: { captureEngine: engine, modelRuntime: createOllamaClient({ baseUrl: fake.url }) },
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.chatReply = JSON.stringify(SUMMARY);
    fake.requests.length = 0;
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
  });

  it('summarize on an own item persists the excerpt and merges the tags', async () => {
    const id = await captured(server.member, { tags: ['Town'] });
    const r = await server.member.post(`/api/reader/${id}/summarize`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toBe(SUMMARY.summary);
    expect(r.body.tags).toEqual(['library', 'city council', 'budget']);
    expect(r.body.item).toMatchObject({ id, excerpt: SUMMARY.summary });
    expect([...r.body.item.tags].sort()).toEqual(['Town', 'budget', 'city council', 'library'].sort());
    const again = (await server.member.get(`/api/reader/${id}`)).body.item;
    expect(again.excerpt).toBe(SUMMARY.summary);
    expect(again.tags).toHaveLength(4);
    // the article went to the chosen model, with the JSON schema
    const chat = fake.requests.find((q) => q.path === '/api/chat')!.body as FakeChatRequest & { format: unknown };
    expect(chat.model).toBe(CHAT_MODEL.name);
    expect(chat.format).toMatchObject({ required: ['summary', 'tags'] });
    expect(String(chat.messages[1]!.content)).toContain(ARTICLE);
  });

  it('summarize on a global item answers without persisting anything', async () => {
    const created = await server.admin.post('/api/admin/reader', { url: 'https://global.example.org/page', title: 'Household page' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.item.id as string;
    await server.handle.deps.db('reader_items').where({ id }).update({ content_text: ARTICLE });
    const r = await server.member.post(`/api/reader/${id}/summarize`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.summary).toBe(SUMMARY.summary);
    expect(r.body.item).toMatchObject({ id, isGlobal: true, excerpt: null, tags: [] });
    const row = await server.handle.deps.db('reader_items').where({ id }).first();
    expect(row.excerpt).toBeNull();
  });

  it('ask answers from the article; the question is validated', async () => {
    const id = await captured(server.member);
    fake.chatReply = (req) => (String(req.messages.at(-1)!.content).endsWith('Question: How much does it cost?') ? '12 million euros.' : "The article doesn't say.");
    const r = await server.member.post(`/api/reader/${id}/ask`, { question: 'How much does it cost?' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ answer: '12 million euros.' });
    expect((await server.member.post(`/api/reader/${id}/ask`, { question: 'Who is the mayor?' })).body).toEqual({ answer: "The article doesn't say." });

    for (const body of [{}, { question: '' }, { question: '   ' }, { question: 'x'.repeat(2001) }, { question: 42 }]) {
      const bad = await server.member.post(`/api/reader/${id}/ask`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
    }
    expect((await server.member.post(`/api/reader/${id}/ask`, { question: 'x'.repeat(2000) })).status).toBe(200);
  });

  it("another member's item is 404 for both, and anonymous is 401", async () => {
    const id = await captured(server.admin);
    expect((await server.member.post(`/api/reader/${id}/summarize`)).status).toBe(404);
    expect((await server.member.post(`/api/reader/${id}/ask`, { question: 'Why?' })).status).toBe(404);
    expect((await server.member.post('/api/reader/00000000-0000-4000-8000-000000000000/summarize')).status).toBe(404);
    expect((await server.anon.post(`/api/reader/${id}/summarize`)).status).toBe(401);
    expect(fake.requests.filter((q) => q.path === '/api/chat')).toEqual([]);
  });

  it('an item without saved text is 409 no_content', async () => {
    const r = await server.member.post('/api/reader', { url: 'https://live.example.org/', type: 'live' });
    const res = await server.member.post(`/api/reader/${r.body.item.id}/summarize`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('no_content');
  });

  it('runtime down or no chat model chosen: 503 model_runtime_unavailable', async () => {
    const id = await captured(server.member);
    await fake.setMode('down');
    const down = await server.member.post(`/api/reader/${id}/summarize`);
    expect(down.status).toBe(503);
    expect(down.body.error).toMatchObject({ code: 'model_runtime_unavailable' });
    expect(down.body.error.message).toMatch(/AI model isn't running/);
    expect((await server.member.post(`/api/reader/${id}/ask`, { question: 'Why?' })).status).toBe(503);

    await fake.setMode('ok');
    // none chosen and none the runtime has that could be adopted
    await server.handle.deps.settings.delete('chat_model');
    const models = fake.models;
    fake.models = models.filter((m) => !m.capabilities.includes('completion'));
    try {
      const none = await server.member.post(`/api/reader/${id}/summarize`);
      expect(none.status).toBe(503);
      expect(none.body.error.code).toBe('model_runtime_unavailable');
    } finally {
      fake.models = models;
    }
  });

  it('GET /ai-status says whether Summarize and Ask can work, and why not in words', async () => {
    const ready = await server.member.get('/api/reader/ai-status');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ available: true, unavailableReason: null, fix: null });
    // the same answer the Features page gives for chat
    expect(ready.body).toEqual(await server.handle.deps.features.chatReadiness());
    await fake.setMode('down');
    const down = (await server.member.get('/api/reader/ai-status')).body;
    expect(down).toEqual({ available: false, unavailableReason: 'The model runtime (Ollama) is not running on the Hearth computer.', fix: 'Start Ollama on the Hearth computer.' });
    await fake.setMode('ok');
    await server.handle.deps.settings.set('chat_model', 'not-pulled:7b');
    expect((await server.member.get('/api/reader/ai-status')).body).toMatchObject({ available: false, unavailableReason: 'Ollama does not have the chat model not-pulled:7b any more.' });
    // none chosen and none the runtime has that could be adopted
    await server.handle.deps.settings.delete('chat_model');
    const models = fake.models;
    fake.models = models.filter((m) => !m.capabilities.includes('completion'));
    try {
      const none = (await server.member.get('/api/reader/ai-status')).body;
      expect(none).toEqual({ available: false, unavailableReason: 'No chat model is installed yet.', fix: 'Install a chat model in Admin › Features.' });
    } finally {
      fake.models = models;
    }
    expect((await server.anon.get('/api/reader/ai-status')).status).toBe(401);
  });

  it('garbage from the model is 502 bad_model_output and nothing is saved', async () => {
    const id = await captured(server.member);
    fake.chatReply = 'Sure! Here is your summary: libraries are nice.';
    const r = await server.member.post(`/api/reader/${id}/summarize`);
    expect(r.status).toBe(502);
    expect(r.body.error.code).toBe('bad_model_output');
    const item = (await server.member.get(`/api/reader/${id}`)).body.item;
    expect(item.excerpt).not.toBe('Sure! Here is your summary: libraries are nice.');
    expect(item.tags).toEqual([]);
  });

  it('a stream cut mid-answer or garbage from the runtime is 502', async () => {
    const id = await captured(server.member);
    for (const [mode, code] of [['cut', 'model_cut_off'], ['garbage', 'model_runtime_error']] as const) {
      await fake.setMode(mode);
      const r = await server.member.post(`/api/reader/${id}/summarize`);
      expect(r.status, mode).toBe(502);
      expect(r.body.error.code).toBe(code);
      const a = await server.member.post(`/api/reader/${id}/ask`, { question: 'Why?' });
      expect(a.status, mode).toBe(502);
    }
  });

  it('chat switched off in Features refuses Summarize and Ask with a sentence, and every readiness answer says so; switched on, they work again', async () => {
    const id = await captured(server.member);
    try {
      expect((await server.admin.put('/api/app-features/chat-base', { enabled: false })).status).toBe(200);
      const s = await server.member.post(`/api/reader/${id}/summarize`);
      expect(s.status).toBe(503);
      expect(s.body.error).toMatchObject({ code: 'chat_switched_off' });
      expect(s.body.error.message).toMatch(/^An admin switched chat off in Features.* switch Chat on again in Admin › Features\.$/);
      const a = await server.member.post(`/api/reader/${id}/ask`, { question: 'Where is the library?' });
      expect(a.status).toBe(503);
      expect(a.body.error.code).toBe('chat_switched_off');
      expect(fake.requests.some((q) => q.path === '/api/chat')).toBe(false); // the model was not asked
      // the Reader's ai-status (Summarize and Ask hidden) gives the reason and the fix
      expect((await server.member.get('/api/reader/ai-status')).body).toEqual({
        available: false,
        unavailableReason: 'An admin switched chat off in Features.',
        fix: 'Switch Chat on in Admin › Features.',
      });
      // the Features page keeps chat's own row about the runtime, so the admin can switch it on again
      const plan = (await server.admin.get('/api/admin/features')).body;
      const chatRow = plan.groups.map((g: any) => g.base).find((b: any) => b.id === 'chat-base');
      expect(chatRow).toMatchObject({ enabled: false, available: true });

      expect((await server.admin.put('/api/app-features/chat-base', { enabled: true })).status).toBe(200);
      expect((await server.member.get('/api/reader/ai-status')).body).toMatchObject({ available: true });
      const again = await server.member.post(`/api/reader/${id}/summarize`);
      expect(again.status, again.text).toBe(200);
      expect(again.body.summary).toBe(SUMMARY.summary);
    } finally {
      await server.admin.put('/api/app-features/chat-base', { enabled: true });
    }
  });
});
