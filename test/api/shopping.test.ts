// Shopping over HTTP (issue 38): the household's shared lists (every member reads and changes every
// list; anonymous 401; a list or item that is not there 404; bad input 400 with a sentence, nothing
// written), items with who added them, aisle guesses and the household's own aisle for a name, the
// live stream (two members on one list see one state), clear-checked, suggestions from what the
// household has bought, items by barcode through the lookup (an unknown barcode adds nothing), and
// the shopping_list chat tool.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import type { UserActor } from '../../server/actor.js';
import type { ChatToolContext } from '../../server/modules/chat/public.js';
import { ItemResponse, ListDetailResponse, ListResponse, ListsResponse, SuggestionsResponse } from '../../server/modules/shopping/schema.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest } from '../fakes/model-runtime.js';
import { startFakeOpenFoodFacts, type FakeOpenFoodFacts } from '../fakes/open-food-facts.js';
import { ask } from '../harness/chat.js';
import { connectSse, type SseConnection } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('Shopping', () => {
  let s: TestServer;
  let fake: FakeOpenFoodFacts;
  const streams: SseConnection[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenFoodFacts();
    s = await startTestServer({ seed: 'household', config: { openFoodFactsUrl: fake.url, fetchAllowOrigins: [fake.origin] } });
  });
  afterAll(async () => {
    for (const c of streams) c.close();
    await s.close();
    await fake.close();
  });
  beforeEach(async () => {
    await s.handle.deps.db('shopping_lists').delete();
    await s.handle.deps.db('shopping_history').delete();
    fake.requests.length = 0;
  });

  const newList = async (name = 'Groceries') => ListResponse.parse((await s.member.post('/api/shopping/lists', { name })).body).list;
  const add = async (listId: string, body: object, who = s.member) => {
    const r = await who.post(`/api/shopping/lists/${listId}/items`, body);
    expect(r.status, r.text).toBe(201);
    return ItemResponse.parse(r.body).item;
  };
  const items = async (listId: string) => ListDetailResponse.parse((await s.admin.get(`/api/shopping/lists/${listId}`)).body).items;
  const follow = async (who: TestServer['member'], listId: string) => {
    const c = await connectSse(s.url, `/api/shopping/lists/${listId}/stream`, { cookie: who.cookie ?? '' });
    streams.push(c);
    return c;
  };

  it('guards every route', async () => {
    const list = await newList();
    const item = await add(list.id, { name: 'Milk' });
    for (const [m, path, body] of [
      ['get', '/api/shopping/lists'],
      ['post', '/api/shopping/lists', { name: 'x' }],
      ['get', `/api/shopping/lists/${list.id}`],
      ['patch', `/api/shopping/lists/${list.id}`, { name: 'x' }],
      ['delete', `/api/shopping/lists/${list.id}`],
      ['get', `/api/shopping/lists/${list.id}/stream`],
      ['post', `/api/shopping/lists/${list.id}/items`, { name: 'x' }],
      ['patch', `/api/shopping/lists/${list.id}/items/${item.id}`, { checked: true }],
      ['delete', `/api/shopping/lists/${list.id}/items/${item.id}`],
      ['post', `/api/shopping/lists/${list.id}/clear-checked`, {}],
      ['get', '/api/shopping/suggestions?q=m'],
    ] as const) {
      expect((await s.anon.req(m.toUpperCase() as 'GET', path, body)).status, `${m} ${path}`).toBe(401);
    }
    expect(await items(list.id)).toHaveLength(1);
    expect((await s.member.get('/api/shopping/lists')).body.lists).toHaveLength(1);
  });

  it('keeps lists for the whole household', async () => {
    const list = await newList('Weekly shop');
    expect(list).toMatchObject({ name: 'Weekly shop', openCount: 0, itemCount: 0 });
    const second = await newList('Hardware');
    expect(second.sortOrder).toBe(list.sortOrder + 1);
    // the admin sees and changes the member's list: the lists are the household's
    expect(ListsResponse.parse((await s.admin.get('/api/shopping/lists')).body).lists.map((l) => l.name)).toEqual(['Weekly shop', 'Hardware']);
    expect((await s.admin.patch(`/api/shopping/lists/${list.id}`, { sortOrder: 5 })).body.list.sortOrder).toBe(5);
    expect((await s.admin.patch(`/api/shopping/lists/${list.id}`, { name: 'Saturday shop' })).body.list.name).toBe('Saturday shop');
    expect((await s.member.get('/api/shopping/lists')).body.lists.map((l: { name: string }) => l.name)).toEqual(['Hardware', 'Saturday shop']);

    for (const [body, sentence] of [
      [{ name: '' }, /Give the list a name/],
      [{ name: 'x'.repeat(81) }, /at most 80/],
      [{}, /name/],
    ] as const) {
      const r = await s.member.post('/api/shopping/lists', body);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(sentence);
    }
    expect((await s.member.patch(`/api/shopping/lists/${list.id}`, {})).status).toBe(400);
    expect((await s.member.patch(`/api/shopping/lists/${list.id}`, { owner: 'me' })).status).toBe(400);
    expect((await s.member.get('/api/shopping/lists')).body.lists).toHaveLength(2);

    for (const [m, path, body] of [
      ['GET', '/api/shopping/lists/nope'],
      ['PATCH', '/api/shopping/lists/nope', { name: 'x' }],
      ['DELETE', '/api/shopping/lists/nope'],
      ['POST', '/api/shopping/lists/nope/items', { name: 'Milk' }],
      ['POST', '/api/shopping/lists/nope/clear-checked', {}],
      ['GET', '/api/shopping/lists/nope/stream'],
    ] as const) {
      const r = await s.member.req(m, path, body);
      expect(r.status, `${m} ${path}`).toBe(404);
      expect(r.body.error.message).toMatch(/not there any more/);
    }
    expect((await s.admin.delete(`/api/shopping/lists/${second.id}`)).status).toBe(204);
    expect((await s.member.get(`/api/shopping/lists/${second.id}`)).status).toBe(404);
  });

  it('adds items with who added them, guesses the aisle and remembers the household’s own', async () => {
    const list = await newList();
    const milk = await add(list.id, { name: 'Milk', quantity: 2 });
    expect(milk).toMatchObject({ name: 'Milk', quantity: '2', category: 'dairy', checked: false, checkedAt: null, addedBy: { id: s.users.member.id, name: 'Sam' }, barcode: null, note: null });
    const rest = [await add(list.id, { name: 'Bananas' }, s.admin), await add(list.id, { name: 'toilet paper', note: 'the soft one' }), await add(list.id, { name: 'Sourdough loaf' }), await add(list.id, { name: 'Frobnicator' }), await add(list.id, { name: 'Limes', category: 'drinks' })];
    expect(rest.map((i) => i.category)).toEqual(['produce', 'household', 'bakery', 'other', 'drinks']);
    expect(rest[0]!.addedBy.name).toBe('Alex');
    expect(rest[1]!.note).toBe('the soft one');
    expect((await items(list.id)).map((i) => i.position)).toEqual([0, 1, 2, 3, 4, 5]);

    // moved to another aisle: the next "frobnicator" goes there too
    const moved = ItemResponse.parse((await s.member.patch(`/api/shopping/lists/${list.id}/items/${rest[3]!.id}`, { category: 'household' })).body).item;
    expect(moved.category).toBe('household');
    expect((await add(list.id, { name: 'frobnicator' })).category).toBe('household');

    for (const [body, sentence] of [
      [{ name: '' }, /Type what to buy/],
      [{ name: 'Milk', category: 'garden' }, /aisle is one of/],
      [{ name: 'Milk', quantity: 'x'.repeat(41) }, /at most 40/],
      [{ name: 'Milk', owner: 'x' }, /owner/],
      [{ barcode: '12ab' }, /8 to 14 digits/],
      [{}, /name, or a barcode/],
      [{ name: 'Milk', barcode: '3017620422003' }, /one of the two/],
    ] as const) {
      const r = await s.member.post(`/api/shopping/lists/${list.id}/items`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message, JSON.stringify(body)).toMatch(sentence);
    }
    expect(await items(list.id)).toHaveLength(7);
  });

  it('ticks, edits, removes and clears the ticked', async () => {
    const list = await newList();
    const other = await newList('Other');
    const milk = await add(list.id, { name: 'Milk' });
    const eggs = await add(list.id, { name: 'Eggs' });
    const ticked = ItemResponse.parse((await s.admin.patch(`/api/shopping/lists/${list.id}/items/${milk.id}`, { checked: true })).body).item;
    expect(ticked.checked).toBe(true);
    expect(ticked.checkedAt).not.toBeNull();
    // ticking again keeps the first tick's time
    expect((await s.member.patch(`/api/shopping/lists/${list.id}/items/${milk.id}`, { checked: true })).body.item.checkedAt).toBe(ticked.checkedAt);
    expect((await s.member.patch(`/api/shopping/lists/${list.id}/items/${eggs.id}`, { quantity: '12', name: 'Free-range eggs', note: 'large' })).body.item).toMatchObject({ quantity: '12', name: 'Free-range eggs', note: 'large' });
    expect((await s.member.patch(`/api/shopping/lists/${list.id}/items/${eggs.id}`, { quantity: null })).body.item.quantity).toBeNull();
    expect((await s.member.get(`/api/shopping/lists/${list.id}`)).body.list).toMatchObject({ openCount: 1, itemCount: 2 });

    expect((await s.member.patch(`/api/shopping/lists/${list.id}/items/${milk.id}`, {})).status).toBe(400);
    expect((await s.member.patch(`/api/shopping/lists/${list.id}/items/${milk.id}`, { checked: 'yes' })).status).toBe(400);
    // an item is reached only through its own list
    expect((await s.member.patch(`/api/shopping/lists/${other.id}/items/${milk.id}`, { checked: false })).status).toBe(404);
    expect((await s.member.delete(`/api/shopping/lists/${other.id}/items/${milk.id}`)).status).toBe(404);
    expect((await s.member.patch(`/api/shopping/lists/${list.id}/items/nope`, { checked: true })).status).toBe(404);

    expect((await s.member.post(`/api/shopping/lists/${list.id}/clear-checked`, {})).body).toEqual({ cleared: 1 });
    expect((await items(list.id)).map((i) => i.name)).toEqual(['Free-range eggs']);
    expect((await s.member.post(`/api/shopping/lists/${list.id}/clear-checked`, {})).body).toEqual({ cleared: 0 });
    expect((await s.member.delete(`/api/shopping/lists/${list.id}/items/${eggs.id}`)).status).toBe(204);
    expect((await s.member.delete(`/api/shopping/lists/${list.id}/items/${eggs.id}`)).status).toBe(404);
    expect(await items(list.id)).toEqual([]);
  });

  it('shows two members one state through the stream', async () => {
    const list = await newList();
    const bread = await add(list.id, { name: 'Bread' });
    const sam = await follow(s.member, list.id);
    const alex = await follow(s.admin, list.id);
    expect(sam.status).toBe(200);
    expect(sam.headers['content-type']).toContain('text/event-stream');
    for (const c of [sam, alex]) expect((await c.waitFor((e) => e.event === 'state')).data.items.map((i: { name: string }) => i.name)).toEqual(['Bread']);

    await add(list.id, { name: 'Butter' }, s.admin);
    await s.member.patch(`/api/shopping/lists/${list.id}/items/${bread.id}`, { checked: true });
    const settled = (c: SseConnection) => c.waitFor((e) => e.event === 'state' && e.data.items.length === 2 && e.data.items[0].checked === true);
    const [a, b] = await Promise.all([settled(sam), settled(alex)]);
    expect(a.data).toEqual(b.data);
    expect(a.data.items).toMatchObject([
      { name: 'Bread', checked: true, addedBy: { name: 'Sam' } },
      { name: 'Butter', checked: false, addedBy: { name: 'Alex' } },
    ]);
    expect(a.data.list).toMatchObject({ openCount: 1, itemCount: 2 });

    // a list deleted ends its streams with `deleted`
    expect((await s.admin.delete(`/api/shopping/lists/${list.id}`)).status).toBe(204);
    for (const c of [sam, alex]) {
      expect((await c.waitFor((e) => e.event === 'deleted')).data).toEqual({ id: list.id });
      await c.ended;
    }
  });

  it('suggests what the household buys, most often first, leaving out what is on the list', async () => {
    const list = await newList();
    const other = await newList('Other');
    await add(other.id, { name: 'Milk' });
    await add(list.id, { name: 'Milk' });
    await add(other.id, { name: 'Mint' });
    await add(other.id, { name: 'Oat milk' });
    await add(other.id, { name: 'Bread' });
    const q = async (query: string) => SuggestionsResponse.parse((await s.member.get(`/api/shopping/suggestions?${query}`)).body).suggestions;
    expect((await q('q=mi')).map((x) => [x.name, x.times, x.category])).toEqual([
      ['Milk', 2, 'dairy'],
      ['Mint', 1, 'produce'],
      ['Oat milk', 1, 'dairy'],
    ]);
    expect((await q('q=MIL')).map((x) => x.name)).toEqual(['Milk', 'Oat milk']);
    expect((await q(`q=mi&listId=${list.id}`)).map((x) => x.name)).toEqual(['Mint', 'Oat milk']);
    expect((await q('q=')).map((x) => x.name)[0]).toBe('Bread');
    expect(await q('q=%25')).toEqual([]);
    expect(await q('q=zz')).toEqual([]);
    expect((await s.member.get(`/api/shopping/suggestions?q=${'x'.repeat(121)}`)).status).toBe(400);
  });

  it('adds an item by barcode, named through the lookup; an unknown barcode adds nothing', async () => {
    const list = await newList();
    const nutella = await add(list.id, { barcode: '3017620422003' });
    expect(nutella).toMatchObject({ name: 'Nutella', note: 'Ferrero, 400 g', category: 'pantry', barcode: '3017620422003', addedBy: { name: 'Sam' } });
    await add(list.id, { barcode: '5449000000996', quantity: '6' });
    expect((await items(list.id)).map((i) => [i.name, i.category, i.quantity])).toEqual([
      ['Nutella', 'pantry', null],
      ['Coca-Cola', 'drinks', '6'],
    ]);
    const unknown = await s.member.post(`/api/shopping/lists/${list.id}/items`, { barcode: '0000000000017' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/No product is known for the barcode 0000000000017/);
    await fake.setMode('busy');
    try {
      const busy = await s.member.post(`/api/shopping/lists/${list.id}/items`, { barcode: '7610200337405' });
      expect(busy.status).toBe(503);
      expect(busy.body.error.message).toMatch(/busy/);
    } finally {
      await fake.setMode('ok');
    }
    expect(await items(list.id)).toHaveLength(2);
  });

  it('offers the shopping_list chat tool: add, list and tick as the member who asked', async () => {
    const tool = s.handle.deps.chatTools.all().find((t) => t.id === 'shopping_list')!;
    expect(tool).toBeDefined();
    const ctx = (): ChatToolContext => ({ actor: { kind: 'user', id: s.users.member.id, name: 'Sam', role: 'member', sessionId: 't' } as UserActor, signal: new AbortController().signal });
    const empty = await tool.run(tool.args.parse({ action: 'list' }), ctx());
    expect(empty.content).toMatch(/no shopping list yet/);

    const added = await tool.run(tool.args.parse({ action: 'add', items: ['milk', '2 lemons', 'eggs'] }), ctx());
    expect(added.summary).toBe('Added 3 items to Shopping');
    const [list] = ListsResponse.parse((await s.member.get('/api/shopping/lists')).body).lists;
    expect((await items(list!.id)).map((i) => [i.name, i.quantity, i.category, i.addedBy.name])).toEqual([
      ['milk', null, 'dairy', 'Sam'],
      ['lemons', '2', 'produce', 'Sam'],
      ['eggs', null, 'dairy', 'Sam'],
    ]);
    const ticked = await tool.run(tool.args.parse({ action: 'check', items: ['Milk', 'bread'] }), ctx());
    expect(ticked.content).toMatch(/Ticked on "Shopping": milk\. Not on the list to buy: bread\./);
    const listed = await tool.run(tool.args.parse({ action: 'list' }), ctx());
    expect(listed.content).toContain('Still to buy on "Shopping" (2)');
    expect(listed.content).toContain('- 2 lemons [produce]');
    expect(listed.content).not.toContain('milk');
    expect((await tool.run(tool.args.parse({ action: 'list', list: 'Hardware' }), ctx())).content).toMatch(/no shopping list called "Hardware"/);
  });
});

