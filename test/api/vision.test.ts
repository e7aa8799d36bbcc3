// POST /api/vision/analyze against real sharp and real OCR (tesseract.js on receipts and labels
// rendered at test time) and the Ollama fake's answers in the `format` schema: every task's answer
// checked against its schema, a broken answer asked again then 422, a sideways (EXIF) photo read
// upright, nothing kept unless asked, kept results private, bad input refused, the runtime down or slow.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Ajv } from 'ajv';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { TASK_SCHEMAS } from '../../server/modules/vision/tasks.js';
import { CANNED_DESCRIPTION, CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { labelJpeg } from '../fixtures/inventory/labels.js';
import { plainPhoto, receiptPng, sidewaysReceiptJpeg } from '../fixtures/vision/photos.js';
import { postForm, type FormPart } from '../harness/multipart.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { ask } from '../harness/chat.js';
import { TestClient } from '../harness/client.js';

const RECEIPT = { shop: 'CORNER MARKET', date: '2026-11-28', items: [{ name: 'Milk', price: 1.29 }, { name: 'Eggs', price: 3.49 }, { name: 'Bread', price: 2.15 }], total: 6.93 };

/** Every file under a folder (what analyze must not add to). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
}

describe('vision', () => {
  let fake: FakeModelRuntime;
  let s: TestServer;
  let receipt: Buffer;
  const ajv = new Ajv({ strict: false });
  const chats = () => fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as FakeChatRequest);
  const photo = (bytes: Buffer, type = 'image/png'): FormPart => ({ name: 'image', filename: 'photo', type, bytes });
  const analyze = (parts: FormPart[], client = s.member) => postForm(s.url, client, '/api/vision/analyze', parts);
  const task = (bytes: Buffer, name: string, more: FormPart[] = []) => analyze([{ name: 'task', value: name }, ...more, photo(bytes)]);
  /** The picture the model was sent, decoded. */
  const sentPicture = (c: FakeChatRequest) => sharp(Buffer.from(c.messages.find((m) => m.images?.length)!.images![0]!, 'base64')).metadata();

  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
    s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }), tuning: { visionModelMs: 1_500 } } });
    receipt = await receiptPng();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.models = [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL];
    fake.schemaMode = 'follow';
    fake.visionObjects = ['washing machine'];
    fake.requests.length = 0;
  });

  it('describes a photo in its schema, with the picture made upright and no larger than 1568 px', async () => {
    expect((await s.member.get('/api/vision/status')).body).toEqual({ model: VISION_MODEL.name, unavailable: null });
    const r = await task(await plainPhoto(3000, 2000), 'describe');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ task: 'describe', model: VISION_MODEL.name, ocrText: null, id: null });
    expect(ajv.validate(TASK_SCHEMAS.describe, r.body.result)).toBe(true);
    expect(r.body.result.objects).toEqual(['washing machine']);
    const [asked] = chats();
    expect(asked!.model).toBe(VISION_MODEL.name);
    expect(asked!.format).toEqual(TASK_SCHEMAS.describe);
    const seen = await sentPicture(asked!);
    expect([seen.width, seen.height, seen.format]).toEqual([1568, 1045, 'jpeg']);
  });

  it('answers text with the text exactly as OCR read it, and gives the model that text', async () => {
    const r = await task(receipt, 'text');
    expect(r.status).toBe(200);
    expect(ajv.validate(TASK_SCHEMAS.text, r.body.result)).toBe(true);
    expect(r.body.ocrText).toContain('CORNER MARKET');
    expect(r.body.result.text).toBe(r.body.ocrText);
    expect(chats()[0]!.messages[1]!.content).toContain(`<ocr>\n${r.body.ocrText}\n</ocr>`);
  });

  it('reads a receipt: shop, date, items with prices and total', async () => {
    const r = await task(receipt, 'receipt');
    expect(r.status).toBe(200);
    expect(ajv.validate(TASK_SCHEMAS.receipt, r.body.result)).toBe(true);
    expect(r.body.result).toEqual(RECEIPT);
  });

  it('reads a photo taken sideways (EXIF orientation 6) the right way up', async () => {
    const r = await task(await sidewaysReceiptJpeg(), 'receipt');
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual(RECEIPT);
    // the model is sent the picture upright: wider than tall, as the receipt was drawn
    const seen = await sentPicture(chats()[0]!);
    expect(seen.width!).toBeGreaterThan(seen.height!);
    expect(seen.orientation ?? 1).toBe(1);
  });

  it('reads a product label or rating plate into its fields', async () => {
    const r = await task(await labelJpeg(), 'label', []);
    expect(r.status).toBe(200);
    expect(ajv.validate(TASK_SCHEMAS.label, r.body.result)).toBe(true);
    expect(r.body.result).toMatchObject({ brand: 'NORDWASH', model: 'WM-8420X', serial: 'SN4829301775', fields: { 'Rated power': '2100W' } });
  });

  it("answers in the caller's own schema", async () => {
    // a field may be called pattern (only the keyword is refused)
    const schema = { type: 'object', properties: { colour: { type: 'string' }, count: { type: 'integer', minimum: 2 }, pattern: { type: 'string' } }, required: ['colour', 'count'], additionalProperties: false };
    const r = await task(await plainPhoto(400, 300), 'schema', [{ name: 'schema', value: JSON.stringify(schema) }]);
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({ colour: 'example', count: 2, pattern: 'example' });
    expect(chats()[0]!.format).toEqual(schema);
  });

  it('asks once more when the answer breaks the schema, then gives up with 422 vision_unreadable', async () => {
    fake.schemaMode = 'break-once';
    const once = await task(await plainPhoto(400, 300), 'describe');
    expect(once.status).toBe(200);
    expect(ajv.validate(TASK_SCHEMAS.describe, once.body.result)).toBe(true);
    expect(chats()).toHaveLength(2);
    expect(chats()[1]!.messages.at(-1)!.content).toMatch(/did not fit the JSON schema/);
    fake.requests.length = 0;
    fake.schemaMode = 'break-always';
    const never = await task(receipt, 'receipt');
    expect(never.status).toBe(422);
    expect(never.body.error).toMatchObject({ code: 'vision_unreadable', message: expect.stringMatching(/sharper photo/) });
    expect(chats()).toHaveLength(2);
  });

  it('keeps nothing unless asked; a kept result is the member’s alone', async () => {
    const before = await filesUnder(s.dataDir);
    const plain = await task(receipt, 'receipt');
    expect(plain.status).toBe(200);
    expect(await s.handle.deps.db('vision_results').count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await filesUnder(s.dataDir)).toEqual(before);

    const kept = await task(receipt, 'receipt', [{ name: 'store', value: 'true' }]);
    expect(kept.status).toBe(200);
    const id = kept.body.id as string;
    expect(id).toEqual(expect.any(String));
    expect((await s.member.get(`/api/vision/results/${id}`)).body.result).toMatchObject({ id, task: 'receipt', result: RECEIPT });
    expect((await s.member.get('/api/vision/results')).body.results.map((x: { id: string }) => x.id)).toEqual([id]);
    // another member (the admin too) sees no such result
    expect((await s.admin.get(`/api/vision/results/${id}`)).status).toBe(404);
    expect((await s.admin.delete(`/api/vision/results/${id}`)).status).toBe(404);
    expect((await s.admin.get('/api/vision/results')).body.results).toEqual([]);
    expect((await s.member.delete(`/api/vision/results/${id}`)).status).toBe(204);
    expect((await s.member.get(`/api/vision/results/${id}`)).status).toBe(404);
  });

  it('refuses anyone not signed in', async () => {
    const anon = new TestClient(s.url);
    expect((await postForm(s.url, { ...anon, cookie: 'session=nope' } as TestClient, '/api/vision/analyze', [{ name: 'task', value: 'describe' }, photo(receipt)])).status).toBe(401);
    expect((await anon.get('/api/vision/results')).status).toBe(401);
    expect((await anon.get('/api/vision/status')).status).toBe(401);
    expect((await anon.get('/api/vision/results/x')).status).toBe(401);
    expect((await anon.delete('/api/vision/results/x')).status).toBe(401);
  });

  it('refuses bad input with a sentence and asks nothing of the model', async () => {
    const png = await plainPhoto(200, 100);
    const cases: Array<[FormPart[], number, RegExp]> = [
      [[photo(png)], 400, /task/i],
      [[{ name: 'task', value: 'poem' }, photo(png)], 400, /task/i],
      [[{ name: 'task', value: 'describe' }], 400, /no photo/],
      [[{ name: 'task', value: 'schema' }, photo(png)], 400, /needs a schema/],
      [[{ name: 'task', value: 'schema' }, { name: 'schema', value: '{"type": "object",' }, photo(png)], 400, /not valid JSON/],
      [[{ name: 'task', value: 'schema' }, { name: 'schema', value: '[1, 2]' }, photo(png)], 400, /"type": "object"/],
      [[{ name: 'task', value: 'schema' }, { name: 'schema', value: '{"type": "object", "properties": {"a": {"type": "strang"}}}' }, photo(png)], 400, /not a JSON schema Hearth can use/],
      [[{ name: 'task', value: 'schema' }, { name: 'schema', value: JSON.stringify({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } }) }, photo(png)], 400, /does not take patterns/],
      [[{ name: 'task', value: 'schema' }, { name: 'schema', value: JSON.stringify({ type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } }) }, photo(png)], 400, /not a JSON schema Hearth can use/],
      [[{ name: 'task', value: 'schema' }, { name: 'schema', value: JSON.stringify({ type: 'object', description: 'x'.repeat(4_200) }) }, photo(png)], 400, /larger than 4 KB/],
      [[{ name: 'task', value: 'schema' }, { name: 'schema', value: JSON.stringify({ type: 'object', description: 'x'.repeat(9_000) }) }, photo(png)], 400, /larger than 4 KB/],
      [[{ name: 'task', value: 'describe' }, photo(Buffer.from('just some words, not a picture'), 'text/plain')], 400, /not a picture/],
      [[{ name: 'task', value: 'describe' }, photo(Buffer.from(receiptSvgBytes()), 'image/svg+xml')], 400, /not a picture/],
      [[{ name: 'task', value: 'describe' }, photo((await labelJpeg()).subarray(0, 3_000), 'image/jpeg')], 422, /damaged/],
    ];
    for (const [parts, status, sentence] of cases) {
      const r = await analyze(parts);
      expect([r.status, r.body.error?.message]).toEqual([status, expect.stringMatching(sentence)]);
    }
    const notForm = await s.member.post('/api/vision/analyze', { task: 'describe' });
    expect(notForm.status).toBe(400);
    const huge = await task(Buffer.alloc(16 * 1024 * 1024, 1), 'describe');
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toMatch(/larger than 15 MB/);
    expect(chats()).toEqual([]);
  });

  it('says how to add a vision model when none is installed', async () => {
    fake.models = [CHAT_MODEL, EMBEDDING_MODEL];
    expect((await s.member.get('/api/vision/status')).body).toEqual({ model: null, unavailable: expect.stringMatching(/No model that can look at pictures/) });
    const r = await task(receipt, 'describe');
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'no_vision_model', message: expect.stringMatching(/Admin › Models/) });
  });

  it('hands a photo attached in chat to the vision model, so a chat model that cannot see can fill the shopping list', async () => {
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    fake.visionDescription = 'An open fridge with a few things on its shelves.';
    fake.visionObjects = ['milk', 'eggs', 'butter'];
    // the chat model (it has tools, not eyes) reads what the vision model saw and calls the shopping tool
    fake.toolScript = (req) => {
      const last = req.messages.at(-1);
      const seen = /Things seen: ([^.\]]+)/.exec(String(last?.content ?? ''))?.[1];
      return req.model === CHAT_MODEL.name && last?.role === 'user' && seen ? [{ function: { name: 'shopping_list', arguments: { action: 'add', items: seen.split(', ') } } }] : null;
    };
    try {
      const fridge = await plainPhoto(800, 600);
      const answer = await ask(s.member, { message: 'What is in my fridge, as a shopping list?', images: [fridge.toString('base64')] });
      expect(answer.status).toBe(200);
      expect(answer.names).toContain('done');
      const looked = chats().find((c) => c.model === VISION_MODEL.name)!;
      expect(looked.format).toEqual(TASK_SCHEMAS.describe);
      expect(looked.messages[1]!.images).toHaveLength(1);
      const first = chats().find((c) => c.model === CHAT_MODEL.name)!;
      expect(first.messages.flatMap((m) => m.images ?? [])).toEqual([]);
      expect(first.messages.at(-1)!.content).toContain("What is in my fridge, as a shopping list?\n\n[The attached photo, as the household's vision model saw it: An open fridge with a few things on its shelves.\nThings seen: milk, eggs, butter.]");
      const lists = (await s.member.get('/api/shopping/lists')).body.lists as Array<{ id: string }>;
      const detail = (await s.member.get(`/api/shopping/lists/${lists[0]!.id}`)).body as { items: Array<{ name: string }> };
      expect(detail.items.map((i) => i.name)).toEqual(['milk', 'eggs', 'butter']);
      // the photo is kept with the message (as chat keeps photos); the analysis is not kept on its own
      expect(await s.handle.deps.db('vision_results').count({ n: '*' })).toEqual([{ n: 0 }]);
    } finally {
      fake.toolScript = null;
      fake.visionDescription = CANNED_DESCRIPTION;
    }
    // no vision model: the chat model cannot look and says so before anything is saved
    fake.models = [CHAT_MODEL, EMBEDDING_MODEL];
    const refused = await ask(s.member, { message: 'And this one?', images: [(await plainPhoto(100, 100)).toString('base64')] });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'model_cannot_see']);
  });

  it('works on two photos at once for the household; a third meanwhile is told to try again (429), and a place frees when one is answered', async () => {
    const png = await plainPhoto(300, 200);
    await fake.setMode('slow', { slowMs: 3_000, only: '/api/chat' });
    const first = [task(png, 'describe'), task(png, 'describe')];
    // both reached the model runtime: they hold the household's two places
    const arrived = async () => fake.requests.filter((q) => q.path === '/api/chat').length;
    for (let i = 0; i < 200 && (await arrived()) < 2; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await arrived()).toBe(2);
    const busy = await task(png, 'describe');
    expect([busy.status, busy.body.error.code]).toEqual([429, 'vision_busy']);
    expect(busy.body.error.message).toMatch(/Try again in a moment/);
    expect(busy.body.error.details).toEqual({ retryAfterSeconds: 5 });
    expect(await arrived()).toBe(2);
    // the two end (the model is slower than the 1.5 s budget here), which frees both places
    expect((await Promise.all(first)).map((r) => r.status)).toEqual([504, 504]);
    await fake.setMode('ok');
    expect((await task(png, 'describe')).status).toBe(200);
  });

  it('answers with a sentence when the model runtime is down, slow, cut off or sends garbage', async () => {
    const png = await plainPhoto(300, 200);
    await fake.setMode('down');
    const down = await task(png, 'describe');
    expect([down.status, down.body.error.code]).toEqual([503, 'model_runtime_unavailable']);
    expect((await s.member.get('/api/vision/status')).body).toEqual({ model: null, unavailable: expect.stringMatching(/Start Ollama/) });
    await fake.setMode('slow', { slowMs: 3_000, only: '/api/chat' });
    const slow = await task(png, 'describe');
    expect([slow.status, slow.body.error.code]).toEqual([504, 'model_timeout']);
    await fake.setMode('cut', { only: '/api/chat' });
    const cut = await task(png, 'describe');
    expect(cut.status).toBeGreaterThanOrEqual(502);
    expect(cut.body.error.message).toMatch(/AI model/);
    await fake.setMode('garbage', { only: '/api/chat' });
    const garbage = await task(png, 'describe');
    expect([garbage.status, garbage.body.error.message]).toEqual([502, expect.stringMatching(/could not read/)]);
  });
});

function receiptSvgBytes(): string {
  return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
}
