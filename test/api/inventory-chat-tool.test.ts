// home_inventory, the chat tool over the household inventory: called directly (lists with warranty
// state, one device in full with the manual's matching paragraphs, links to the device page) and
// through the real chat stream with the Ollama fake calling it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import type { UserActor } from '../../server/actor.js';
import { toolSpec, type ChatToolContext } from '../../server/modules/chat/tool-registry.js';
import { createHomeInventoryTool, HomeInventoryArgs } from '../../server/modules/home-inventory/chat-tool.js';
import { addDays, todayOf } from '../../server/modules/home-inventory/dates.js';
import { HomeInventoryStore } from '../../server/modules/home-inventory/store.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { insertDevice } from '../fixtures/inventory/devices.js';
import { ask } from '../harness/chat.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const filler = Array.from({ length: 40 }, (_, i) => `Section ${i}. General safety information for the dishwasher, part ${i}.`.repeat(3));
const FILTER = 'Filter: clean the dishwasher filter every month under running water.';
const MANUAL = [...filler, FILTER].join('\n\n');

describe('the home_inventory chat tool', () => {
  let fake: FakeModelRuntime;
  let s: TestServer;
  let store: HomeInventoryStore;
  const ctx = (): ChatToolContext => ({ actor: { kind: 'user', id: s.users.member.id, name: 'Sam', role: 'member', sessionId: 't' } as UserActor, signal: new AbortController().signal });
  const tool = () => createHomeInventoryTool({ store, clock: s.handle.deps.clock });
  let dishwasherId: string;

  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
    s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }) } });
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    store = new HomeInventoryStore(s.handle.deps.db);
    const today = todayOf(s.handle.deps.clock);
    const dw = await insertDevice(store, { name: 'Dishwasher', brand: 'Cleanmatic', model: 'DW-60', location: 'Kitchen', warrantyExpires: addDays(today, 20), manualText: MANUAL, specs: { Programmes: '6' } });
    dishwasherId = dw.id;
    await store.insertLink({ id: 'l1', deviceId: dw.id, category: 'video', label: 'How to clean the filter', url: 'https://video.example/filter', source: 'ai', createdAt: new Date().toISOString() });
    await store.insertService({ id: 's1', deviceId: dw.id, date: '2026-01-10', type: 'maintenance', description: 'Cleaned the filter', technician: null, cost: null, createdBy: null, createdAt: new Date().toISOString() });
    await insertDevice(store, { name: 'Fridge', brand: 'Frostline', model: 'FR-2', location: 'Kitchen', warrantyExpires: addDays(today, -5) });
    await insertDevice(store, { name: 'Drill', brand: 'Voltek', category: 'tool', location: 'Garage', warrantyExpires: null });
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  it('is registered beside the other tools, with its Extension, and takes query, deviceId and question', () => {
    expect(s.handle.deps.chatTools.all().map((t) => t.id)).toEqual(['archive_search', 'reader_search', 'home_inventory', 'image_gen', 'remember', 'weather', 'news', 'maps', 'home_control', 'shopping_list']);
    const spec = toolSpec(tool());
    expect(Object.keys(spec.function.parameters.properties as object)).toEqual(['query', 'deviceId', 'question']);
    expect(HomeInventoryArgs.safeParse({ query: 'x'.repeat(201) }).success).toBe(false);
  });

  it('lists devices for a query with their warranty state and a link to each device page', async () => {
    const r = await tool().run({ query: 'kitchen' }, ctx());
    expect(r.sources.map((x) => x.title)).toEqual(['Dishwasher', 'Fridge']);
    expect(r.sources[0]).toMatchObject({ type: 'inventory', url: `/inventory/${dishwasherId}` });
    expect(r.content).toMatch(/Dishwasher — Cleanmatic DW-60 \[appliance, Kitchen\] warranty ending soon/);
    expect(r.content).toMatch(/Fridge — Frostline FR-2 .* warranty expired/);
    expect(r.summary).toBe('Looked up "kitchen" in the inventory: 2 devices');
    expect((await tool().run({}, ctx())).sources).toHaveLength(3);
    expect((await tool().run({ query: 'garage drill' }, ctx())).content).toContain('no warranty date');
    expect((await tool().run({ query: 'spaceship' }, ctx())).content).toBe('No device in the household inventory matches "spaceship".');
  });

  it('gives one device in full: specs, links, files, service history and the manual paragraphs for the question', async () => {
    const r = await tool().run({ deviceId: dishwasherId, question: 'How often should I clean the filter?' }, ctx());
    expect(r.content).toContain('- Programmes: 6');
    expect(r.content).toContain('How to clean the filter (video): https://video.example/filter');
    expect(r.content).toContain('2026-01-10 maintenance: Cleaned the filter');
    expect(r.content).toContain(FILTER);
    expect(r.content).not.toContain('Section 0.');
    expect(r.sources).toEqual([expect.objectContaining({ type: 'inventory', url: `/inventory/${dishwasherId}` })]);
    // without a question: the manual's start
    const start = await tool().run({ deviceId: dishwasherId }, ctx());
    expect(start.content).toContain('Section 0.');
    expect(Buffer.byteLength(start.content)).toBeLessThan(5_000);
    expect((await tool().run({ deviceId: 'nope' }, ctx())).content).toMatch(/no device with id nope/);
  });

  it('grounds a question naming one device with its details and manual', async () => {
    const r = await tool().ground!('how do I clean the dishwasher filter?', ctx());
    expect(r.content).toContain(FILTER);
    expect(r.sources[0]!.url).toBe(`/inventory/${dishwasherId}`);
  });

  it('is called by the model in a real chat answer, its device linked under the answer', async () => {
    fake.toolScript = (req: FakeChatRequest) => (req.messages.at(-1)?.role === 'user' && (req.tools ?? []).some((t) => t.function?.name === 'home_inventory') ? [{ function: { name: 'home_inventory', arguments: { query: 'dishwasher' } } }] : null);
    const answer = await ask(s.member, { message: 'When does the dishwasher warranty run out?' });
    fake.toolScript = null;
    expect(answer.status).toBe(200);
    const offered = (fake.requests.find((r) => r.path === '/api/chat')!.body as FakeChatRequest).tools!.map((t) => t.function?.name);
    expect(offered).toContain('home_inventory');
    const toolMessage = fake.requests
      .filter((r) => r.path === '/api/chat')
      .flatMap((r) => (r.body as FakeChatRequest).messages)
      .find((m) => m.role === 'tool');
    expect(toolMessage?.content).toContain('Dishwasher — Cleanmatic DW-60');
    expect(JSON.stringify(answer.events)).toContain(`/inventory/${dishwasherId}`);
  });
});