describe('the shopping_list chat tool in a real chat answer', () => {
  it('is offered, called by the model with "add milk and eggs", and adds them as the member', async () => {
    const fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
    const s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }) } });
    try {
      await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
      fake.toolScript = (req: FakeChatRequest) =>
        req.messages.at(-1)?.role === 'user' && (req.tools ?? []).some((t) => t.function?.name === 'shopping_list') ? [{ function: { name: 'shopping_list', arguments: { action: 'add', items: ['milk', 'eggs'] } } }] : null;
      const answer = await ask(s.member, { message: 'Add milk and eggs to the shopping list' });
      expect(answer.status).toBe(200);
      const toolMessage = fake.requests
        .filter((r) => r.path === '/api/chat')
        .flatMap((r) => (r.body as FakeChatRequest).messages)
        .find((m) => m.role === 'tool');
      expect(toolMessage?.content).toBe('Added to "Shopping": milk (dairy), eggs (dairy). Tell the person it is on the list.');
      const [list] = ListsResponse.parse((await s.admin.get('/api/shopping/lists')).body).lists;
      const detail = ListDetailResponse.parse((await s.admin.get(`/api/shopping/lists/${list!.id}`)).body);
      expect(detail.items.map((i) => [i.name, i.addedBy.name])).toEqual([
        ['milk', 'Sam'],
        ['eggs', 'Sam'],
      ]);
    } finally {
      await s.close();
      await fake.close();
    }
  });
});
