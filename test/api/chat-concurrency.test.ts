// Many answers at once (issue 29 item 16): what each answer did before its first token —
// listing the runtime's models, reading the same app settings again — was repeated per answer and
// made twenty answers at once start late. Answers share the runtime's quick look and the model's
// details, and app settings are read from memory until the table is written. The speed itself is
// measured by bench/chat.ts (twenty streams at a 20 ms token pace, against the fake called directly).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { ask } from '../harness/chat.js';
import { startTestServer, TEST_TUNING, type TestServer } from '../harness/start-server.js';

describe('answers that start together', () => {
  let fake: FakeModelRuntime;
  let s: TestServer;
  const queries: string[] = [];

  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 1 });
    // the runtime's quick look kept as long as in production or longer (test servers keep none)
    s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }), tuning: { ...TEST_TUNING, runtimeLookTtlMs: 60_000 } } });
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    s.handle.deps.db.on('query', (q: { sql: string }) => queries.push(q.sql));
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  it('share one look at the runtime and read no setting again: five at once list its models no more', async () => {
    expect((await ask(s.member, { message: 'First question' })).status).toBe(200);
    fake.requests.length = 0;
    queries.length = 0;
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => ask(s.member, { message: `Question ${i}` })));
    for (const a of answers) expect(a.names.at(-1), JSON.stringify(a.body ?? a.events.at(-1))).toBe('done');
    const asked = (method: string, path: string) => fake.requests.filter((r) => r.method === method && r.path === path).length;
    // the quick look is shared; no answer lists the runtime's models again for itself
    expect(asked('GET', '/api/tags')).toBe(0);
    expect(asked('POST', '/api/show')).toBe(0);
    expect(asked('POST', '/api/chat')).toBe(10); // each answer and its title
    expect(queries.filter((q) => /from `app_settings`/.test(q))).toEqual([]);
  });
});

describe('app settings read from memory', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'empty' });
  });
  afterAll(() => s?.close());

  it('answer the stored value after every kind of write, and a caller changing what it read changes only its copy', async () => {
    const { settings, db } = s.handle.deps;
    expect(await settings.get('bench_note')).toBeUndefined();
    await settings.set('bench_note', { words: ['one'] });
    const read = await settings.get<{ words: string[] }>('bench_note');
    expect(read).toEqual({ words: ['one'] });
    read!.words.push('changed by a caller');
    expect(await settings.get('bench_note')).toEqual({ words: ['one'] });
    // a write that does not go through the store is seen too
    await db('app_settings').where({ key: 'bench_note' }).update({ value: JSON.stringify({ words: ['two'] }) });
    expect(await settings.get('bench_note')).toEqual({ words: ['two'] });
    await settings.delete('bench_note');
    expect(await settings.get('bench_note')).toBeUndefined();
  });
});
