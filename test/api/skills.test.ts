// Skills over HTTP (issue 38): chat instruction packs, the household's (admins manage them; three
// built in) and each member's own (private: another member, admins included, gets 404); bad input
// 400; and chat's skillId: the skill's instructions join the system prompt and its tool list narrows
// the tools offered, seen in what the model runtime fake was asked.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import type { ChatTool } from '../../server/modules/chat/tool-registry.js';
import type { ToolDefinition } from '../../server/modules/tools/schema.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { ask } from '../harness/chat.js';
import type { TestClient } from '../harness/client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const tool = (id: string): ChatTool => ({
  id,
  description: `The ${id} stand-in.`,
  args: z.object({ query: z.string().min(1) }),
  timeoutMs: 2000,
  run: async ({ query }) => ({ content: `${id}: ${query}`, summary: id, sources: [] }),
});
const tools = [tool('recipe_search'), tool('weather_lookup'), tool('archive_lookup')];
const extension = (id: string): ToolDefinition => ({
  id,
  name: id,
  description: `${id}, for chat.`,
  offline: true,
  examples: [],
  configSchema: { type: 'object', properties: {}, additionalProperties: false },
  dataSources: [],
  category: 'Reference',
  icon: '🔎',
});

describe('skills (/api/skills) and chat with a skill', () => {
  let s: TestServer;
  let fake: FakeModelRuntime;
  let kim: TestClient;
  const answers = () => fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as FakeChatRequest).filter((b) => b.format === undefined);
  const offered = () => (answers().at(-1)!.tools ?? []).map((t) => t.function?.name).sort();
  const system = () => String(answers().at(-1)!.messages[0]!.content);

  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 1 });
    s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }), chatTools: tools, extensions: tools.map((t) => extension(t.id)) } });
    const m = await s.admin.post('/api/admin/users', { name: 'Kim', pin: '2468', role: 'member' });
    kim = await s.signIn(m.body.user.id, '2468');
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    fake.requests.length = 0;
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
  });

  it('answers 401 without a session', async () => {
    expect((await s.anon.get('/api/skills')).status).toBe(401);
    expect((await s.anon.post('/api/skills', { name: 'x', instructions: 'y' })).status).toBe(401);
    expect((await s.anon.patch('/api/skills/builtin-meal-planner', { name: 'x' })).status).toBe(401);
    expect((await s.anon.delete('/api/skills/builtin-meal-planner')).status).toBe(401);
  });

  it('ships three household skills everyone sees, editable by admins only', async () => {
    const m = await s.member.get('/api/skills');
    expect(m.status).toBe(200);
    expect(m.body.skills.map((k: { id: string }) => k.id)).toEqual(['builtin-homework-checker', 'builtin-meal-planner', 'builtin-packing-list']);
    expect(m.body.skills[0]).toMatchObject({ name: 'Homework checker', scope: 'household', builtIn: true, editable: false });
    expect(m.body.skills[1].starterPrompts.length).toBeGreaterThan(0);
    expect(m.body.tools.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining(['archive_lookup', 'recipe_search', 'weather_lookup']));
    expect((await s.admin.get('/api/skills')).body.skills[0].editable).toBe(true);
    const p = await s.member.patch('/api/skills/builtin-meal-planner', { name: 'Mine now' });
    expect(p.status).toBe(403);
    expect((await s.member.delete('/api/skills/builtin-meal-planner')).status).toBe(403);
    expect((await s.member.post('/api/skills', { name: 'Shared', instructions: 'x', scope: 'household' })).status).toBe(403);
    const a = await s.admin.patch('/api/skills/builtin-meal-planner', { tools: ['recipe_search'], description: 'Plans meals with the recipe book.' });
    expect(a.status).toBe(200);
    expect(a.body.skill).toMatchObject({ id: 'builtin-meal-planner', name: 'Meal planner', tools: ['recipe_search'], scope: 'household' });
  });

  it('refuses bad input with 400, an unknown tool with 422, and writes nothing', async () => {
    for (const body of [{}, { name: '', instructions: 'x' }, { name: 'x' }, { name: 'x', instructions: 'y', scope: 'everyone' }, { name: 'x', instructions: 'y', extra: true }, { name: 'x', instructions: 'y', starterPrompts: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }]) {
      const r = await s.member.post('/api/skills', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error.message).toBe('string');
    }
    const t = await s.member.post('/api/skills', { name: 'x', instructions: 'y', tools: ['rm_rf'] });
    expect(t.status).toBe(422);
    expect(t.body.error.message).toMatch(/no chat tool called "rm_rf"/);
    expect((await s.member.patch('/api/skills/builtin-meal-planner', {})).status).toBe(400);
    expect((await s.handle.deps.db('skills').count({ n: '*' }).first())).toEqual({ n: 3 });
  });

  it('keeps a member’s own skill private: another member and an admin get 404', async () => {
    const c = await s.member.post('/api/skills', { name: 'Sam’s garden helper', description: 'Garden questions', instructions: 'Answer as a patient gardener. Mention the season.', tools: ['weather_lookup'], starterPrompts: ['When do I plant tomatoes?'] });
    expect(c.status).toBe(201);
    const id = c.body.skill.id as string;
    expect(c.body.skill).toMatchObject({ scope: 'mine', editable: true, builtIn: false, tools: ['weather_lookup'] });
    expect((await s.member.get('/api/skills')).body.skills.map((k: { id: string }) => k.id)).toContain(id);
    for (const other of [kim, s.admin]) {
      expect((await other.get('/api/skills')).body.skills.map((k: { id: string }) => k.id)).not.toContain(id);
      expect((await other.get(`/api/skills/${id}`)).status).toBe(404);
      expect((await other.patch(`/api/skills/${id}`, { name: 'taken' })).status).toBe(404);
      expect((await other.delete(`/api/skills/${id}`)).status).toBe(404);
      expect((await ask(other, { message: 'hello', skillId: id })).status).toBe(404);
    }
    const p = await s.member.patch(`/api/skills/${id}`, { name: 'Garden helper' });
    expect(p.body.skill.name).toBe('Garden helper');
    expect((await s.member.get(`/api/skills/${id}`)).body.skill.name).toBe('Garden helper');
  });

  it('chat with a skill: its instructions join the system prompt and its tools narrow what is offered', async () => {
    expect((await ask(s.member, { message: 'What is for dinner?' })).status).toBe(200);
    const all = offered();
    expect(all).toEqual(expect.arrayContaining(['archive_lookup', 'recipe_search', 'weather_lookup']));
    expect(system()).not.toContain('Meal planner');

    const r = await ask(s.member, { message: 'What is for dinner?', skillId: 'builtin-meal-planner' });
    expect(r.status).toBe(200);
    expect(offered()).toEqual(['recipe_search']);
    expect(system()).toContain('Skill "Meal planner"');
    expect(system()).toContain('You help the household plan meals.');

    // a skill without a tool list leaves the tools as they are
    await ask(s.member, { message: 'Pack for me', skillId: 'builtin-packing-list' });
    expect(offered()).toEqual(all);
    expect(system()).toContain('You make packing lists.');

    expect((await ask(s.member, { message: 'hello', skillId: 'no-such-skill' })).status).toBe(404);
    expect((await ask(s.member, { message: 'hello', skillId: '' })).status).toBe(400);
  });

  it('deletes: a member their own, an admin the household’s', async () => {
    const c = await kim.post('/api/skills', { name: 'Kim’s', instructions: 'Be brief.' });
    expect((await kim.delete(`/api/skills/${c.body.skill.id}`)).body).toEqual({ deleted: true });
    expect((await kim.get(`/api/skills/${c.body.skill.id}`)).status).toBe(404);
    const h = await s.admin.post('/api/skills', { name: 'House rules', instructions: 'Remind of the house rules.', scope: 'household' });
    expect(h.status).toBe(201);
    expect((await kim.get(`/api/skills/${h.body.skill.id}`)).body.skill).toMatchObject({ scope: 'household', editable: false });
    expect((await s.admin.delete(`/api/skills/${h.body.skill.id}`)).body).toEqual({ deleted: true });
  });
});
