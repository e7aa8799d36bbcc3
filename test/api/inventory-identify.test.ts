// POST /api/home/devices/:id/identify against real OCR (tesseract.js on rendered label photos) and
// the Ollama fake's vision and structured answers: the three passes, the strict parse with one
// retry, values believed only when the label shows them, rawLabelText kept and nothing else
// written, and OCR's answer with a sentence when the runtime or a model is missing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { fieldsFromLabel, onLabel } from '../../server/modules/home-inventory/identify-service.js';
import { InventoryFiles } from '../../server/modules/home-inventory/files.js';
import { HomeInventoryStore, type DeviceRecord } from '../../server/modules/home-inventory/store.js';
import { CANNED_DESCRIPTION, CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { insertDevice } from '../fixtures/inventory/devices.js';
import { blurryLabelJpeg, labelJpeg, plateSvg, sidewaysLabelJpeg, WASHER_PLATE } from '../fixtures/inventory/labels.js';
import { addPdf, addPhoto } from '../fixtures/inventory/photos.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const PLATE_TEXT = ['NORDWASH', 'Model: WM-8420X', 'Serial No: SN4829301775', 'Rated voltage: 220-240V ~ 50Hz', 'Rated power: 2100W', 'Manufactured: 2023-04'].join('\n');

describe('identify', () => {
  let fake: FakeModelRuntime;
  let s: TestServer;
  let store: HomeInventoryStore;
  let files: InventoryFiles;
  const chats = () => fake.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as FakeChatRequest);
  const identify = (id: string, body: unknown = {}) => s.member.post(`/api/home/devices/${id}/identify`, body);
  async function deviceWithLabel(photo: Buffer, over: Partial<DeviceRecord> = {}): Promise<DeviceRecord> {
    const d = await insertDevice(store, { name: 'New device', brand: null, model: null, ...over });
    await addPhoto(store, files, d.id, photo, { main: true });
    return d;
  }

  beforeAll(async () => {
    fake = await startFakeModelRuntime({ chunkDelayMs: 0 });
    s = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: fake.url }) } });
    store = new HomeInventoryStore(s.handle.deps.db);
    files = new InventoryFiles(s.dataDir);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    await fake.setMode('ok');
    fake.models = [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL];
    fake.chatReply = null;
    fake.garbageJsonReplies = 0;
    fake.visionTranscript = 'I cannot read any text in this picture.';
    fake.requests.length = 0;
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
  });

  it('reads a label photo into fields for review: OCR, the form from the vision model, the text model reconciling', async () => {
    const d = await deviceWithLabel(await labelJpeg());
    const r = await identify(d.id);
    expect(r.status).toBe(200);
    expect(r.body.fields).toEqual({
      name: 'Washing machine',
      brand: 'NORDWASH',
      model: 'WM-8420X',
      serialNumber: 'SN4829301775',
      category: 'appliance',
      manufacturedDate: '2023-04',
      countryOfOrigin: null,
      labelSpecs: { 'Rated voltage': '220-240V ~ 50Hz', 'Rated power': '2100W' },
      confidence: 0.9,
    });
    expect(r.body.rawLabelText).toBe(PLATE_TEXT);
    expect(r.body.passes).toMatchObject({ transcription: false, description: CANNED_DESCRIPTION, reconcile: true });
    expect(r.body.passes.ocr.chars).toBeGreaterThan(40);
    // OCR read enough: the vision model only described the form, with the photo and no text asked for
    const vision = chats().filter((c) => c.messages.some((m) => m.images?.length));
    expect(vision).toHaveLength(1);
    expect(vision[0]!.model).toBe(VISION_MODEL.name);
    expect(vision[0]!.messages[0]!.content).toMatch(/physical form/);
    // the text model got the label text and the description, and a JSON schema to answer in
    const reconcile = chats().find((c) => c.format !== undefined)!;
    expect(reconcile.model).toBe(CHAT_MODEL.name);
    expect(reconcile.messages.map((m) => m.images ?? []).flat()).toEqual([]);
    expect(reconcile.messages[1]!.content).toContain('Serial No: SN4829301775');
    expect(reconcile.messages[1]!.content).toContain(CANNED_DESCRIPTION);
    expect(reconcile.format).toMatchObject({ type: 'object', required: expect.arrayContaining(['serialNumber', 'labelSpecs', 'confidence']) });
    // only the label text is written; the member confirms the rest
    const after = (await store.getDevice(d.id))!;
    expect(after.rawLabelText).toBe(PLATE_TEXT);
    expect(after).toMatchObject({ name: 'New device', brand: null, model: null, serialNumber: null });
  });

  it('reads a photo taken sideways (EXIF orientation) chosen by fileId', async () => {
    const d = await deviceWithLabel(await labelJpeg({ ...WASHER_PLATE, serial: 'SN0000000001' }));
    const sideways = await addPhoto(store, files, d.id, await sidewaysLabelJpeg());
    const r = await identify(d.id, { fileId: sideways.id });
    expect(r.status).toBe(200);
    expect(r.body.fields).toMatchObject({ model: 'WM-8420X', serialNumber: 'SN4829301775' });
  });

  it('asks the vision model to transcribe a label OCR cannot read, and keeps that text', async () => {
    fake.visionTranscript = PLATE_TEXT;
    const d = await deviceWithLabel(await blurryLabelJpeg());
    const r = await identify(d.id);
    expect(r.status).toBe(200);
    expect(r.body.passes.ocr.chars).toBeLessThan(20);
    expect(r.body.passes.transcription).toBe(true);
    expect(r.body.rawLabelText).toBe(PLATE_TEXT);
    expect(r.body.fields).toMatchObject({ model: 'WM-8420X', serialNumber: 'SN4829301775' });
    expect(chats().filter((c) => c.messages.some((m) => m.images?.length))).toHaveLength(2);
    expect((await store.getDevice(d.id))!.rawLabelText).toBe(PLATE_TEXT);
  });

  it('asks once more when the text model answers with garbage, then reads the label\'s own lines', async () => {
    const d = await deviceWithLabel(await labelJpeg());
    fake.garbageJsonReplies = 1;
    const once = await identify(d.id);
    expect(once.body.passes.reconcile).toBe(true);
    expect(chats().filter((c) => c.format !== undefined)).toHaveLength(2);
    fake.garbageJsonReplies = 2;
    const twice = await identify(d.id);
    expect(twice.status).toBe(200);
    expect(twice.body.passes.reconcile).toBe(false);
    expect(twice.body.fields).toMatchObject({ brand: 'NORDWASH', model: 'WM-8420X', serialNumber: 'SN4829301775', manufacturedDate: '2023-04', confidence: 0 });
    expect(s.logger.lines.some((l) => /did not answer identify with the JSON/.test(String(l.msg)))).toBe(true);
  });

  it('does not believe a model or serial the label does not show', async () => {
    const d = await deviceWithLabel(await labelJpeg());
    fake.chatReply = (req) =>
      req.format !== undefined
        ? JSON.stringify({ name: 'Washer', brand: 'Nordwash', model: 'WM-9999', serialNumber: 'INVENTED123', category: 'appliance', manufacturedDate: null, labelSpecs: { Colour: 'white' }, confidence: 0.95 })
        : 'A washing machine.';
    const r = await identify(d.id);
    // the brand differs only in case: it is on the label; the rest, and the gaps, come from the label's lines
    expect(r.body.fields).toMatchObject({ name: 'Washer', brand: 'Nordwash', model: 'WM-8420X', serialNumber: 'SN4829301775', manufacturedDate: '2023-04' });
    expect(r.body.fields.labelSpecs).not.toHaveProperty('Colour');
  });

  it('still answers with what OCR read when the runtime is down: 503, a sentence, the fields from the label', async () => {
    const d = await deviceWithLabel(await labelJpeg());
    await fake.setMode('down');
    const r = await identify(d.id);
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('model_runtime_unavailable');
    expect(r.body.error.message).toMatch(/isn't running.*Check the fields below/);
    expect(r.body.error.details.rawLabelText).toBe(PLATE_TEXT);
    expect(r.body.error.details.fields).toMatchObject({ brand: 'NORDWASH', model: 'WM-8420X', serialNumber: 'SN4829301775', confidence: 0 });
    expect((await store.getDevice(d.id))!.rawLabelText).toBe(PLATE_TEXT);
  });

  it('answers from the label\'s own lines when the models stop in the middle of their answers', async () => {
    const d = await deviceWithLabel(await labelJpeg());
    await fake.setMode('error-line', { only: '/api/chat' });
    const r = await identify(d.id);
    // an answer cut off is not the runtime gone: no description, no reconcile, the label's lines
    expect(r.status).toBe(200);
    expect(r.body.passes).toMatchObject({ description: null, reconcile: false });
    expect(r.body.fields).toMatchObject({ model: 'WM-8420X', serialNumber: 'SN4829301775', confidence: 0 });
  });

  it('keeps the maker apart from what the device is, and where it was made apart from when', async () => {
    const plate = { brand: 'BOSCH Washing Machine', model: 'WAN28281GB', serial: 'SN7734501234', made: '2023-04', origin: 'Germany' };
    // the label alone (the runtime down): its own lines
    await fake.setMode('down');
    const d1 = await deviceWithLabel(await labelJpeg(plate));
    const alone = await identify(d1.id);
    expect(alone.status).toBe(503);
    expect(alone.body.error.details.fields).toMatchObject({ brand: 'BOSCH', model: 'WAN28281GB', manufacturedDate: '2023-04', countryOfOrigin: 'Germany', name: 'BOSCH WAN28281GB' });
    // a text model that puts the whole first line in brand and the country in the date
    await fake.setMode('ok');
    fake.chatReply = (req) =>
      req.format !== undefined
        ? JSON.stringify({ name: 'Washing machine', brand: 'BOSCH Washing Machine', model: 'WAN28281GB', serialNumber: 'SN7734501234', category: 'appliance', manufacturedDate: 'Germany', labelSpecs: {}, confidence: 0.8 })
        : 'A front-loading washing machine.';
    const d2 = await deviceWithLabel(await labelJpeg(plate));
    const r = await identify(d2.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.fields).toMatchObject({ name: 'Washing machine', brand: 'BOSCH', model: 'WAN28281GB', manufacturedDate: '2023-04', countryOfOrigin: 'Germany' });
  });

  it('409 with a sentence when no chat model is chosen, and when nothing can see a label OCR cannot read', async () => {
    const d = await deviceWithLabel(await labelJpeg());
    await s.handle.deps.settings.set('chat_model', '');
    const noChat = await identify(d.id);
    expect(noChat.status).toBe(409);
    expect(noChat.body.error).toMatchObject({ code: 'no_chat_model', details: { fields: { serialNumber: 'SN4829301775' } } });
    await s.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    fake.models = [CHAT_MODEL, EMBEDDING_MODEL];
    // a readable label needs no vision model: no description, still reconciled
    const readable = await identify(d.id);
    expect(readable.status).toBe(200);
    expect(readable.body.passes).toMatchObject({ description: null, transcription: false, reconcile: true });
    const blurry = await deviceWithLabel(await blurryLabelJpeg());
    const r = await identify(blurry.id);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('no_vision_model');
    expect(r.body.error.message).toMatch(/sharper, closer photo/);
  });

  it('refuses what it cannot read with a sentence: no photo, not a photo, another device\'s file, no device, no sign-in', async () => {
    const bare = await insertDevice(store, { name: 'Kettle' });
    const none = await identify(bare.id);
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/no photo yet/);
    const pdf = await addPdf(store, files, bare.id, Buffer.from('%PDF-1.4\n%%EOF\n'));
    expect((await identify(bare.id, { fileId: pdf.id })).body.error).toMatchObject({ code: 'not_an_image' });
    const other = await deviceWithLabel(await labelJpeg());
    const otherPhoto = (await store.listFiles(other.id))[0]!;
    expect((await identify(bare.id, { fileId: otherPhoto.id })).status).toBe(404);
    expect((await identify('no-such-device')).status).toBe(404);
    expect((await identify(bare.id, { fileId: '' })).status).toBe(400);
    expect((await identify(bare.id, { extra: 1 })).status).toBe(400);
    expect((await s.anon.post(`/api/home/devices/${bare.id}/identify`, {})).status).toBe(401);
    expect(fake.requests.filter((r) => r.path === '/api/chat')).toHaveLength(0);
  });
});

