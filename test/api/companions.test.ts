// Issue 32, companions: the roster a member sees (granted, by default for a household companion at
// `child`, otherwise by an admin's grant, and never above their Chat level) with favorites; the
// admin's CRUD and grants; and POST /api/chat/chat/stream with companionId: its prompt (and model)
// apply, a companion that is not the member's is 403 companion_not_allowed before any stream; the
// companion is kept with the conversation (companionId), so its follow-ups speak as it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { ask } from '../harness/chat.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('companions', () => {
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
  const roster = async (c = s.member) => ((await c.get('/api/companions')).body.companions as Array<{ id: string; favorite: boolean }>).map((x) => x.id).sort();
  const lastSystem = () => String((fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as FakeChatRequest).filter((b) => b.format === undefined).at(-1)!.messages[0]!.content));
  const dials = (level: string, chat?: string) => s.admin.put(`/api/admin/content/members/${s.users.member.id}`, { level, ...(chat ? { chat } : {}) });

  it('signed in only; the roster\'s editing is an admin\'s', async () => {
    expect((await s.anon.get('/api/companions')).status).toBe(401);
    expect((await s.anon.post('/api/companions/homework-helper/favorite')).status).toBe(401);
    expect((await s.member.get('/api/admin/companions')).status).toBe(403);
    expect((await s.member.put(`/api/admin/companions/cooking-helper/grants/${s.users.member.id}`, { granted: true })).status).toBe(403);
  });

  it('three come with Hearth; the child-level one is everyone\'s, the others by grant', async () => {
    const all = (await s.admin.get('/api/admin/companions')).body.companions as Array<{ id: string; level: string; builtin: boolean }>;
    expect(all.map((c) => [c.id, c.level, c.builtin]).sort()).toEqual([
      ['cooking-helper', 'teen', true],
      ['homework-helper', 'child', true],
      ['trip-planner', 'teen', true],
    ]);
    expect(await roster()).toEqual(['homework-helper']);
    const granted = await s.admin.put(`/api/admin/companions/cooking-helper/grants/${s.users.member.id}`, { granted: true });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.companion.grants).toEqual([{ userId: s.users.member.id, granted: true }]);
    expect(await roster()).toEqual(['cooking-helper', 'homework-helper']);
    // withholding the household one
    await s.admin.put(`/api/admin/companions/homework-helper/grants/${s.users.member.id}`, { granted: false });
    expect(await roster()).toEqual(['cooking-helper']);
    await s.admin.put(`/api/admin/companions/homework-helper/grants/${s.users.member.id}`, { granted: true });
    expect((await s.admin.put(`/api/admin/companions/cooking-helper/grants/${NOBODY}`, { granted: true })).status).toBe(404);
    expect((await s.admin.put(`/api/admin/companions/nothing-here/grants/${s.users.member.id}`, { granted: true })).status).toBe(404);
  });

  it('never above the member\'s Chat level, whatever the grants', async () => {
    await dials('teen', 'child');
    try {
      expect(await roster()).toEqual(['homework-helper']);
      const r = await ask(s.member, { message: 'What can I cook?', companionId: 'cooking-helper' });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('companion_not_allowed');
    } finally {
      await dials('teen');
    }
  });

  it('favorites are the member\'s own; a companion they cannot use is 404', async () => {
    expect((await s.member.post('/api/companions/cooking-helper/favorite')).body).toEqual({ id: 'cooking-helper', favorite: true });
    const mine = (await s.member.get('/api/companions')).body.companions as Array<{ id: string; favorite: boolean }>;
    expect(mine.find((c) => c.id === 'cooking-helper')!.favorite).toBe(true);
    expect(mine.find((c) => c.id === 'homework-helper')!.favorite).toBe(false);
    expect(((await s.admin.get('/api/companions')).body.companions as Array<{ id: string; favorite: boolean }>).every((c) => !c.favorite)).toBe(true);
    expect((await s.member.post('/api/companions/trip-planner/favorite')).status).toBe(404);
    expect((await s.member.delete('/api/companions/cooking-helper/favorite')).body).toEqual({ id: 'cooking-helper', favorite: false });
  });

  it('chat with a companion: its prompt applies; one not granted is 403 companion_not_allowed, an unknown one 404', async () => {
    const r = await ask(s.member, { message: 'I have eggs and spinach.', companionId: 'cooking-helper' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(lastSystem()).toContain('You are a friendly home cooking helper.');
    const refused = await ask(s.member, { message: 'Plan a trip', companionId: 'trip-planner' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('companion_not_allowed');
    expect(refused.body.error.message).toBe('Trip planner is not one of your companions. Ask an admin if you would like to use it.');
    expect((await ask(s.member, { message: 'Hi', companionId: 'nothing-here' })).status).toBe(404);
    // without one, no companion prompt
    await ask(s.member, { message: 'Hello' });
    expect(lastSystem()).not.toContain('cooking helper');
  });

  it('a companion is kept with its conversation: returned with it, and the follow-ups and a regenerated answer speak as it', async () => {
    const first = await ask(s.member, { message: 'I have rice and peas.', companionId: 'cooking-helper' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const id = first.get('conversation').id as string;
    expect((await s.member.get(`/api/chat/conversations/${id}`)).body.conversation.companionId).toBe('cooking-helper');
    const listed = (await s.member.get('/api/chat/conversations')).body.conversations as Array<{ id: string; companionId: string | null }>;
    expect(listed.find((c) => c.id === id)!.companionId).toBe('cooking-helper');
    // re-opened: no companionId sent, the conversation's own applies
    expect((await ask(s.member, { conversationId: id, message: 'And for dessert?' })).status).toBe(200);
    expect(lastSystem()).toContain('You are a friendly home cooking helper.');
    expect((await ask(s.member, { conversationId: id, regenerate: true })).status).toBe(200);
    expect(lastSystem()).toContain('You are a friendly home cooking helper.');
    // another one named in a follow-up takes its place
    expect((await ask(s.member, { conversationId: id, message: 'Help with fractions', companionId: 'homework-helper' })).status).toBe(200);
    expect(lastSystem()).toContain('You are a patient homework helper');
    expect((await s.member.get(`/api/chat/conversations/${id}`)).body.conversation.companionId).toBe('homework-helper');
    // a conversation started without one has none
    const plain = await ask(s.member, { message: 'Hello there' });
    expect((await s.member.get(`/api/chat/conversations/${plain.get('conversation').id}`)).body.conversation.companionId).toBeNull();
  });

  it('a companion since withheld leaves its conversation to the household assistant; a deleted one is gone from it', async () => {
    const first = await ask(s.member, { message: 'Pasta ideas?', companionId: 'cooking-helper' });
    const id = first.get('conversation').id as string;
    await s.admin.put(`/api/admin/companions/cooking-helper/grants/${s.users.member.id}`, { granted: false });
    try {
      const next = await ask(s.member, { conversationId: id, message: 'Something quicker?' });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect(lastSystem()).not.toContain('cooking helper');
      // still its companion, should the grant come back
      expect((await s.member.get(`/api/chat/conversations/${id}`)).body.conversation.companionId).toBe('cooking-helper');
    } finally {
      await s.admin.put(`/api/admin/companions/cooking-helper/grants/${s.users.member.id}`, { granted: true });
    }
    const made = await s.admin.post('/api/admin/companions', { name: 'Gone soon', description: 'Brief.', avatar: '🕊', systemPrompt: 'You are gone soon.', level: 'child', greeting: 'Hi.' });
    const talk = await ask(s.member, { message: 'Hi', companionId: made.body.companion.id });
    const talkId = talk.get('conversation').id as string;
    expect((await s.admin.delete(`/api/admin/companions/${made.body.companion.id}`)).status).toBe(204);
    expect((await s.member.get(`/api/chat/conversations/${talkId}`)).body.conversation.companionId).toBeNull();
    expect((await ask(s.member, { conversationId: talkId, message: 'Still there?' })).status).toBe(200);
    expect(lastSystem()).not.toContain('You are gone soon.');
  });

  it("a companion's own model answers", async () => {
    fake.models.push({ ...CHAT_MODEL, name: 'tiny:1b' });
    const made = await s.admin.post('/api/admin/companions', { name: 'Quick', description: 'Short answers.', avatar: '⚡', systemPrompt: 'Answer in one sentence.', model: 'tiny:1b', level: 'child', greeting: 'Hi.' });
    expect(made.status, made.text).toBe(201);
    const r = await ask(s.member, { message: 'Why is the sky blue?', companionId: made.body.companion.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const last = fake.requests.filter((x) => x.path === '/api/chat').map((x) => x.body as FakeChatRequest).filter((b) => b.format === undefined).at(-1)!;
    expect(last.model).toBe('tiny:1b');
    await s.admin.delete(`/api/admin/companions/${made.body.companion.id}`);
  });

  it('an admin creates, edits and deletes a companion; a built-in one stays; bad input is 400', async () => {
    const body = { name: 'Story teller', description: 'Bedtime stories.', avatar: '🌙', systemPrompt: 'You tell short, gentle bedtime stories.', level: 'child', greeting: 'Shall I tell you a story?' };
    const made = await s.admin.post('/api/admin/companions', body);
    expect(made.status, made.text).toBe(201);
    const id = made.body.companion.id as string;
    expect(made.body.companion).toMatchObject({ ...body, model: null, builtin: false, grants: [] });
    expect(await roster()).toContain(id);
    expect((await s.admin.patch(`/api/admin/companions/${id}`, { level: 'teen' })).body.companion.level).toBe('teen');
    expect(await roster()).not.toContain(id);
    expect((await s.admin.delete(`/api/admin/companions/${id}`)).status).toBe(204);
    expect((await s.admin.delete(`/api/admin/companions/${id}`)).status).toBe(404);
    const builtin = await s.admin.delete('/api/admin/companions/homework-helper');
    expect(builtin.status).toBe(409);
    expect(builtin.body.error.code).toBe('companion_builtin');
    for (const bad of [{ ...body, level: 'grown-up' }, { ...body, name: '' }, { ...body, extra: 1 }, {}]) expect((await s.admin.post('/api/admin/companions', bad)).status, JSON.stringify(bad)).toBe(400);
    expect((await s.admin.patch('/api/admin/companions/homework-helper', { name: '' })).status).toBe(400);
  });
});
