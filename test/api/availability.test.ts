// One honest answer per capability: GET /api/tools and GET /api/admin/features say whether each
// tool and feature can be used now, why not and what to do, from the real state (the model runtime
// fake up or down, the chosen chat model, the installed archives).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { FeaturePlan, type CatalogItemView } from '../../server/modules/features/schema.js';
import { ToolsResponse, type Tool } from '../../server/modules/tools/schema.js';
import { CHAT_MODEL, EMBEDDING_MODEL, VISION_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import type { TestClient } from '../harness/client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const NO_ARCHIVE = { available: false, unavailableReason: 'No archive is installed yet.', fix: 'Install an archive from Admin › Archives.' };
const RUNTIME_DOWN = {
  available: false,
  unavailableReason: 'The model runtime (Ollama) is not running on the Hearth computer.',
  fix: 'Start Ollama on the Hearth computer.',
};
const READY = { available: true, unavailableReason: null, fix: null };

let fake: FakeModelRuntime;
let s: TestServer;

async function tools(client: TestClient): Promise<Record<string, Tool>> {
  const r = await client.get('/api/tools');
  expect(r.status).toBe(200);
  return Object.fromEntries(ToolsResponse.parse(r.body).tools.map((t) => [t.id, t]));
}

async function features(): Promise<Record<string, CatalogItemView>> {
  const r = await s.admin.get('/api/admin/features');
  expect(r.status).toBe(200);
  const plan = FeaturePlan.parse(r.body);
  return Object.fromEntries(plan.groups.flatMap((g) => [g.base, ...g.items, ...g.categories.flatMap((c) => c.items)]).map((i) => [i.id, i]));
}

beforeAll(async () => {
  fake = await startFakeModelRuntime();
  s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url, timeoutMs: 2000 }) } });
});
afterAll(async () => {
  await s.close();
  await fake.close();
});
beforeEach(async () => {
  await fake.setMode('ok');
  fake.models = [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL];
  const { db, settings } = s.handle.deps;
  await db('zim_archives').delete();
  await settings.delete('chat_model');
  await settings.delete('features.installed');
});

async function addArchiveRow(): Promise<void> {
  const now = new Date().toISOString();
  await s.handle.deps.db('zim_archives').insert({
    source_id: 'wikipedia',
    variant_key: 'all',
    book_name: null,
    file_path: '/nowhere/wikipedia.zim',
    file_size_bytes: 1,
    zim_date: '2024-05',
    downloaded_at: now,
    verified_at: null,
    created_at: now,
    updated_at: now,
  });
}

describe('GET /api/tools availability', () => {
  it('says the Library and archive search cannot work without an archive, and how to get one', async () => {
    const byId = await tools(s.member);
    expect(byId.library).toMatchObject({ enabled: true, ...NO_ARCHIVE });
    expect(byId.archive_search).toMatchObject({ enabled: true, ...NO_ARCHIVE });
    // reading saved pages needs nothing else
    expect(byId.reader).toMatchObject(READY);
  });

  it('with an archive but no archive server, names the archive server and where to install it', async () => {
    await addArchiveRow();
    const byId = await tools(s.admin);
    const expected = {
      available: false,
      unavailableReason: 'The archive server (kiwix-serve) is not installed on the Hearth computer.',
      fix: 'Install it from Admin › Archives.',
    };
    expect(byId.library).toMatchObject(expected);
    expect(byId.archive_search).toMatchObject(expected);
  });

  it('says Reader search works whenever chat does: the runtime down, no chat model chosen, then chosen', async () => {
    await fake.setMode('down');
    expect((await tools(s.member)).reader_search).toMatchObject({ enabled: true, ...RUNTIME_DOWN });
    await fake.setMode('ok');
    // none chosen, and no chat model in the runtime to adopt
    fake.models = [EMBEDDING_MODEL];
    const none = (await tools(s.member)).reader_search!;
    expect(none.available).toBe(false);
    expect(none.unavailableReason).toBeTruthy();
    fake.models = [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL];
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    expect((await tools(s.member)).reader_search).toMatchObject(READY);
  });

  it('says the same whether the model runtime is up or down while no archive is installed', async () => {
    await fake.setMode('down');
    const byId = await tools(s.member);
    expect(byId.archive_search).toMatchObject(NO_ARCHIVE);
    expect(byId.reader).toMatchObject(READY);
  });
});

