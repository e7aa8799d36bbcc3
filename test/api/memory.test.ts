// Issue 32, chat memory: off until an admin switches it on (PUT /api/admin/memory); then a member
// keeps short facts by hand (GET/POST/DELETE /api/chat/memory) or by saying "remember that ..." in
// chat, and their memories go into their own chat's system prompt (checked at the Ollama fake).
// Memories are private from both sides: nobody else, an admin included, lists or deletes them (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { factToRemember } from '../../server/modules/memory/service.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { ask } from '../harness/chat.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const URL_ = '/api/chat/memory';
const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('chat memory', () => {
  let s: TestServer;
  let fake: FakeModelRuntime;
  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 1 });
    s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }) } });
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
  });
  const systemOfLastAnswer = () => {
    const answers = fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as FakeChatRequest).filter((b) => b.format === undefined);
    return String(answers.at(-1)!.messages[0]!.content);
  };

  it('signed in only; the switch is an admin\'s', async () => {
    expect((await s.anon.get(URL_)).status).toBe(401);
    expect((await s.anon.post(URL_, { text: 'x' })).status).toBe(401);
    expect((await s.anon.delete(`${URL_}/${NOBODY}`)).status).toBe(401);
    expect((await s.member.get('/api/admin/memory')).status).toBe(403);
    expect((await s.member.put('/api/admin/memory', { enabled: true })).status).toBe(403);
  });

  it('is off until the household switches it on: nothing is kept, by hand or from chat', async () => {
    expect((await s.admin.get('/api/admin/memory')).body).toEqual({ enabled: false });
    expect((await s.member.get(URL_)).body).toEqual({ enabled: false, memories: [] });
    const r = await s.member.post(URL_, { text: 'Sam is allergic to peanuts' });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('memory_off');
    expect((await ask(s.member, { message: 'Remember that Sam is allergic to peanuts.' })).status).toBe(200);
    expect((await s.member.get(URL_)).body.memories).toEqual([]);
  });

  it('on: added by hand and from chat, in the member\'s own system prompt, removed by hand', async () => {
    expect((await s.admin.put('/api/admin/memory', { enabled: true })).body).toEqual({ enabled: true });
    const added = await s.member.post(URL_, { text: '  We live in Leeds  ' });
    expect(added.status, added.text).toBe(201);
    expect(added.body.memory).toMatchObject({ text: 'We live in Leeds', id: expect.any(String), createdAt: expect.any(String) });

    expect((await ask(s.member, { message: 'Remember that Sam is allergic to peanuts.' })).status).toBe(200);
    const list = (await s.member.get(URL_)).body;
    expect(list.enabled).toBe(true);
    expect(list.memories.map((m: { text: string }) => m.text)).toEqual(['We live in Leeds', 'Sam is allergic to peanuts']);
    expect(systemOfLastAnswer()).toContain('- Sam is allergic to peanuts');

    expect((await ask(s.member, { message: 'What should I cook tonight?' })).status).toBe(200);
    expect(systemOfLastAnswer()).toContain('- We live in Leeds');
    // the admin's chat carries none of the member's memories
    expect((await ask(s.admin, { message: 'What should I cook tonight?' })).status).toBe(200);
    expect(systemOfLastAnswer()).not.toContain('Leeds');

    const id = list.memories[0].id as string;
    expect((await s.member.delete(`${URL_}/${id}`)).status).toBe(204);
    expect((await s.member.get(URL_)).body.memories.map((m: { text: string }) => m.text)).toEqual(['Sam is allergic to peanuts']);
    expect((await s.member.delete(`${URL_}/${id}`)).status).toBe(404);
  });

  it('private from both sides: an admin cannot list or delete a member\'s memory, nor the member the admin\'s', async () => {
    const mine = (await s.member.get(URL_)).body.memories[0].id as string;
    expect((await s.admin.get(URL_)).body.memories).toEqual([]);
    expect((await s.admin.delete(`${URL_}/${mine}`)).status).toBe(404);
    const adminOwn = (await s.admin.post(URL_, { text: 'The boiler code is in the red folder' })).body.memory.id as string;
    expect((await s.member.delete(`${URL_}/${adminOwn}`)).status).toBe(404);
    expect((await s.member.get(URL_)).body.memories.map((m: { id: string }) => m.id)).toEqual([mine]);
    expect((await s.admin.get(URL_)).body.memories.map((m: { id: string }) => m.id)).toEqual([adminOwn]);
  });

  it('bad input is 400 with a sentence; switched off, memories stay but leave the prompt', async () => {
    for (const body of [{}, { text: '   ' }, { text: 'x'.repeat(301) }, { text: 'ok', extra: 1 }]) {
      const r = await s.member.post(URL_, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error.message).toBe('string');
    }
    expect((await s.member.delete(`${URL_}/not-an-id`)).status).toBe(400);
    expect((await s.admin.put('/api/admin/memory', { enabled: 'yes' })).status).toBe(400);
    await s.admin.put('/api/admin/memory', { enabled: false });
    expect((await ask(s.member, { message: 'What should I cook tonight?' })).status).toBe(200);
    expect(systemOfLastAnswer()).not.toContain('peanuts');
    expect((await s.member.get(URL_)).body.memories.length).toBe(1);
  });

  it('the plain-text rule takes "remember (that|:) ..." only', () => {
    expect(factToRemember('Remember that Sam is allergic to peanuts.')).toBe('Sam is allergic to peanuts');
    expect(factToRemember('please remember: the wifi password is on the fridge')).toBe('the wifi password is on the fridge');
    expect(factToRemember('Do you remember that film?')).toBeNull();
    expect(factToRemember('What should I cook?')).toBeNull();
  });
});
