// The answer stream's rules against the Ollama fake, with stand-in chat tools registered through
// the container's overrides (each with an Extension of its own): exactly the enabled tools are
// offered, calls are checked, timed and capped at MAX_TOOL_ROUNDS, a model without tools gets
// grounded answers, stop (both ways) keeps the partial answer, each failure ends with an error
// event after saving what arrived, and the history is trimmed to the model's context window.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { SYSTEM_ACTOR } from '../../server/actor.js';
import { MAX_TOOL_ROUNDS } from '../../server/modules/chat/schema.js';
import { LEVEL_NOTES } from '../../server/modules/chat/stream-service.js';
import type { ChatTool } from '../../server/modules/chat/tool-registry.js';
import type { ToolDefinition } from '../../server/modules/tools/schema.js';
import { CHAT_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { ask, openAnswer } from '../harness/chat.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const extension = (id: string, name: string): ToolDefinition => ({
  id,
  name,
  description: `${name}, for chat.`,
  offline: true,
  examples: [],
  configSchema: { type: 'object', properties: {}, additionalProperties: false },
  dataSources: [],
  category: 'Reference',
  icon: '🔎',
});

const BEE = { type: 'archive' as const, title: 'Bee', url: '/read/fixturepedia/A/Bee', snippet: 'Bees make honey.' };
const HIVE = { type: 'archive' as const, title: 'Beehive', url: '/read/fixturepedia/A/Beehive', snippet: 'A hive houses a colony.' };
const seen: { grounded: string[]; signals: AbortSignal[] } = { grounded: [], signals: [] };

const tools: ChatTool[] = [
  {
    id: 'archive_lookup',
    description: 'Look something up in the offline archives (encyclopedia).',
    args: z.object({ query: z.string().min(1) }),
    timeoutMs: 2000,
    run: async ({ query }) => ({ content: `[Bee] Bees make honey. (${query})`, summary: `Looked up "${query}" in the archives: 2 articles`, sources: [BEE, HIVE, BEE] }),
    ground: async (question) => {
      seen.grounded.push(question);
      return { content: 'GROUNDED: Bees make honey.', summary: 'Looked it up', sources: [BEE] };
    },
  },
  {
    id: 'hanging_tool',
    description: 'Never answers.',
    args: z.object({}),
    timeoutMs: 150,
    run: (_args, ctx) => {
      seen.signals.push(ctx.signal);
      return new Promise(() => {});
    },
  },
  {
    id: 'broken_tool',
    description: 'Always fails.',
    args: z.object({}),
    timeoutMs: 2000,
    run: async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:9');
    },
  },
  {
    id: 'disabled_tool',
    description: 'Switched off in these tests.',
    args: z.object({}),
    timeoutMs: 2000,
    run: async () => ({ content: 'should never run', summary: 'ran', sources: [] }),
  },
];

let s: TestServer;
let fake: FakeModelRuntime;
const chatRequests = () => fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as FakeChatRequest);
const answers = () => chatRequests().filter((b) => b.format === undefined);
const offeredNames = (b: FakeChatRequest) => (b.tools ?? []).map((t) => t.function?.name);
const LONG = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');

async function lastAnswer(conversationId: string) {
  const conv = (await s.member.get(`/api/chat/conversations/${conversationId}`)).body.conversation;
  return conv.messages.at(-1);
}

