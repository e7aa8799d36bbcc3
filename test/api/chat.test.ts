// /api/chat and /api/projects over HTTP against the Ollama fake: conversations and projects are
// private to their member (admins included: 404 both ways, and between members), a plain answer
// streams, titles, pictures, bad input, restart and a member's deletion.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { conversationSearchProvider } from '../../server/modules/chat/search-provider.js';
import { CANNED_REPLY, CHAT_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { ask } from '../harness/chat.js';
import { TestClient } from '../harness/client.js';
import { mintSession, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

// a 1x1 PNG
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let s: TestServer;
let fake: FakeModelRuntime;
let other: TestClient;

const titleReply = (title: string) => (req: FakeChatRequest) => (req.format !== undefined ? JSON.stringify({ title }) : CANNED_REPLY);

describe('chat conversations and projects', () => {
  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 1 });
    s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }) } });
    const created = await s.admin.post('/api/admin/users', { name: 'Robin', pin: '2468' });
    expect(created.status, created.text).toBe(201);
    other = new TestClient(s.url, await mintSession(s.handle, created.body.user.id as string));
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
  });
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.chatReply = null;
    fake.requests.length = 0;
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
  });

  it('streams a plain answer: conversation first, the words as tokens, done with the title; all of it kept', async () => {
    fake.chatReply = titleReply('Greeting the assistant');
    const a = await ask(s.member, { message: 'Hello there, who are you?' });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.names[0]).toBe('conversation');
    expect(a.names.at(-1)).toBe('done');
    const tokens = a.events.filter((e) => e.event === 'token').map((e) => e.data.text as string);
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join('')).toBe(CANNED_REPLY);
    const conv = a.get('conversation');
    expect(conv).toMatchObject({ model: CHAT_MODEL.name, title: 'Hello there, who are you?' });
    const done = a.get('done');
    expect(done).toMatchObject({ status: 'complete', title: 'Greeting the assistant' });
    expect(done.usage.outputTokens).toBeGreaterThan(0);

    const got = await s.member.get(`/api/chat/conversations/${conv.id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.conversation).toMatchObject({ id: conv.id, title: 'Greeting the assistant', model: CHAT_MODEL.name, pinned: false, projectId: null });
    const [q, answer] = got.body.conversation.messages;
    expect(q).toMatchObject({ id: conv.userMessageId, role: 'user', content: 'Hello there, who are you?', status: 'complete', model: null });
    expect(answer).toMatchObject({ id: done.messageId, role: 'assistant', content: CANNED_REPLY, status: 'complete', error: null, model: CHAT_MODEL.name, toolCalls: [], sources: [] });
    // the title came from the router model's answer in JSON
    const titleAsk = fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as FakeChatRequest).find((b) => b.format !== undefined);
    expect(titleAsk?.model).toBe(CHAT_MODEL.name);
  });

  it('a follow-up goes to the same conversation with the history; the title stays', async () => {
    const first = await ask(s.member, { message: 'What is a good name for a cat?' });
    const id = first.get('conversation').id as string;
    fake.requests.length = 0;
    const second = await ask(s.member, { conversationId: id, message: 'And for a dog?' });
    expect(second.status).toBe(200);
    expect(second.get('conversation').id).toBe(id);
    expect(second.get('done').title).toBe(first.get('done').title);
    const sent = fake.requests.find((r) => r.path === '/api/chat')!.body as FakeChatRequest;
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(sent.messages[3]!.content).toBe('And for a dog?');
    const conv = (await s.member.get(`/api/chat/conversations/${id}`)).body.conversation;
    expect(conv.messages).toHaveLength(4);
  });

  it('a title falls back to the first words of the question when the router model gives none', async () => {
    fake.chatReply = (req) => (req.format !== undefined ? 'Sure! Here is a title: "Cats"' : CANNED_REPLY);
    const a = await ask(s.member, { message: 'Tell me about the history of the common house cat in Europe please' });
    expect(a.get('done').title).toBe('Tell me about the history of');
  });

  it('lists own conversations only, pinned first then newest; filters by project; searches titles and text with a snippet', async () => {
    const c1 = (await ask(other, { message: 'Pancake recipe with blueberries' })).get('conversation').id as string;
    const c2 = (await ask(other, { message: 'Bicycle tyre pressure' })).get('conversation').id as string;
    const c3 = (await ask(other, { message: 'Plan a picnic' })).get('conversation').id as string;
    expect((await other.patch(`/api/chat/conversations/${c1}`, { pinned: true })).status).toBe(200);
    const list = await other.get('/api/chat/conversations');
    expect(list.status, list.text).toBe(200);
    expect(list.body.conversations.map((c: { id: string }) => c.id)).toEqual([c1, c3, c2]);
    // nobody else sees them
    for (const c of [s.member, s.admin]) {
      const theirs = (await c.get('/api/chat/conversations')).body.conversations.map((x: { id: string }) => x.id);
      expect(theirs).not.toContain(c1);
    }

    const project = (await other.post('/api/projects', { name: 'Cooking' })).body.project;
    expect((await other.patch(`/api/chat/conversations/${c2}`, { projectId: project.id })).body.conversation.projectId).toBe(project.id);
    expect((await other.get(`/api/chat/conversations?projectId=${project.id}`)).body.conversations.map((c: { id: string }) => c.id)).toEqual([c2]);
    expect((await other.get('/api/chat/conversations?projectId=none')).body.conversations.map((c: { id: string }) => c.id)).toEqual([c1, c3]);

    // search: a word of the title, and a word only in the answer's text
    const byTitle = (await other.get('/api/chat/conversations?q=blueberr')).body.conversations;
    expect(byTitle.map((c: { id: string }) => c.id)).toEqual([c1]);
    expect(byTitle[0].snippet).toMatch(/blueberries/i);
    const byText = (await other.get('/api/chat/conversations?q=help')).body.conversations;
    expect(byText.map((c: { id: string }) => c.id).sort()).toEqual([c1, c2, c3].sort());
    expect(byText[0].snippet).toContain('help');
    // another member's words never match
    expect((await s.member.get('/api/chat/conversations?q=blueberries')).body.conversations).toEqual([]);
    expect((await other.get('/api/chat/conversations?q=%22%20OR%20*')).status).toBe(200);
  });

  it('nobody else can read, rename, stop, delete or add to a conversation: admin→member, member→admin and member→member are all 404', async () => {
    const mine = (await ask(s.member, { message: 'My private question' })).get('conversation').id as string;
    const admins = (await ask(s.admin, { message: "The admin's private question" })).get('conversation').id as string;
    const cases: Array<[TestClient, string]> = [
      [s.admin, mine],
      [other, mine],
      [s.member, admins],
    ];
    for (const [who, id] of cases) {
      const tries = [
        await who.get(`/api/chat/conversations/${id}`),
        await who.patch(`/api/chat/conversations/${id}`, { title: 'Mine now' }),
        await who.post(`/api/chat/conversations/${id}/stop`),
        await who.delete(`/api/chat/conversations/${id}`),
      ];
      for (const r of tries) {
        expect(r.status, r.text).toBe(404);
        expect(r.body.error.code).toBe('not_found');
      }
      const streamed = await ask(who, { conversationId: id, message: 'Let me in' });
      expect(streamed.status).toBe(404);
      const regen = await ask(who, { conversationId: id, regenerate: true });
      expect(regen.status).toBe(404);
    }
    // untouched
    expect((await s.member.get(`/api/chat/conversations/${mine}`)).body.conversation.messages).toHaveLength(2);
    expect((await s.admin.get(`/api/chat/conversations/${admins}`)).body.conversation.title).not.toBe('Mine now');
  });

  it('projects: create, list with counts, rename, delete (conversations stay, outside any project); private both ways', async () => {
    const p = await s.member.post('/api/projects', { name: '  Garden  ' });
    expect(p.status, p.text).toBe(201);
    expect(p.body.project).toMatchObject({ name: 'Garden', conversationCount: 0 });
    const id = p.body.project.id as string;
    const c = (await ask(s.member, { message: 'When to plant tomatoes?', projectId: id })).get('conversation').id as string;
    expect((await s.member.get(`/api/chat/conversations/${c}`)).body.conversation.projectId).toBe(id);
    const listed = (await s.member.get('/api/projects')).body.projects.find((x: { id: string }) => x.id === id);
    expect(listed.conversationCount).toBe(1);
    expect((await s.member.patch(`/api/projects/${id}`, { name: 'Vegetable garden' })).body.project.name).toBe('Vegetable garden');

    for (const who of [s.admin, other]) {
      expect((await who.get('/api/projects')).body.projects.map((x: { id: string }) => x.id)).not.toContain(id);
      expect((await who.patch(`/api/projects/${id}`, { name: 'x' })).status).toBe(404);
      expect((await who.delete(`/api/projects/${id}`)).status).toBe(404);
      // nor put a conversation in it, nor start one in it
      const theirs = (await ask(who, { message: 'Hi' })).get('conversation').id as string;
      expect((await who.patch(`/api/chat/conversations/${theirs}`, { projectId: id })).status).toBe(404);
      expect((await ask(who, { message: 'Hi', projectId: id })).status).toBe(404);
    }
    const adminProject = (await s.admin.post('/api/projects', { name: 'Admin stuff' })).body.project.id as string;
    expect((await s.member.delete(`/api/projects/${adminProject}`)).status).toBe(404);

    expect((await s.member.delete(`/api/projects/${id}`)).status).toBe(204);
    expect((await s.member.get('/api/projects')).body.projects.map((x: { id: string }) => x.id)).not.toContain(id);
    const kept = await s.member.get(`/api/chat/conversations/${c}`);
    expect(kept.status).toBe(200);
    expect(kept.body.conversation.projectId).toBeNull();
  });

  it('rename, pin and delete a conversation', async () => {
    const id = (await ask(s.member, { message: 'Something to rename' })).get('conversation').id as string;
    const r = await s.member.patch(`/api/chat/conversations/${id}`, { title: '  Renamed  ', pinned: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.conversation).toMatchObject({ id, title: 'Renamed', pinned: true });
    expect((await s.member.delete(`/api/chat/conversations/${id}`)).status).toBe(204);
    expect((await s.member.get(`/api/chat/conversations/${id}`)).status).toBe(404);
    expect((await s.member.delete(`/api/chat/conversations/${id}`)).status).toBe(404);
  });

  it('regenerate answers the last question again, replacing the last answer', async () => {
    const first = await ask(s.member, { message: 'Give me a number' });
    const id = first.get('conversation').id as string;
    fake.chatReply = 'Seven.';
    const again = await ask(s.member, { conversationId: id, regenerate: true });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.get('conversation').userMessageId).toBe(first.get('conversation').userMessageId);
    const messages = (await s.member.get(`/api/chat/conversations/${id}`)).body.conversation.messages;
    expect(messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Give me a number'],
      ['assistant', 'Seven.'],
    ]);
  });

  it('bad input is a 4xx with a sentence, never a 500', async () => {
    const bad: Array<[Record<string, unknown>, number]> = [
      [{}, 400],
      [{ message: '' }, 400],
      [{ message: 'x'.repeat(8001) }, 400],
      [{ message: 'hi', extra: 1 }, 400],
      [{ regenerate: true }, 400],
      [{ conversationId: 'nope', message: 'hi' }, 404],
      [{ message: 'hi', images: ['not base64!'], model: VISION_MODEL.name }, 400],
      [{ message: 'hi', images: [Buffer.from('just some text, not a picture').toString('base64')], model: VISION_MODEL.name }, 400],
      // a picture for a chat model that cannot see goes to the vision model (test/api/vision.test.ts,
      // with the 422 model_cannot_see when none is installed)
      [{ message: 'hi', images: [PNG, PNG, PNG, PNG, PNG], model: VISION_MODEL.name }, 400],
    ];
    for (const [body, status] of bad) {
      const r = await ask(s.member, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(r.body.error.message.length).toBeGreaterThan(10);
      expect(r.body.error.message).not.toMatch(/ECONN|errno|undefined/);
    }
    const tooBig = await ask(s.member, { message: 'hi', model: VISION_MODEL.name, images: [Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(8 * 1024 * 1024)]).toString('base64')] });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toMatch(/larger than 8 MB/);
    expect((await s.member.get('/api/chat/conversations?limit=0')).status).toBe(400);
    expect((await s.member.patch('/api/chat/conversations/x', {})).status).toBe(400);
    expect((await s.member.post('/api/projects', { name: '' })).status).toBe(400);
    expect((await s.member.post('/api/projects', { name: 'x'.repeat(61) })).status).toBe(400);
    // a conversation someone else cannot see never tells them the model was refused
    expect((await s.anon.get('/api/chat/conversations')).status).toBe(401);
    expect((await s.anon.post('/api/chat/chat/stream', { message: 'hi' })).status).toBe(401);
  });

  it('a picture goes to a vision model and is served back to its member only, with its content type', async () => {
    const a = await ask(s.member, { message: 'What is in this picture?', images: [PNG], model: VISION_MODEL.name });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.get('conversation').model).toBe(VISION_MODEL.name);
    const sent = fake.requests.find((r) => r.path === '/api/chat')!.body as FakeChatRequest & { messages: Array<{ images?: string[] }> };
    expect(sent.messages.at(-1)!.images).toEqual([PNG]);
    const id = a.get('conversation').id as string;
    const [question] = (await s.member.get(`/api/chat/conversations/${id}`)).body.conversation.messages;
    expect(question.images).toHaveLength(1);
    const url = question.images[0].url as string;
    expect(url).toBe(`/api/chat/conversations/${id}/images/${question.images[0].id}`);
    const img = await s.member.get(url);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(String(img.headers['cache-control'])).toContain('private');
    expect((await s.admin.get(url)).status).toBe(404);
    expect((await s.member.get(`/api/chat/conversations/${id}/images/..%2F..%2Fhearth.db`)).status).toBe(404);
    // the file is under DATA_DIR/chat/<member>/<conversation>/; deleting the conversation removes it
    const dir = path.join(s.dataDir, 'chat', s.users.member.id, id);
    expect(readdirSync(dir)).toHaveLength(1);
    expect((await s.member.delete(`/api/chat/conversations/${id}`)).status).toBe(204);
    expect(existsSync(dir)).toBe(false);
  });

  it('the stream takes bodies past the 1 MB default: a 3 MB picture is accepted', async () => {
    const big = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(3 * 1024 * 1024)]).toString('base64');
    const a = await ask(s.member, { message: 'A big picture', images: [big], model: VISION_MODEL.name });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.names.at(-1)).toBe('done');
  });

  it('a runtime that is down is a 503 before the stream opens; no chat model chosen is a 409', async () => {
    await fake.setMode('down');
    const down = await ask(s.member, { message: 'Are you there?' });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('model_runtime_unavailable');
    expect(down.body.error.message).toMatch(/Ollama/);
    await fake.setMode('ok');
    await s.handle.deps.settings.set('chat_model', '');
    const none = await ask(s.member, { message: 'Are you there?' });
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('no_chat_model');
  });

  it("a member's model access holds in the answer stream: another model is 403 model_not_allowed before the stream opens", async () => {
    expect((await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: [VISION_MODEL.name] })).status).toBe(200);
    const before = (await s.member.get('/api/chat/conversations')).body.conversations.length as number;
    try {
      const refused = await ask(s.member, { message: 'Hello', model: CHAT_MODEL.name });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('model_not_allowed');
      expect(refused.body.error.message).toMatch(/ask an admin/i);
      // nothing was asked of the model, and no conversation was made
      expect(fake.requests.some((r) => r.path === '/api/chat')).toBe(false);
      expect((await s.member.get('/api/chat/conversations')).body.conversations).toHaveLength(before);
      // with no model named, the member's allowed model answers (the household's is not open to them)
      const allowed = await ask(s.member, { message: 'Hello again' });
      expect(allowed.status).toBe(200);
      expect(allowed.get('conversation').model).toBe(VISION_MODEL.name);
      // an admin may use every model
      expect((await ask(s.admin, { message: 'Hello', model: CHAT_MODEL.name })).status).toBe(200);
    } finally {
      await s.admin.put(`/api/models/access/${s.users.member.id}`, { allowed: null });
    }
  });

  it("deleting a member deletes their conversations, projects and pictures", async () => {
    const created = await s.admin.post('/api/admin/users', { name: 'Leaving', pin: '1357' });
    const userId = created.body.user.id as string;
    const leaving = new TestClient(s.url, await mintSession(s.handle, userId));
    await leaving.post('/api/projects', { name: 'Mine' });
    const id = (await ask(leaving, { message: 'A quokka picture', images: [PNG], model: VISION_MODEL.name })).get('conversation').id as string;
    const dir = path.join(s.dataDir, 'chat', userId);
    expect(existsSync(dir)).toBe(true);
    const indexed = "SELECT count(*) AS n FROM chat_message_fts WHERE chat_message_fts MATCH 'quokka'";
    expect((await s.handle.deps.db.raw(indexed)) as unknown).toEqual([{ n: 1 }]);
    expect((await s.admin.delete(`/api/admin/users/${userId}`)).status).toBe(200);
    const db = s.handle.deps.db;
    expect(await db('chat_conversations').where({ user_id: userId })).toEqual([]);
    expect(await db('chat_messages').where({ conversation_id: id })).toEqual([]);
    expect(await db('chat_projects').where({ user_id: userId })).toEqual([]);
    expect(await db('chat_message_images').where({ conversation_id: id })).toEqual([]);
    const { until } = await import('../harness/net.js');
    await until(() => !existsSync(dir), 'the member’s pictures to be removed', 5000);
    // the full-text index forgot them too
    expect((await db.raw(indexed)) as unknown).toEqual([{ n: 0 }]);
  });
});

describe('chat across a restart', () => {
  it('keeps every conversation, message and project', async () => {
    const temp = makeTempDir('hearth-chat-restart-');
    const fake2 = await startFakeModelRuntime({ chunkDelayMs: 0 });
    const runtime = createOllamaClient({ baseUrl: fake2.url });
    try {
      const first = await startTestServer({ seed: 'household', dataDir: temp.dir, overrides: { modelRuntime: runtime } });
      await first.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
      const project = (await first.member.post('/api/projects', { name: 'Trips' })).body.project.id as string;
      const ids: string[] = [];
      for (const m of ['Where to go in spring?', 'Packing list for a week']) ids.push((await ask(first.member, { message: m, projectId: project })).get('conversation').id as string);
      await ask(first.member, { conversationId: ids[0], message: 'And in autumn?' });
      const before = await Promise.all(ids.map(async (id) => (await first.member.get(`/api/chat/conversations/${id}`)).body.conversation));
      const memberId = first.users.member.id;
      await first.close();

      const again = await startTestServer({ dataDir: temp.dir, overrides: { modelRuntime: runtime } });
      try {
        const member = new TestClient(again.url, await mintSession(again.handle, memberId));
        const list = (await member.get('/api/chat/conversations')).body.conversations.map((c: { id: string }) => c.id);
        expect(list.sort()).toEqual([...ids].sort());
        for (const b of before) expect((await member.get(`/api/chat/conversations/${b.id}`)).body.conversation).toEqual(b);
        expect((await member.get('/api/projects')).body.projects).toMatchObject([{ id: project, conversationCount: 2 }]);
        expect((await member.get('/api/chat/conversations?q=autumn')).body.conversations.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
      } finally {
        await again.close();
      }
    } finally {
      await fake2.close();
      temp.remove();
    }
  });
});

describe('the conversation search provider', () => {
  it('finds the caller’s own conversations by title and message text, never another member’s, with the web app URL', async () => {
    const fake3 = await startFakeModelRuntime({ chunkDelayMs: 0 });
    const srv = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake3.url }) } });
    try {
      await srv.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
      fake3.chatReply = (req) => (req.format !== undefined ? JSON.stringify({ title: 'Sourdough starter care' }) : 'Feed the starter with flour and water every day.');
      const mine = (await ask(srv.member, { message: 'How do I keep bread yeast alive?' })).get('conversation').id as string;
      fake3.chatReply = 'Feed the starter daily.';
      await ask(srv.admin, { message: 'My own starter question' });
      const provider = conversationSearchProvider(srv.handle.deps.chat);
      const { auth } = srv.handle.deps;
      const actor = async (id: string) => {
        const u = (await auth.getUser(id))!;
        return { kind: 'user' as const, id: u.id, name: u.name, role: u.role, sessionId: 'test' };
      };
      const ctx = async (id: string) => ({ actor: await actor(id), limit: 5, signal: new AbortController().signal });
      const byTitle = await provider.search('sourdough', await ctx(srv.users.member.id));
      expect(byTitle).toEqual([{ type: 'conversation', id: mine, title: 'Sourdough starter care', snippet: expect.stringContaining('Sourdough'), url: `/chat/${mine}` }]);
      const byText = await provider.search('flour', await ctx(srv.users.member.id));
      expect(byText.map((r) => r.id)).toEqual([mine]);
      expect(byText[0]!.snippet).toContain('flour');
      // the admin's own conversation is theirs alone, and the member's is not the admin's
      const adminHits = await provider.search('starter', await ctx(srv.users.admin.id));
      expect(adminHits.map((r) => r.id)).not.toContain(mine);
      expect(adminHits).toHaveLength(1);
      expect(await provider.search('"; DROP TABLE', await ctx(srv.users.member.id))).toEqual([]);
      expect(provider.type).toBe('conversation');
    } finally {
      await srv.close();
      await fake3.close();
    }
  });
});
