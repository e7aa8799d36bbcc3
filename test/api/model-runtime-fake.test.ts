// The Ollama fake must behave like Ollama (reference/ollama.md) for adapter tests to mean anything:
// shapes, NDJSON streaming with a final done line, tool calls, pull progress, error bodies, and
// each failure mode.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetch } from 'undici';
import { waitFor } from '../harness/net.js';
import { CHAT_MODEL, EMBEDDING_MODEL, PULLABLE_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeModelRuntime } from '../fakes/model-runtime.js';

interface Streamed {
  status: number;
  contentType: string | null;
  lines: any[];
  chunks: number;
  firstByteMs: number;
  error?: string;
}

describe('the Ollama fake', () => {
  let fake: FakeModelRuntime;
  beforeAll(async () => {
    fake = await startFakeModelRuntime();
  });
  afterAll(() => fake.close());
  beforeEach(async () => {
    await fake.setMode('ok');
  });

  async function call(method: string, path: string, body?: unknown): Promise<Streamed> {
    const started = Date.now();
    const res = await fetch(`${fake.url}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const firstByteMs = Date.now() - started;
    const out: Streamed = { status: res.status, contentType: res.headers.get('content-type'), lines: [], chunks: 0, firstByteMs };
    let text = '';
    try {
      const decoder = new TextDecoder();
      for await (const chunk of res.body ?? []) {
        out.chunks++;
        text += decoder.decode(chunk as Uint8Array, { stream: true });
      }
    } catch (err) {
      out.error = (err as Error).message;
    }
    for (const line of text.split('\n').filter(Boolean)) {
      try {
        out.lines.push(JSON.parse(line));
      } catch {
        out.lines.push(line);
      }
    }
    return out;
  }

  it('answers version, tags with the three canned models, and ps', async () => {
    expect((await call('GET', '/api/version')).lines[0]).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    const tags = (await call('GET', '/api/tags')).lines[0];
    expect(tags.models.map((m: { name: string }) => m.name)).toEqual([CHAT_MODEL.name, VISION_MODEL.name, EMBEDDING_MODEL.name]);
    for (const m of tags.models) {
      expect(m).toMatchObject({ name: expect.any(String), model: expect.any(String), modified_at: expect.any(String), size: expect.any(Number), digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(m.details).toMatchObject({ family: expect.any(String), parameter_size: expect.any(String), quantization_level: expect.any(String) });
    }
    expect((await call('GET', '/api/ps')).lines[0]).toEqual({ models: expect.any(Array) });
  });

  it('shows capabilities, and 404s an unknown model the way Ollama does', async () => {
    const chat = (await call('POST', '/api/show', { model: CHAT_MODEL.name })).lines[0];
    expect(chat.capabilities).toEqual(expect.arrayContaining(['completion', 'tools']));
    expect((await call('POST', '/api/show', { model: VISION_MODEL.name })).lines[0].capabilities).toContain('vision');
    expect((await call('POST', '/api/show', { model: 'nomic-embed-text' })).lines[0].capabilities).toEqual(['embedding']); // bare name = :latest
    const missing = await call('POST', '/api/show', { model: 'nope:1b' });
    expect(missing.status).toBe(404);
    expect(missing.lines[0]).toEqual({ error: "model 'nope:1b' not found" });
  });

  it('streams chat as NDJSON deltas, then a done line with durations', async () => {
    const r = await call('POST', '/api/chat', { model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'Hi' }] });
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/x-ndjson');
    expect(r.chunks).toBeGreaterThan(2); // really streamed, not one write
    const last = r.lines.at(-1);
    expect(last).toMatchObject({ model: CHAT_MODEL.name, done: true, done_reason: 'stop', total_duration: expect.any(Number), eval_count: expect.any(Number), prompt_eval_count: expect.any(Number) });
    const deltas = r.lines.slice(0, -1);
    expect(deltas.every((l) => l.done === false && l.message.role === 'assistant')).toBe(true);
    expect(deltas.map((l) => l.message.content).join('')).toMatch(/\w+/);
    // Ollama answers the chat only after loading the model: ps shows it
    const ps = (await call('GET', '/api/ps')).lines[0];
    expect(ps.models.map((m: { name: string }) => m.name)).toContain(CHAT_MODEL.name);
    expect(ps.models[0]).toMatchObject({ expires_at: expect.any(String), size_vram: expect.any(Number) });
  });

  it('answers one object with stream: false', async () => {
    const r = await call('POST', '/api/chat', { model: CHAT_MODEL.name, stream: false, messages: [{ role: 'user', content: 'Hi' }] });
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatchObject({ done: true, message: { role: 'assistant', content: expect.stringMatching(/\w/) } });
  });

  it('calls a tool when given tools, then answers from the tool result', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } } }];
    const first = await call('POST', '/api/chat', { model: CHAT_MODEL.name, stream: false, tools, messages: [{ role: 'user', content: 'Weather?' }] });
    expect(first.lines[0].message.tool_calls).toEqual([{ function: { name: 'get_weather', arguments: { city: 'example', days: 1 } } }]);
    const second = await call('POST', '/api/chat', {
      model: CHAT_MODEL.name,
      stream: false,
      tools,
      messages: [{ role: 'user', content: 'Weather?' }, first.lines[0].message, { role: 'tool', content: 'Sunny, 21 C', tool_name: 'get_weather' }],
    });
    expect(second.lines[0].message.content).toContain('Sunny, 21 C');
  });

  it('calls a tool only when the question names its subject, the first one named', async () => {
    const tools = [
      { type: 'function', function: { name: 'archive_search', description: 'Search the offline archives', parameters: { type: 'object', properties: { query: { type: 'string' } } } } },
      { type: 'function', function: { name: 'reader_search', description: 'Search saved pages', parameters: { type: 'object', properties: { query: { type: 'string' } } } } },
    ];
    const ask = async (content: string) => (await call('POST', '/api/chat', { model: CHAT_MODEL.name, stream: false, tools, messages: [{ role: 'user', content }] })).lines[0].message;
    expect((await ask('How are you today?')).tool_calls).toBeUndefined();
    expect((await ask('What does the encyclopedia say about bees?')).tool_calls[0].function.name).toBe('archive_search');
    expect((await ask('Search the archives for bees')).tool_calls[0].function.name).toBe('archive_search');
    expect((await ask('Find the recipe I saved last week')).tool_calls[0].function.name).toBe('reader_search');
    // a model without the tools capability answers in words whatever it is asked
    const vision = await call('POST', '/api/chat', { model: VISION_MODEL.name, stream: false, tools, messages: [{ role: 'user', content: 'What does the encyclopedia say?' }] });
    expect(vision.lines[0].message.tool_calls).toBeUndefined();
  });

  it('makes the tool calls a test scripts: again and again, to a tool it was not offered, with arguments that do not fit', async () => {
    fake.toolScript = (req) => (req.messages.at(-1)?.role === 'user' ? [{ function: { name: 'not_offered', arguments: { nonsense: true } } }] : null);
    try {
      const r = await call('POST', '/api/chat', { model: CHAT_MODEL.name, stream: false, messages: [{ role: 'user', content: 'Hi' }] });
      expect(r.lines[0].message.tool_calls).toEqual([{ function: { name: 'not_offered', arguments: { nonsense: true } } }]);
      const after = await call('POST', '/api/chat', { model: CHAT_MODEL.name, stream: false, messages: [{ role: 'user', content: 'Hi' }, { role: 'tool', content: 'no' }] });
      expect(after.lines[0].message.content).toContain('no');
    } finally {
      fake.toolScript = null;
    }
  });

  it('refuses images for a model without vision, and chat for an embedding model', async () => {
    const img = await call('POST', '/api/chat', { model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'What is this?', images: ['iVBORw0KGgo='] }] });
    expect(img.status).toBe(400);
    expect(img.lines[0].error).toEqual(expect.any(String));
    const vision = await call('POST', '/api/chat', { model: VISION_MODEL.name, stream: false, messages: [{ role: 'user', content: 'What is this?', images: ['iVBORw0KGgo='] }] });
    expect(vision.status).toBe(200);
    const embedChat = await call('POST', '/api/chat', { model: EMBEDDING_MODEL.name, messages: [{ role: 'user', content: 'Hi' }] });
    expect(embedChat.status).toBe(400);
    expect((await call('POST', '/api/chat', { model: 'ghost:1b', messages: [] })).status).toBe(404);
  });

  it('answers JSON when a format is asked for', async () => {
    const r = await call('POST', '/api/chat', { model: CHAT_MODEL.name, format: 'json', messages: [{ role: 'user', content: 'Hi' }] });
    const content = r.lines.slice(0, -1).map((l) => l.message.content).join('');
    expect(JSON.parse(content)).toEqual({ answer: expect.any(String) });
  });

  it('streams generate as {response, done} lines', async () => {
    const r = await call('POST', '/api/generate', { model: CHAT_MODEL.name, prompt: 'Say hi' });
    expect(r.lines.at(-1)).toMatchObject({ done: true, response: '' });
    expect(r.lines.slice(0, -1).map((l) => l.response).join('')).toMatch(/\w/);
  });

  it('embeds one or many inputs', async () => {
    const one = (await call('POST', '/api/embed', { model: EMBEDDING_MODEL.name, input: 'hello' })).lines[0];
    expect(one.embeddings).toHaveLength(1);
    expect(one.embeddings[0]).toHaveLength(768);
    const many = (await call('POST', '/api/embed', { model: EMBEDDING_MODEL.name, input: ['a', 'b'] })).lines[0];
    expect(many.embeddings).toHaveLength(2);
    expect(many.embeddings[0]).not.toEqual(many.embeddings[1]);
    expect((await call('POST', '/api/embed', { model: EMBEDDING_MODEL.name, input: 'hello' })).lines[0].embeddings).toEqual(one.embeddings);
  });

  it('pulls with per-layer total/completed progress, then success, and the model is installed', async () => {
    const r = await call('POST', '/api/pull', { model: PULLABLE_MODEL.name });
    const statuses = r.lines.map((l) => l.status);
    expect(statuses[0]).toBe('pulling manifest');
    expect(statuses.slice(-3)).toEqual(['verifying sha256 digest', 'writing manifest', 'success']);
    for (const layer of PULLABLE_MODEL.layers) {
      const progress = r.lines.filter((l) => l.digest === layer.digest);
      expect(progress.length).toBeGreaterThan(1);
      expect(progress.every((l) => l.total === layer.total)).toBe(true);
      const completed = progress.map((l) => l.completed);
      expect(completed).toEqual([...completed].sort((a, b) => a - b));
      expect(completed.at(-1)).toBe(layer.total);
    }
    const tags = (await call('GET', '/api/tags')).lines[0];
    expect(tags.models.map((m: { name: string }) => m.name)).toContain(PULLABLE_MODEL.name);
  });

  it('answers an {error} line for a model the registry does not have', async () => {
    const r = await call('POST', '/api/pull', { model: 'no-such-model:7b' });
    expect(r.status).toBe(200);
    expect(r.lines.at(-1)).toEqual({ error: expect.stringContaining('file does not exist') });
    expect(r.lines.some((l) => l.status === 'success')).toBe(false);
  });

  it('deletes a model, and 404s deleting it again', async () => {
    expect((await call('DELETE', '/api/delete', { model: PULLABLE_MODEL.name })).status).toBe(200);
    const tags = (await call('GET', '/api/tags')).lines[0];
    expect(tags.models.map((m: { name: string }) => m.name)).not.toContain(PULLABLE_MODEL.name);
    const again = await call('DELETE', '/api/delete', { model: PULLABLE_MODEL.name });
    expect(again.status).toBe(404);
    expect(again.lines[0]).toEqual({ error: `model '${PULLABLE_MODEL.name}' not found` });
  });

  it('answers unknown paths with a plain-text 404, and bad JSON with 400 {error}', async () => {
    const r = await call('GET', '/api/nothing');
    expect(r.status).toBe(404);
    expect(r.lines[0]).toBe('404 page not found');
    const bad = await fetch(`${fake.url}/api/chat`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: expect.any(String) });
  });

  it('records the requests it gets', async () => {
    const before = fake.requests.length;
    await call('POST', '/api/show', { model: CHAT_MODEL.name });
    expect(fake.requests.slice(before)).toEqual([expect.objectContaining({ method: 'POST', path: '/api/show', body: { model: CHAT_MODEL.name } })]);
  });

  describe('failure modes', () => {
    it("'down' refuses connections, and comes back on the same URL", async () => {
      const url = fake.url;
      await fake.setMode('down');
      await expect(fetch(`${url}/api/version`)).rejects.toThrow();
      await fake.setMode('ok');
      expect(fake.url).toBe(url);
      expect((await fetch(`${url}/api/version`)).status).toBe(200);
    });

    it("'down' cuts a stream that is in progress", async () => {
      const res = await fetch(`${fake.url}/api/pull`, { method: 'POST', body: JSON.stringify({ model: PULLABLE_MODEL.name }) });
      const reading = res.text();
      await fake.setMode('down');
      await expect(reading).rejects.toThrow();
    });

    it("'slow' holds the first byte back", async () => {
      await fake.setMode('slow', { slowMs: 150 });
      const r = await call('GET', '/api/version');
      expect(r.firstByteMs).toBeGreaterThanOrEqual(140);
      expect(r.status).toBe(200);
    });

    it("'garbage' answers 200 with a body that is not JSON", async () => {
      await fake.setMode('garbage');
      const res = await fetch(`${fake.url}/api/tags`);
      expect(res.status).toBe(200);
      await expect(res.json()).rejects.toThrow();
    });

    it("'cut' ends a stream mid-way with no done line", async () => {
      await fake.setMode('cut');
      const r = await call('POST', '/api/chat', { model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'Hi' }] });
      expect(r.error).toBeDefined();
      expect(r.lines.length).toBeGreaterThan(0);
      expect(r.lines.some((l) => l.done === true)).toBe(false);
      const json = await call('GET', '/api/tags');
      expect(json.error).toBeDefined(); // a promised body that never fully arrives
    });

    it("'slow-first-token' sends a stream's headers at once and holds its first line; a client that leaves is recorded", async () => {
      await fake.setMode('slow-first-token', { slowMs: 60_000, only: '/api/chat' });
      expect((await call('GET', '/api/tags')).status).toBe(200);
      fake.requests.length = 0;
      const controller = new AbortController();
      // with the whole minute held back this resolves only because the headers came first
      const res = await fetch(`${fake.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'Hi' }] }), signal: controller.signal });
      expect(res.status).toBe(200);
      controller.abort();
      await waitFor(() => fake.requests[0]?.aborted === true, 'the fake to see the client leave', 5000);
    });

    it("'garbage-line' sends a line that is not JSON mid-stream; 'only' keeps other paths answering", async () => {
      await fake.setMode('garbage-line', { only: '/api/chat' });
      const r = await call('POST', '/api/chat', { model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'Hello there, how are you?' }] });
      expect(r.status).toBe(200);
      expect(r.lines[0]).toMatchObject({ message: { content: expect.any(String) } });
      expect(r.lines.at(-1)).toEqual(expect.stringContaining('<html>'));
      expect(r.lines.some((l) => l.done === true)).toBe(false);
      await fake.setMode('cut', { only: '/api/chat' });
      const tags = await call('GET', '/api/tags');
      expect(tags.error).toBeUndefined();
      expect(tags.lines[0].models.length).toBeGreaterThan(0);
    });

    it("'error-line' sends an {error} line mid-stream, and 500 {error} for plain calls", async () => {
      await fake.setMode('error-line');
      const r = await call('POST', '/api/chat', { model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'Hi' }] });
      expect(r.status).toBe(200);
      expect(r.lines.at(-1)).toEqual({ error: expect.any(String) });
      expect(r.lines.some((l) => l.done === true)).toBe(false);
      const tags = await call('GET', '/api/tags');
      expect(tags.status).toBe(500);
      expect(tags.lines[0]).toEqual({ error: expect.any(String) });
    });
  });
});
