// Issue 32, the optional `remember` chat tool: while the household has memory on, a model that can
// call tools keeps a fact the member asked it to remember in words the plain-text rule does not
// catch ("Don't forget that ..."), as one of their own memories; it is in their next answer's system
// prompt. Its Extension is unavailable, and the tool not offered, while memory is off; a question the
// rule already kept does not offer it (no second copy). Called directly: a fact kept before, a full
// list and memory off are each told to the model in a sentence. Against the Ollama fake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import type { UserActor } from '../../server/actor.js';
import { toolSpec } from '../../server/modules/chat/tool-registry.js';
import { createRememberTool, RememberArgs } from '../../server/modules/memory/chat-tool.js';
import { MAX_MEMORIES } from '../../server/modules/memory/schema.js';
import { MemoryStore } from '../../server/modules/memory/store.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { ask } from '../harness/chat.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('the remember chat tool', () => {
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
  const answers = () => fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as FakeChatRequest).filter((b) => b.format === undefined);
  const offeredLast = () => (answers().at(-1)!.tools ?? []).map((t) => t.function?.name);
  const mine = async () => ((await s.member.get('/api/chat/memory')).body.memories as Array<{ text: string }>).map((m) => m.text);
  const extension = async () => ((await s.member.get('/api/tools')).body.tools as Array<{ id: string; available: boolean; unavailableReason: string | null; offline: boolean }>).find((t) => t.id === 'remember')!;
  const sam = (): UserActor => ({ kind: 'user', id: s.users.member.id, name: 'Sam', role: 'member', sessionId: 't' });
  const tool = () => createRememberTool({ memory: s.handle.deps.memory });

  it('is registered like the other chat tools, with its Extension, and takes one fact', () => {
    expect(s.handle.deps.chatTools.all().map((t) => t.id)).toContain('remember');
    expect(Object.keys(toolSpec(tool()).function.parameters.properties as object)).toEqual(['fact']);
    expect(RememberArgs.safeParse({ fact: 'x'.repeat(301) }).success).toBe(false);
    expect(RememberArgs.safeParse({ fact: '  ' }).success).toBe(false);
  });

  it('memory off: its Extension says why it is unavailable, the tool is not offered and nothing is kept', async () => {
    const ext = await extension();
    expect(ext).toMatchObject({ offline: true, available: false, unavailableReason: 'Chat memory is off in this household.' });
    const r = await ask(s.member, { message: "Don't forget that we are vegetarian." });
    expect(r.status).toBe(200);
    expect(offeredLast()).not.toContain('remember');
    expect(r.names).not.toContain('tool');
    expect(await mine()).toEqual([]);
    expect((await tool().run({ fact: 'we are vegetarian' }, { actor: sam(), signal: new AbortController().signal })).summary).toBe('Could not remember “we are vegetarian”: memory is off');
    expect(await mine()).toEqual([]);
  });

  it('memory on: the model keeps what the member asked, and it is in their next answer', async () => {
    expect((await s.admin.put('/api/admin/memory', { enabled: true })).status).toBe(200);
    expect((await extension()).available).toBe(true);
    const r = await ask(s.member, { message: "Don't forget that we are vegetarian." });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.get('tool')).toEqual({ name: 'remember', args: { fact: 'we are vegetarian' } });
    expect(r.get('tool_result')).toMatchObject({ name: 'remember', status: 'ok', summary: 'Remembered “we are vegetarian”', sources: [] });
    expect(await mine()).toEqual(['we are vegetarian']);
    // the model was told it is kept, and says so
    expect(r.events.filter((e) => e.event === 'token').map((e) => (e.data as { text: string }).text).join('')).toContain('Remembered: "we are vegetarian"');
    await ask(s.member, { message: 'What should I cook tonight?' });
    expect(String(answers().at(-1)!.messages[0]!.content)).toContain('- we are vegetarian');
    // the admin's memories stay their own
    expect((await s.admin.get('/api/chat/memory')).body.memories).toEqual([]);
  });

  it('a question the plain-text rule kept does not offer the tool: the fact is kept once', async () => {
    const r = await ask(s.member, { message: 'Remember that Sam is allergic to peanuts.' });
    expect(r.status).toBe(200);
    expect(offeredLast()).not.toContain('remember');
    expect(r.names).not.toContain('tool');
    expect(await mine()).toEqual(['we are vegetarian', 'Sam is allergic to peanuts']);
    // another question offers it again
    await ask(s.member, { message: 'What is for lunch?' });
    expect(offeredLast()).toContain('remember');
  });

  it('called directly: a fact kept before, and a full list, are told in a sentence and keep nothing new', async () => {
    const ctx = { actor: sam(), signal: new AbortController().signal };
    const again = await tool().run({ fact: 'We are vegetarian.' }, ctx);
    expect(again.summary).toBe('Already remembered “We are vegetarian.”');
    expect(await mine()).toHaveLength(2);
    const store = new MemoryStore(s.handle.deps.db);
    for (let i = (await mine()).length; i < MAX_MEMORIES; i++) await store.insert(s.users.member.id, { id: crypto.randomUUID(), text: `fact ${i}`, createdAt: new Date().toISOString() });
    const full = await tool().run({ fact: 'The cat is called Biscuit' }, ctx);
    expect(full.summary).toBe(`Could not remember “The cat is called Biscuit”: ${MAX_MEMORIES} memories are kept already`);
    expect(full.content).toContain('remove one');
    expect(await mine()).toHaveLength(MAX_MEMORIES);
    expect(await mine()).not.toContain('The cat is called Biscuit');
  });
});
