// Ask the manual (POST /api/home/devices/:id/ask) against the Ollama fake: the prompt holds only the
// device, its specs and the manual paragraphs matching the question; the answer streams; refusals
// before the stream; a failure mid-answer is a sentence; leaving stops the model.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { HomeInventoryStore } from '../../server/modules/home-inventory/store.js';
import { CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { parseSse } from '../harness/chat.js';
import { insertDevice } from '../fixtures/inventory/devices.js';
import { until } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const filler = Array.from({ length: 80 }, (_, i) => `Section ${i}. Read all safety instructions before using the coffee machine, part ${i}.`.repeat(2));
const DESCALE = 'Descaling: descale the machine every 3 months with the descaling solution. Run the descale programme twice.';
const MANUAL = [...filler, DESCALE, 'Error E04: the water tank is empty.'].join('\n\n');

describe('Ask the manual', () => {
  let fake: FakeModelRuntime;
  let s: TestServer;
  let store: HomeInventoryStore;
  const ask = async (id: string, body: unknown) => {
    const r = await s.member.post(`/api/home/devices/${id}/ask`, body);
    const isStream = String(r.headers['content-type'] ?? '').includes('text/event-stream');
    return { status: r.status, body: r.body, events: isStream ? parseSse(r.text) : [] };
  };
  const lastChat = () => fake.requests.filter((r) => r.path === '/api/chat').at(-1)?.body as FakeChatRequest;

  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
    s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }) } });
    store = new HomeInventoryStore(s.handle.deps.db);
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.models = [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL];
    fake.chatReply = null;
    fake.chunkDelayMs = 0;
    fake.requests.length = 0;
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
  });

  it('streams an answer from the device, its specs and the manual paragraphs that match, and says which', async () => {
    const other = await insertDevice(store, { name: 'Secret safe', brand: 'Lockwell', notes: 'code 1234' });
    const d = await insertDevice(store, { name: 'Coffee machine', brand: 'Brewtide', model: 'CM-4200', specs: { 'Tank size': '1.8 l' }, manualText: MANUAL });
    fake.chatReply = 'Descale it every 3 months.';
    const r = await ask(d.id, { question: 'How often should I descale it?' });
    expect(r.status).toBe(200);
    expect(r.events.map((e) => e.event)).toEqual(['sources', 'token', 'token', 'token', 'token', 'token', 'done']);
    expect(r.events[0]!.data).toEqual({ manualParagraphs: 1, manualCovered: true });
    expect(r.events.filter((e) => e.event === 'token').map((e) => e.data.text).join('')).toBe('Descale it every 3 months.');
    expect(r.events.at(-1)!.data).toEqual({ status: 'complete' });
    const system = lastChat().messages[0]!.content!;
    expect(system).toContain(DESCALE);
    expect(system).not.toContain('Section 0.');
    expect(system).toContain('Model: CM-4200');
    expect(system).toContain('- Tank size: 1.8 l');
    expect(system).toMatch(/only the device facts and the manual extract/);
    expect(system).toContain('The manual does not cover that.');
    expect(system).not.toContain(other.name);
    expect(lastChat().messages[1]).toEqual({ role: 'user', content: 'How often should I descale it?' });
    expect(lastChat().model).toBe(CHAT_MODEL.name);
  });

  it('says when nothing in the manual matches, and when there is no manual', async () => {
    const d = await insertDevice(store, { manualText: MANUAL });
    const r = await ask(d.id, { question: 'Can it make tea?' });
    expect(r.events[0]!.data).toEqual({ manualParagraphs: expect.any(Number), manualCovered: false });
    const bare = await insertDevice(store, { manualText: null });
    const none = await ask(bare.id, { question: 'How do I descale it?' });
    expect(none.events[0]!.data).toEqual({ manualParagraphs: 0, manualCovered: false });
    expect(lastChat().messages[0]!.content).toContain('There is no manual for this device yet.');
  });

  it('refuses before the stream: no device 404, bad question 400, runtime down 503, no chat model 409, no sign-in 401', async () => {
    const d = await insertDevice(store, { manualText: MANUAL });
    expect((await ask('nope', { question: 'Hi there' })).status).toBe(404);
    expect((await ask(d.id, { question: '' })).body.error.message).toMatch(/Ask a question/);
    expect((await ask(d.id, { question: 'x'.repeat(1001) })).status).toBe(400);
    expect((await ask(d.id, {})).status).toBe(400);
    await s.handle.deps.settings.set('chat_model', '');
    expect((await ask(d.id, { question: 'How do I descale?' })).body.error.code).toBe('no_chat_model');
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await fake.setMode('down');
    const down = await ask(d.id, { question: 'How do I descale?' });
    expect(down.status).toBe(503);
    expect(down.body.error).toMatchObject({ code: 'model_runtime_unavailable', message: expect.stringMatching(/Start Ollama/) });
    expect((await s.anon.post(`/api/home/devices/${d.id}/ask`, { question: 'Hi there' })).status).toBe(401);
  });

  it('a model that stops mid-answer ends the stream with a sentence', async () => {
    const d = await insertDevice(store, { manualText: MANUAL });
    fake.chatReply = 'one two three four five six seven eight';
    await fake.setMode('cut', { only: '/api/chat' });
    const r = await ask(d.id, { question: 'How do I descale?' });
    expect(r.status).toBe(200);
    const error = r.events.find((e) => e.event === 'error')!;
    expect(error.data).toEqual({ code: 'model_cut_off', message: 'The AI model stopped in the middle of its answer. Try again.' });
    expect(r.events.some((e) => e.event === 'done')).toBe(false);
  });

  it('stops the model when the member leaves', async () => {
    const d = await insertDevice(store, { manualText: MANUAL });
    fake.chatReply = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    fake.chunkDelayMs = 25;
    const live = await connectSse(s.member.baseUrl, `/api/home/devices/${d.id}/ask`, { cookie: s.member.cookie!, origin: s.member.baseUrl }, { body: { question: 'How do I descale?' } });
    expect(live.status).toBe(200);
    await live.waitFor((e) => e.event === 'token' && String(e.data.text).startsWith('word2'));
    live.close();
    await until(() => fake.requests.find((q) => q.path === '/api/chat')?.aborted === true, 'the fake to see the request closed', 5000);
  });
});