describe('reading a label without a model', () => {
  it('takes model, serial, date and ratings from the label\'s lines', () => {
    expect(fieldsFromLabel(PLATE_TEXT)).toEqual({
      name: 'NORDWASH WM-8420X',
      brand: 'NORDWASH',
      model: 'WM-8420X',
      serialNumber: 'SN4829301775',
      category: null,
      manufacturedDate: '2023-04',
      countryOfOrigin: null,
      labelSpecs: { 'Rated voltage': '220-240V ~ 50Hz', 'Rated power': '2100W' },
      confidence: 0,
    });
    expect(fieldsFromLabel('Type: KX 12\nS/N 99AB-1234\nMfg. date: 03/2021')).toMatchObject({ brand: null, model: 'KX 12', serialNumber: '99AB-1234', manufacturedDate: '03/2021' });
    expect(fieldsFromLabel('')).toMatchObject({ model: null, serialNumber: null, labelSpecs: {} });
    expect(plateSvg(WASHER_PLATE)).toContain('WM-8420X');
  });

  it('finds a value in the label whatever its spacing and case, and nothing else', () => {
    expect(onLabel('sn 4829301775', PLATE_TEXT)).toBe(true);
    expect(onLabel('WM8420X', PLATE_TEXT)).toBe(true);
    expect(onLabel('WM-9999', PLATE_TEXT)).toBe(false);
    expect(onLabel('', PLATE_TEXT)).toBe(false);
  });
});
