// createOllamaClient against the Ollama fake, in every failure mode: each one must end in a
// ModelRuntimeError whose `failure` says what went wrong (and never hang or throw something else).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient, ModelRuntimeError, type FetchLike, type ModelRuntimeFailure } from '../../server/adapters/model-runtime/ollama.js';
import { CANNED_REPLY, CHAT_MODEL, EMBEDDING_MODEL, FAKE_VERSION, startFakeModelRuntime, VISION_MODEL, type FakeModelRuntime } from '../fakes/model-runtime.js';

async function failureOf(p: Promise<unknown>): Promise<ModelRuntimeError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ModelRuntimeError);
    return err as ModelRuntimeError;
  }
  throw new Error('expected a ModelRuntimeError, but the call succeeded');
}

describe('createOllamaClient', () => {
  let fake: FakeModelRuntime;
  beforeAll(async () => {
    fake = await startFakeModelRuntime();
  });
  afterAll(() => fake.close());
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.requests.length = 0;
  });
  const client = (timeoutMs = 1000) => createOllamaClient({ baseUrl: fake.url, timeoutMs });

  it('reads the version and the installed models', async () => {
    const c = client();
    expect(await c.version()).toBe(FAKE_VERSION);
    const models = await c.listModels();
    expect(models).toEqual([CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL].map((m) => ({ name: m.name, sizeBytes: m.sizeBytes, family: m.family, parameterSize: m.parameterSize })));
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/version', 'GET /api/tags']);
  });

  it('accepts a base URL with a trailing slash', async () => {
    const c = createOllamaClient({ baseUrl: `${fake.url}/`, timeoutMs: 1000 });
    expect(c.baseUrl).toBe(fake.url);
    expect(await c.version()).toBe(FAKE_VERSION);
    expect(fake.requests[0]!.path).toBe('/api/version');
  });

  const cases: Array<[string, () => Promise<void>, ModelRuntimeFailure, RegExp]> = [
    ['down', () => fake.setMode('down'), 'unreachable', /not reachable/],
    ['slow', () => fake.setMode('slow', { slowMs: 600 }), 'timeout', /did not answer within/],
    ['garbage', () => fake.setMode('garbage'), 'bad_response', /not JSON/],
    ['error-line', () => fake.setMode('error-line'), 'http_error', /500.*llama runner process has terminated/],
    ['cut', () => fake.setMode('cut'), 'bad_response', /stopped in the middle of its answer/],
  ];
  for (const [mode, enter, failure, message] of cases) {
    it(`fails with '${failure}' when the runtime is ${mode}`, async () => {
      await enter();
      const c = client(200);
      const started = Date.now();
      for (const call of [() => c.version(), () => c.listModels()]) {
        const err = await failureOf(call());
        expect(err.failure).toBe(failure);
        expect(err.message).toMatch(message);
      }
      expect(Date.now() - started).toBeLessThan(3000);
      // and it recovers once the runtime does
      await fake.setMode('ok');
      expect(await c.version()).toBe(FAKE_VERSION);
    });
  }

  it("reads one model's capabilities and context window from /api/show, and 404 for a model it lacks", async () => {
    const c = client();
    const chat = await c.show(CHAT_MODEL.name);
    expect(chat).toEqual({ name: CHAT_MODEL.name, capabilities: CHAT_MODEL.capabilities, contextLength: 131_072, family: CHAT_MODEL.family, parameterSize: CHAT_MODEL.parameterSize });
    expect((await c.show(VISION_MODEL.name)).capabilities).toContain('vision');
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/show', body: { model: VISION_MODEL.name } });
    const missing = await failureOf(c.show('no-such-model:1b'));
    expect(missing.failure).toBe('http_error');
    expect(missing.status).toBe(404);
    expect(missing.message).toContain("model 'no-such-model:1b' not found");
  });

  it("reports an HTTP error with the runtime's own message and status", async () => {
    const c = createOllamaClient({ baseUrl: `${fake.url}/not-ollama`, timeoutMs: 1000 });
    const err = await failureOf(c.version());
    expect(err.failure).toBe('http_error');
    expect(err.status).toBe(404);
  });

  it("says where it looked when nothing listens there", async () => {
    const err = await failureOf(createOllamaClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }).version());
    expect(err.failure).toBe('unreachable');
    expect(err.message).toContain('http://127.0.0.1:9');
  });

  it('refuses JSON of the wrong shape as bad_response', async () => {
    const shapes = ['{"models": "none"}', '{"models": [{"size": 3}]}', '[]', 'null'];
    for (const text of shapes) {
      const fetch: FetchLike = async () => ({ ok: true, status: 200, text: async () => text });
      const c = createOllamaClient({ baseUrl: 'http://127.0.0.1:11434', fetch });
      expect((await failureOf(c.listModels())).failure).toBe('bad_response');
      expect((await failureOf(c.version())).failure).toBe('bad_response');
    }
  });
});