describe('GET /api/admin/features availability', () => {
  it('with the model runtime down: chat and every model item say Ollama is not running and to start it', async () => {
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await fake.setMode('down');
    const byId = await features();
    expect(byId['chat-base']).toMatchObject({ installed: true, ...RUNTIME_DOWN });
    for (const id of ['chat-small', 'embeddings', 'router', 'home-inventory-base']) expect(byId[id]).toMatchObject(RUNTIME_DOWN);
    // what does not live in the model runtime does not depend on it
    for (const id of ['library-base', 'images-base', 'voice-base']) expect(byId[id]).toMatchObject(READY);
  });

  it('with the runtime up and no chat model chosen or in the runtime: chat says to install one', async () => {
    fake.models = [EMBEDDING_MODEL];
    const byId = await features();
    expect(byId['chat-base']).toMatchObject({ available: false, unavailableReason: 'No chat model is installed yet.', fix: 'Install a chat model in Admin › Features.' });
    // a model item that is not installed can be installed now
    expect(byId['chat-small']).toMatchObject({ installed: false, ...READY });
  });

  it('with the runtime up and the chosen chat model in it: chat is ready', async () => {
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await s.handle.deps.settings.set('features.installed', { 'llama3.2:3b': { installedAt: new Date().toISOString() } });
    const byId = await features();
    expect(byId['chat-base']).toMatchObject(READY);
    expect(byId['chat-small']).toMatchObject({ installed: true, ...READY });
  });

  it('a chosen model Ollama lost: chat and the installed item say so and how to get it back', async () => {
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await s.handle.deps.settings.set('features.installed', { 'llama3.2:3b': { installedAt: new Date().toISOString() } });
    fake.models = [EMBEDDING_MODEL];
    const byId = await features();
    expect(byId['chat-base']).toMatchObject({
      available: false,
      unavailableReason: `Ollama does not have the chat model ${CHAT_MODEL.name} any more.`,
      fix: 'Restart Hearth to download it again, or install a chat model in Admin › Features.',
    });
    expect(byId['chat-small']).toMatchObject({ installed: true, available: false, unavailableReason: 'Ollama does not have this model any more.' });
  });
});

describe('chat readiness feeds archive search', () => {
  it('a chat model installed from Features while none is chosen becomes the chat model', async () => {
    await s.handle.deps.features.onDownloaded('llama3.2:3b');
    expect(await s.handle.deps.features.chosenModel('chat')).toBe('llama3.2:3b');
    expect((await features())['chat-base']).toMatchObject(READY);
  });

  it('installing another chat model keeps the one already chosen', async () => {
    await s.handle.deps.settings.set('chat_model', 'qwen2.5:7b');
    await s.handle.deps.features.onDownloaded('llama3.2:3b');
    expect(await s.handle.deps.features.chosenModel('chat')).toBe('qwen2.5:7b');
  });
});

describe('the look at the model runtime behind GET /api/tools', () => {
  it('is shared by every caller for a few seconds, and a runtime slower than its budget counts as not answering', async () => {
    const slowFake = await startFakeModelRuntime();
    // the default sharing window (the other tests look again each time)
    const server = await startTestServer({
      seed: 'household',
      overrides: { modelRuntime: createOllamaClient({ baseUrl: slowFake.url, timeoutMs: 10_000 }), tuning: { runtimeLookTtlMs: 60_000 } },
    });
    try {
      await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
      await slowFake.setMode('slow', { slowMs: 4_000 });
      const before = slowFake.requests.filter((q) => q.path === '/api/tags').length;
      const answers = await Promise.all([1, 2, 3].map(() => server.handle.deps.features.chatReadiness()));
      // one question to the runtime for three callers, answered "not answering" once the budget is spent
      // (the runtime would have said it has the chat model, after 4 s)
      expect(slowFake.requests.filter((q) => q.path === '/api/tags').length - before).toBe(1);
      for (const a of answers) expect(a).toEqual(RUNTIME_DOWN);
    } finally {
      await server.close();
      await slowFake.close();
    }
  });
});