describe('the chat answer stream', () => {
  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 1 });
    fake.models.push({ ...CHAT_MODEL, name: 'tiny:1b', contextLength: 400 });
    s = await startTestServer({
      seed: 'household',
      overrides: {
        modelRuntime: createOllamaClient({ baseUrl: fake.url }),
        chatTools: tools,
        extensions: tools.map((t) => extension(t.id, t.id.replace('_', ' '))),
        tuning: { chatFirstTokenMs: 400 },
      },
    });
    await s.handle.deps.tools.setEnabled(SYSTEM_ACTOR, 'disabled_tool', false);
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
  });
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.chatReply = null;
    fake.toolScript = null;
    fake.requests.length = 0;
    seen.grounded.length = 0;
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await s.handle.deps.settings.set('router_model', '');
  });

  it("the member's Chat level puts its instruction into the system prompt (issue 32): teen by default, child when set, none at adult", async () => {
    const system = () => String(answers().at(-1)!.messages[0]!.content);
    expect((await ask(s.member, { message: 'Tell me a story.' })).status).toBe(200);
    expect(system()).toContain(LEVEL_NOTES.teen);
    expect((await s.admin.put(`/api/admin/content/members/${s.users.member.id}`, { level: 'teen', chat: 'child' })).status).toBe(200);
    expect((await ask(s.member, { message: 'Tell me a scary story.' })).status).toBe(200);
    expect(system()).toContain(LEVEL_NOTES.child);
    expect(system()).not.toContain(LEVEL_NOTES.teen);
    expect((await ask(s.admin, { message: 'Tell me a story.' })).status).toBe(200);
    expect(system()).not.toContain(LEVEL_NOTES.child);
    expect(system()).not.toContain(LEVEL_NOTES.teen);
    await s.admin.put(`/api/admin/content/members/${s.users.member.id}`, { level: 'teen' });
  });

  describe('tools', () => {
    it('offers exactly the enabled, available Extensions, runs the call the question names, and answers with its sources', async () => {
      const a = await ask(s.member, { message: 'What does the encyclopedia say about bees?' });
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(a.names.filter((n) => n !== 'token')).toEqual(['conversation', 'tool', 'tool_result', 'sources', 'done']);
      expect(a.get('tool')).toEqual({ name: 'archive_lookup', args: { query: 'bees' } });
      expect(a.get('tool_result')).toEqual({ name: 'archive_lookup', summary: 'Looked up "bees" in the archives: 2 articles', sources: [BEE, HIVE, BEE], status: 'ok' });
      expect(a.get('sources')).toEqual({ sources: [BEE, HIVE] });
      const [first, second] = answers();
      // the real archive_search is not available here (no archive is installed), the disabled one is
      // off; the real reader_search, home_inventory and shopping_list work whenever chat does
      expect(offeredNames(first!).sort()).toEqual(['archive_lookup', 'broken_tool', 'hanging_tool', 'home_inventory', 'reader_search', 'shopping_list']);
      expect(first!.tools!.find((t) => t.function?.name === 'archive_lookup')).toMatchObject({ type: 'function', function: { name: 'archive_lookup', parameters: { type: 'object', properties: { query: { type: 'string' } } } } });
      expect(second!.messages.at(-1)).toEqual({ role: 'tool', tool_name: 'archive_lookup', content: '[Bee] Bees make honey. (bees)' });
      const msg = await lastAnswer(a.get('conversation').id);
      expect(msg.toolCalls).toEqual([{ name: 'archive_lookup', args: { query: 'bees' }, summary: 'Looked up "bees" in the archives: 2 articles', sources: [BEE, HIVE, BEE], status: 'ok' }]);
      expect(msg.sources).toEqual([BEE, HIVE]);
      expect(msg.content).toContain('Bees make honey');
    });

    it('a question about nothing in particular gets words, with tools offered and no sources event', async () => {
      const a = await ask(s.member, { message: 'How are you today?' });
      expect(a.names.filter((n) => n !== 'token')).toEqual(['conversation', 'done']);
      expect(offeredNames(answers()[0]!)).toContain('archive_lookup');
    });

    it('a disabled tool is never offered, and a call to it is refused and told to the model', async () => {
      fake.toolScript = (req) => (req.messages.at(-1)?.role === 'user' ? [{ function: { name: 'disabled_tool', arguments: {} } }] : null);
      const a = await ask(s.member, { message: 'Use the switched off tool' });
      expect(a.get('tool_result')).toMatchObject({ name: 'disabled_tool', status: 'refused', sources: [] });
      expect(a.get('tool_result').summary).toMatch(/not a tool chat may use/);
      for (const b of answers()) expect(offeredNames(b)).not.toContain('disabled_tool');
      expect(answers()[1]!.messages.at(-1)).toMatchObject({ role: 'tool', tool_name: 'disabled_tool', content: expect.stringContaining('no tool called disabled_tool') });
      expect(a.names.at(-1)).toBe('done');
      expect((await lastAnswer(a.get('conversation').id)).toolCalls[0].status).toBe('refused');
      // an unknown one the same
      fake.toolScript = (req) => (req.messages.at(-1)?.role === 'user' ? [{ function: { name: 'rm_rf', arguments: {} } }] : null);
      expect((await ask(s.member, { message: 'again' })).get('tool_result')).toMatchObject({ name: 'rm_rf', status: 'refused' });
    });

    it('arguments that do not fit the tool’s schema are refused, and the model is told why', async () => {
      fake.toolScript = (req) => (req.messages.at(-1)?.role === 'user' ? [{ function: { name: 'archive_lookup', arguments: { query: 5 } } }] : null);
      const a = await ask(s.member, { message: 'Look it up wrongly' });
      expect(a.get('tool_result')).toMatchObject({ name: 'archive_lookup', status: 'refused' });
      expect(answers()[1]!.messages.at(-1)!.content).toMatch(/arguments for archive_lookup were not valid \(query:/);
      expect(a.names.at(-1)).toBe('done');
    });

    it(`stops after ${MAX_TOOL_ROUNDS} tool rounds and asks for an answer in words without tools`, async () => {
      fake.toolScript = (req) => ((req.tools ?? []).length > 0 ? [{ function: { name: 'archive_lookup', arguments: { query: 'bees' } } }] : null);
      const a = await ask(s.member, { message: 'Keep looking things up' });
      expect(a.status).toBe(200);
      expect(a.names.filter((n) => n === 'tool')).toHaveLength(MAX_TOOL_ROUNDS);
      expect(a.names.filter((n) => n === 'tool_result')).toHaveLength(MAX_TOOL_ROUNDS);
      const rounds = answers();
      expect(rounds).toHaveLength(MAX_TOOL_ROUNDS + 1);
      expect(rounds.at(-1)!.tools).toBeUndefined();
      expect(rounds.at(-1)!.messages.at(-1)).toMatchObject({ role: 'system', content: expect.stringMatching(/Answer now, in words/) });
      expect(a.names.at(-1)).toBe('done');
      expect(a.get('sources')).toEqual({ sources: [BEE, HIVE] });
      expect((await lastAnswer(a.get('conversation').id)).toolCalls).toHaveLength(MAX_TOOL_ROUNDS);
    });

    it('a tool that runs out of time or fails goes back to the model as a tool message; the stream finishes', async () => {
      fake.toolScript = (req) =>
        req.messages.at(-1)?.role === 'user'
          ? [
              { function: { name: 'hanging_tool', arguments: {} } },
              { function: { name: 'broken_tool', arguments: {} } },
            ]
          : null;
      const a = await ask(s.member, { message: 'Try the bad tools' });
      const results = a.events.filter((e) => e.event === 'tool_result').map((e) => e.data);
      expect(results).toEqual([
        { name: 'hanging_tool', summary: 'hanging tool took too long to answer.', sources: [], status: 'error' },
        { name: 'broken_tool', summary: 'broken tool did not work this time.', sources: [], status: 'error' },
      ]);
      expect(seen.signals.at(-1)!.aborted).toBe(true);
      const told = answers()[1]!.messages.slice(-2);
      expect(told).toEqual([
        { role: 'tool', tool_name: 'hanging_tool', content: expect.stringMatching(/ran out of time/) },
        { role: 'tool', tool_name: 'broken_tool', content: expect.stringMatching(/failed/) },
      ]);
      expect(a.names.at(-1)).toBe('done');
      expect(JSON.stringify(a.events)).not.toMatch(/ECONNREFUSED/);
      expect(JSON.stringify(told)).not.toMatch(/ECONNREFUSED/);
    });

    it('a model without tools gets a grounded answer: the snippets in the system prompt, and their sources', async () => {
      const a = await ask(s.member, { message: 'Tell me about bees', model: VISION_MODEL.name });
      expect(a.status).toBe(200);
      expect(a.names.filter((n) => n !== 'token')).toEqual(['conversation', 'sources', 'done']);
      expect(a.get('sources')).toEqual({ sources: [BEE] });
      expect(seen.grounded).toEqual(['Tell me about bees']);
      const sent = answers()[0]!;
      expect(sent.tools).toBeUndefined();
      expect(sent.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('GROUNDED: Bees make honey.') });
      expect((await lastAnswer(a.get('conversation').id)).sources).toEqual([BEE]);
    });

    it('the title comes from the router model when one is chosen', async () => {
      await s.handle.deps.settings.set('router_model', VISION_MODEL.name);
      fake.chatReply = (req) => (req.format !== undefined ? JSON.stringify({ title: '"Bees and honey."' }) : 'Bees make honey.');
      const a = await ask(s.member, { message: 'How do bees make honey?' });
      expect(a.get('done').title).toBe('Bees and honey');
      expect(chatRequests().find((b) => b.format !== undefined)!.model).toBe(VISION_MODEL.name);
    });
  });

  describe('stop', () => {
    beforeEach(() => {
      fake.chatReply = LONG;
      fake.chunkDelayMs = 25;
      return () => {
        fake.chunkDelayMs = 1;
      };
    });

    it('POST /stop stops the model at the runtime; the partial answer is kept as stopped and the stream says done stopped', async () => {
      const live = await openAnswer(s.member, { message: 'Write me a long story' });
      expect(live.status).toBe(200);
      const id = (await live.waitFor((e) => e.event === 'conversation')).data.id as string;
      await live.waitFor((e) => e.event === 'token' && e.data.text.startsWith('word3'));
      const r = await s.member.post(`/api/chat/conversations/${id}/stop`);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ stopped: true });
      const done = await live.waitFor((e) => e.event === 'done');
      expect(done.data.status).toBe('stopped');
      await live.ended;
      const msg = await lastAnswer(id);
      expect(msg.status).toBe('stopped');
      expect(msg.content.startsWith('word0 word1 word2 word3')).toBe(true);
      expect(msg.content.length).toBeLessThan(LONG.length);
      await until(() => fake.requests.find((q) => q.path === '/api/chat')?.aborted === true, 'the fake to see the request closed', 5000);
      // nothing left to stop
      expect((await s.member.post(`/api/chat/conversations/${id}/stop`)).body).toEqual({ stopped: false });
    });

    it('while an answer is being written it reads as streaming, and a second question in the same conversation is refused', async () => {
      const live = await openAnswer(s.member, { message: 'Write me a third long story' });
      const id = (await live.waitFor((e) => e.event === 'conversation')).data.id as string;
      await live.waitFor((e) => e.event === 'token');
      expect((await lastAnswer(id)).status).toBe('streaming');
      const again = await ask(s.member, { conversationId: id, message: 'Hurry up' });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'answer_in_progress', message: expect.stringMatching(/still being written/) });
      expect((await s.member.post(`/api/chat/conversations/${id}/stop`)).body).toEqual({ stopped: true });
      await live.ended;
    });

    it('the client leaving stops the model at the runtime and keeps the partial answer as stopped', async () => {
      const live = await openAnswer(s.member, { message: 'Write me another long story' });
      const id = (await live.waitFor((e) => e.event === 'conversation')).data.id as string;
      await live.waitFor((e) => e.event === 'token' && e.data.text.startsWith('word3'));
      live.close();
      await until(() => fake.requests.find((q) => q.path === '/api/chat')?.aborted === true, 'the fake to see the request closed', 5000);
      const msg = await until(async () => {
        const m = await lastAnswer(id);
        return m.status === 'stopped' ? m : null;
      }, 'the answer to be saved as stopped', 5000);
      expect(msg.content.startsWith('word0 word1 word2 word3')).toBe(true);
      expect(msg.content.length).toBeLessThan(LONG.length);
    });
  });

  describe('failures end with an error event and keep what arrived', () => {
    const cases: Array<[string, () => Promise<void>, string, RegExp]> = [
      ['a cut stream', () => fake.setMode('cut', { only: '/api/chat' }), 'model_cut_off', /stopped in the middle/],
      ['an {error} line', () => fake.setMode('error-line', { only: '/api/chat' }), 'model_cut_off', /stopped in the middle/],
      ['a garbage line', () => fake.setMode('garbage-line', { only: '/api/chat' }), 'model_runtime_error', /could not read/],
      ['a slow first token', () => fake.setMode('slow-first-token', { slowMs: 3000, only: '/api/chat' }), 'model_slow', /too long to start/],
      ['an unknown model', () => s.handle.deps.settings.set('chat_model', 'ghost:1b'), 'model_not_found', /ghost:1b isn't installed/],
    ];
    for (const [what, arrange, code, sentence] of cases) {
      it(what, async () => {
        fake.chatReply = LONG;
        await arrange();
        const a = await ask(s.member, { message: 'Tell me a long story' });
        expect(a.status).toBe(200);
        expect(a.names[0]).toBe('conversation');
        expect(a.names).not.toContain('done');
        const error = a.events.at(-1)!;
        expect(error.event).toBe('error');
        expect(error.data.code).toBe(code);
        expect(error.data.message).toMatch(sentence);
        expect(error.data.message).not.toMatch(/ECONN|errno|undici|EOF|\d{3}/);
        const msg = await lastAnswer(a.get('conversation').id);
        expect(msg.status).toBe('error');
        expect(msg.error).toBe(error.data.message);
        const streamed = a.events.filter((e) => e.event === 'token').map((e) => e.data.text as string).join('');
        expect(msg.content).toBe(streamed);
        if (code === 'model_cut_off' || code === 'model_runtime_error') expect(streamed.length).toBeGreaterThan(0);
      });
    }
  });

  it('the history sent is trimmed to the model’s context window: newest first, never half a message, the system prompt kept', async () => {
    await s.handle.deps.settings.set('chat_model', 'tiny:1b');
    fake.chatReply = 'Noted. '.repeat(20).trim();
    let id: string | undefined;
    for (let i = 0; i < 6; i++) {
      const a = await ask(s.member, { ...(id ? { conversationId: id } : {}), message: `Question ${i}: ${'please remember this detail. '.repeat(8)}` });
      expect(a.status).toBe(200);
      id ??= a.get('conversation').id as string;
    }
    const stored = (await s.member.get(`/api/chat/conversations/${id}`)).body.conversation.messages as Array<{ role: string; content: string }>;
    const sent = answers().at(-1)!.messages;
    expect(sent[0]!.role).toBe('system');
    const history = sent.slice(1);
    expect(history.length).toBeGreaterThan(0);
    expect(history.length).toBeLessThan(stored.length - 1);
    // exactly the newest messages, whole
    const expected = stored.slice(0, -1).slice(-history.length).map((m) => ({ role: m.role, content: m.content }));
    expect(history.map((m) => ({ role: m.role, content: m.content }))).toEqual(expected);
    expect(history.at(-1)!.content).toMatch(/^Question 5:/);
  });
});