describe('createOllamaClient chat', () => {
  let fake: FakeModelRuntime;
  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 2 });
  });
  afterAll(() => fake.close());
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.requests.length = 0;
    fake.chatReply = null;
  });
  const client = () => createOllamaClient({ baseUrl: fake.url, timeoutMs: 1000 });
  const ask = (c = client(), extra: { timeoutMs?: number; signal?: AbortSignal; format?: 'json' | Record<string, unknown> } = {}) =>
    c.chat({ model: CHAT_MODEL.name, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }], ...extra });

  it('collects the streamed reply and sends model, messages, format and stream:true', async () => {
    const deltas: string[] = [];
    const r = await client().chat({ model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'Hi' }], format: { type: 'object' }, options: { temperature: 0 }, onDelta: (d) => deltas.push(d) });
    expect(r.content).toBe(JSON.stringify({ answer: CANNED_REPLY }));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(r.content);
    expect(r.doneReason).toBe('stop');
    expect(r.outputTokens).toBeGreaterThan(0);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/chat',
      body: { model: CHAT_MODEL.name, stream: true, format: { type: 'object' }, options: { temperature: 0 }, messages: [{ role: 'user', content: 'Hi' }] },
    });
  });

  it('offers tools, returns the tool calls the model made, then the worded answer after the tool message', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'archive_search', description: 'Search the archives', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
      },
    ];
    const first = await client().chat({ model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'What does the encyclopedia say about heat stroke?' }], tools });
    expect(first.content).toBe('');
    expect(first.toolCalls).toHaveLength(1);
    expect(first.toolCalls[0]!.function.name).toBe('archive_search');
    expect(typeof first.toolCalls[0]!.function.arguments.query).toBe('string');
    expect(fake.requests[0]!.body).toMatchObject({ tools });
    const second = await client().chat({
      model: CHAT_MODEL.name,
      messages: [
        { role: 'user', content: 'What is heat stroke?' },
        { role: 'assistant', content: '', tool_calls: first.toolCalls },
        { role: 'tool', content: 'Heat stroke is a medical emergency.', tool_name: 'archive_search' },
      ],
      tools,
    });
    expect(second.toolCalls).toEqual([]);
    expect(second.content).toContain('Heat stroke is a medical emergency.');
    // no tools offered: nothing is sent under `tools`
    await client().chat({ model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'Hi' }], tools: [] });
    expect(fake.requests.at(-1)!.body).not.toHaveProperty('tools');
  });

  it('returns a configured reply verbatim, newlines included', async () => {
    fake.chatReply = (req) => `You said ${req.messages.at(-1)!.content}.\nBye.`;
    expect((await ask()).content).toBe('You said Hi.\nBye.');
  });

  it("fails with http_error and Ollama's message for an unknown model", async () => {
    const err = await failureOf(client().chat({ model: 'ghost:1b', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(err).toMatchObject({ failure: 'http_error', status: 404 });
    expect(err.message).toMatch(/model 'ghost:1b' not found/);
  });

  const cases: Array<[string, () => Promise<void>, ModelRuntimeFailure, RegExp]> = [
    ['down', () => fake.setMode('down'), 'unreachable', /not reachable/],
    ['slow', () => fake.setMode('slow', { slowMs: 800 }), 'timeout', /did not finish its answer within/],
    ['garbage', () => fake.setMode('garbage'), 'bad_response', /not JSON/],
    ['cut', () => fake.setMode('cut'), 'cut_off', /dropped in the middle|stopped before finishing/],
    ['error-line', () => fake.setMode('error-line'), 'cut_off', /stopped in the middle of its answer: an error was encountered/],
  ];
  for (const [mode, enter, failure, message] of cases) {
    it(`fails with '${failure}' when the runtime is ${mode}`, async () => {
      await enter();
      const started = Date.now();
      const err = await failureOf(ask(client(), { timeoutMs: 300 }));
      expect(err.failure).toBe(failure);
      expect(err.message).toMatch(message);
      expect(Date.now() - started).toBeLessThan(2000);
    });
  }

  it('passes the caller abort through as is, not as a runtime failure', async () => {
    await fake.setMode('slow', { slowMs: 800 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('user went away')), 50);
    await expect(ask(client(), { signal: ac.signal, timeoutMs: 5000 })).rejects.toThrow('user went away');
  });
});

describe('createOllamaClient streaming', () => {
  it('decodes a character split between two network chunks (no replacement characters)', async () => {
    const { createServer } = await import('node:http');
    const line = Buffer.from(`${JSON.stringify({ message: { role: 'assistant', content: 'Un café, s’il vous plaît' }, done: false })}\n`, 'utf8');
    const cut = line.indexOf(Buffer.from('é', 'utf8')) + 1; // between the two bytes of é
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(line.subarray(0, cut));
      setTimeout(() => {
        res.write(line.subarray(cut));
        res.end(`${JSON.stringify({ done: true, done_reason: 'stop' })}\n`);
      }, 30);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const c = createOllamaClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2000 });
      const r = await c.chat({ model: CHAT_MODEL.name, messages: [{ role: 'user', content: 'Hi' }] });
      expect(r.content).toBe('Un café, s’il vous plaît');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
