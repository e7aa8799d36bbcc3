// summarize and ask through the real Ollama adapter against the Ollama fake: the prompt that goes
// out, the strict parsing of what comes back, and each runtime failure as the error the API sends.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { ask, NOT_IN_ARTICLE, summarize } from '../../server/modules/reader/ai-service.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';

const ARTICLE = 'The city council voted on Tuesday to build a new library downtown. Construction starts in March and costs 12 million euros.';

async function errorOf(p: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { status: number; code: string; message: string };
  }
  throw new Error('expected an error');
}

describe('Reader AI against the Ollama fake', () => {
  let fake: FakeModelRuntime;
  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 1 });
  });
  afterAll(() => fake.close());
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.requests.length = 0;
    fake.chatReply = null;
  });
  const opts = (timeoutMs = 2000) => ({ runtime: createOllamaClient({ baseUrl: fake.url }), model: CHAT_MODEL.name, timeoutMs });
  const sent = () => fake.requests.find((r) => r.path === '/api/chat')!.body as FakeChatRequest & { format: { required: string[] } };

  it('summarize sends the article with a JSON schema and returns the cleaned summary and tags', async () => {
    fake.chatReply = JSON.stringify({ summary: ' The council approved a new downtown library, starting in March. ', tags: ['Library', 'city council', 'library', 'budget', 'construction', 'local news', 'extra'] });
    const r = await summarize(ARTICLE, { ...opts(), title: 'New library' });
    expect(r).toEqual({ summary: 'The council approved a new downtown library, starting in March.', tags: ['library', 'city council', 'budget', 'construction', 'local news'] });
    const req = sent();
    expect(req.model).toBe(CHAT_MODEL.name);
    expect(req.format.required).toEqual(['summary', 'tags']);
    expect(req.options).toEqual({ temperature: 0.2, num_ctx: 8192 });
    expect(req.messages[0]!.role).toBe('system');
    expect(req.messages[0]!.content).toMatch(/1 to 3/);
    expect(req.messages[1]!.content).toContain('Title: New library');
    expect(req.messages[1]!.content).toContain(`<article>\n${ARTICLE}\n</article>`);
  });

  it('summarize sends at most the budget of a very long article', async () => {
    fake.chatReply = '{"summary":"Long.","tags":[]}';
    await summarize(`BEGIN ${'filler text '.repeat(20_000)} FINAL`, opts());
    const content = sent().messages[1]!.content!;
    expect(content.length).toBeLessThan(12_100);
    expect(content).toContain('BEGIN filler');
    expect(content).toContain('filler text FINAL');
  });

  it('summarize: a reply that is not the asked JSON is 502 bad_model_output', async () => {
    fake.chatReply = 'Sure! The article is about a library.';
    expect(await errorOf(summarize(ARTICLE, opts()))).toMatchObject({ status: 502, code: 'bad_model_output' });
    fake.chatReply = '{"summary": 42}';
    expect(await errorOf(summarize(ARTICLE, opts()))).toMatchObject({ status: 502, code: 'bad_model_output' });
  });

  it('ask sends the question after the article with the answer-only-from-the-article rule', async () => {
    fake.chatReply = (req) => (String(req.messages.at(-1)!.content).includes('How much') ? ' 12 million euros. ' : NOT_IN_ARTICLE);
    expect(await ask(ARTICLE, 'How much does it cost?', opts())).toEqual({ answer: '12 million euros.' });
    const req = sent();
    expect(req.format).toBeUndefined();
    expect(req.messages[0]!.content).toContain(`reply exactly: ${NOT_IN_ARTICLE}`);
    expect(req.messages[1]!.content).toMatch(/<\/article>\n\nQuestion: How much does it cost\?$/);
    expect(await ask(ARTICLE, 'Who is the mayor?', opts())).toEqual({ answer: NOT_IN_ARTICLE });
  });

  it('ask refuses an empty or too long question and an empty answer', async () => {
    expect(await errorOf(ask(ARTICLE, '   ', opts()))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await errorOf(ask(ARTICLE, 'x'.repeat(2001), opts()))).toMatchObject({ status: 400 });
    fake.chatReply = '  ';
    expect(await errorOf(ask(ARTICLE, 'Why?', opts()))).toMatchObject({ status: 502, code: 'bad_model_output' });
  });

  it('runtime down is 503 model_runtime_unavailable', async () => {
    await fake.setMode('down');
    const err = await errorOf(summarize(ARTICLE, opts()));
    expect(err).toMatchObject({ status: 503, code: 'model_runtime_unavailable' });
    expect(err.message).toMatch(/AI model isn't running/);
    expect(await errorOf(ask(ARTICLE, 'Why?', opts()))).toMatchObject({ status: 503, code: 'model_runtime_unavailable' });
  });

  it('a model the runtime does not have is 503 naming it', async () => {
    const err = await errorOf(summarize(ARTICLE, { ...opts(), model: 'ghost:1b' }));
    expect(err).toMatchObject({ status: 503, code: 'model_not_found' });
    expect(err.message).toMatch(/ghost:1b isn't installed/);
  });

  it('a cut stream, garbage from the runtime, an error line are 502; a stall is 504', async () => {
    for (const [mode, code] of [['cut', 'model_cut_off'], ['garbage', 'model_runtime_error'], ['error-line', 'model_cut_off']] as const) {
      await fake.setMode(mode);
      expect(await errorOf(summarize(ARTICLE, opts())), mode).toMatchObject({ status: 502, code });
    }
    await fake.setMode('slow', { slowMs: 600 });
    expect(await errorOf(ask(ARTICLE, 'Why?', opts(200)))).toMatchObject({ status: 504, code: 'model_timeout' });
  });
});
