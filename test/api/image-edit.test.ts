// Local edits over HTTP: auto colour and adjust run in Hearth (a worker thread with sharp, never
// the engine), streamed as start then done (or error), the result stored as the member's `edited`
// picture; from an upload or one of the member's own pictures (another member's is 404); bad input
// is a 4xx before the stream opens. Reference faces: multipart picture to a private refId.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBytes, postForm, type FormPart } from '../harness/multipart.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { ImageGenStore } from '../../server/modules/image-gen/store.js';

/** `event:`/`data:` frames of a finished stream. */
function eventsOf(text: string): { event: string; data: any }[] {
  return text
    .split('\n\n')
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      return event && data ? { event, data: JSON.parse(data) } : null;
    })
    .filter((e): e is { event: string; data: any } => e !== null);
}

describe('image edits (local)', () => {
  let s: TestServer;
  let photo: Buffer;
  const edit = (parts: FormPart[], client = () => s.member) => postForm(s.url, client(), '/api/image/edit', parts);
  const file = (bytes: Buffer, name = 'photo.jpg'): FormPart => ({ name: 'file', filename: name, type: 'image/jpeg', bytes });

  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
    // a bluish 64 × 48 photo: auto colour pulls it back toward grey
    photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 110, b: 180 } } }).jpeg().toBuffer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('auto-color streams start then done, and the edited picture is the member\'s own', async () => {
    const res = await edit([{ name: 'op', value: 'auto-color' }, file(photo)]);
    expect(res.status).toBe(200);
    const events = eventsOf(res.text);
    expect(events.map((e) => e.event)).toEqual(['start', 'done']);
    expect(events[0]!.data).toMatchObject({ isAdult: false, position: null, artifact: { kind: 'edited', pipeline: 'auto_color', state: 'building' } });
    const done = events[1]!.data.artifact;
    expect(done).toMatchObject({ kind: 'edited', pipeline: 'auto_color', state: 'ready', width: 64, height: 48, contentType: 'image/png' });

    const pic = await getBytes(s.url, s.member, done.url);
    expect(pic.status).toBe(200);
    expect(pic.type).toBe('image/png');
    const px = await sharp(pic.bytes).raw().toBuffer();
    // the blue cast is gone: red and blue closer together than before (90 vs 180)
    expect(Math.abs(px[0]! - px[2]!)).toBeLessThan(90);
    expect((await s.admin.get(done.url)).status).toBe(404);
    const history = await s.member.get('/api/image/history?kind=edited');
    expect(history.body.items.map((a: { id: string }) => a.id)).toContain(done.id);
    // the upload itself is not kept
    expect(readdirSync(path.join(s.dataDir, 'images', s.users.member.id)).filter((n) => n.startsWith('.upload-'))).toEqual([]);
  });

  it('adjust from one of the member\'s own pictures: turned a quarter, its source remembered', async () => {
    const first = eventsOf((await edit([{ name: 'op', value: 'auto-color' }, file(photo)])).text).at(-1)!.data.artifact;
    const res = await edit([{ name: 'op', value: 'adjust' }, { name: 'sourceId', value: first.id }, { name: 'rotate', value: '90' }, { name: 'brightness', value: '20' }]);
    const events = eventsOf(res.text);
    expect(events.map((e) => e.event)).toEqual(['start', 'done']);
    expect(events[1]!.data.artifact).toMatchObject({ pipeline: 'adjust', sourceId: first.id, width: 48, height: 64, state: 'ready' });
    // someone else's picture is not found, even for an admin
    const other = await edit([{ name: 'op', value: 'adjust' }, { name: 'sourceId', value: first.id }], () => s.admin);
    expect(other.status).toBe(404);
  });

  it('bad input is a 4xx with a sentence before any stream, and leaves nothing behind', async () => {
    const dir = path.join(s.dataDir, 'images', s.users.member.id);
    const before = existsSync(dir) ? readdirSync(dir).sort() : [];
    const cases: [FormPart[], number][] = [
      [[{ name: 'op', value: 'paint' }, file(photo)], 400],
      [[file(photo)], 400],
      [[{ name: 'op', value: 'adjust' }, { name: 'rotate', value: '45' }, file(photo)], 400],
      [[{ name: 'op', value: 'adjust' }, { name: 'brightness', value: '500' }, file(photo)], 400],
      [[{ name: 'op', value: 'adjust' }], 400],
      [[{ name: 'op', value: 'auto-color' }, file(Buffer.from('%PDF-1.4 not a picture'), 'doc.pdf')], 415],
      [[{ name: 'op', value: 'auto-color' }, { name: 'sourceId', value: 'nope' }], 404],
    ];
    for (const [parts, status] of cases) {
      const res = await edit(parts);
      expect(res.status, JSON.stringify(parts.map((p) => p.name))).toBe(status);
      expect(typeof res.body.error.message).toBe('string');
    }
    const json = await s.member.post('/api/image/edit', { op: 'auto-color' });
    expect(json.status).toBe(400);
    expect(existsSync(dir) ? readdirSync(dir).sort() : []).toEqual(before);
  });

  it('a damaged picture that looks like a JPEG fails as an error event, and the row says why', async () => {
    const broken = Buffer.concat([photo.subarray(0, 40), Buffer.alloc(200, 7)]);
    const res = await edit([{ name: 'op', value: 'auto-color' }, file(broken)]);
    expect(res.status).toBe(200);
    const events = eventsOf(res.text);
    expect(events.map((e) => e.event)).toEqual(['start', 'error']);
    expect(events[1]!.data.code).toBe('unsupported_media_type');
    expect(events[1]!.data.message).toMatch(/cannot read that picture/);
    const id = events[0]!.data.id as string;
    const row = await s.member.get(`/api/image/artifacts/${id}`);
    expect(row.body.artifact).toMatchObject({ state: 'failed' });
    expect(row.body.artifact.error).toMatch(/cannot read that picture/);
  });

  it('the engine\'s edits need the engine: a clear 503 while it is not set up', async () => {
    const res = await edit([{ name: 'op', value: 'upscale' }, file(photo)]);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('image_engine_unavailable');
  });

  it('reference-face keeps a picture as a private refId; anything else is refused', async () => {
    const ok = await postForm(s.url, s.member, '/api/image/reference-face', [file(photo, 'me.jpg')]);
    expect(ok.status).toBe(201);
    expect(typeof ok.body.refId).toBe('string');
    const row = await new ImageGenStore(s.handle.deps.db).face(ok.body.refId);
    expect(row?.userId).toBe(s.users.member.id);
    expect(existsSync(path.join(s.dataDir, 'images', row!.filePath))).toBe(true);
    const bad = await postForm(s.url, s.member, '/api/image/reference-face', [file(Buffer.from('hello'), 'x.txt')]);
    expect(bad.status).toBe(415);
    const none = await postForm(s.url, s.member, '/api/image/reference-face', [{ name: 'note', value: 'x' }]);
    expect(none.status).toBe(400);
  });

  it('reference-face decodes the picture before keeping it: a picture\'s first bytes over anything else are 422, not a picture 415, each with a sentence and no file left', async () => {
    const folder = path.join(s.dataDir, 'images', s.users.member.id);
    mkdirSync(folder, { recursive: true });
    const before = readdirSync(folder).sort();
    const faces = async () => (await s.handle.deps.db('image_reference_faces').count<Array<{ n: number }>>({ n: '*' }))[0]!.n;
    const rows = await faces();
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#888' } }).png().toBuffer();
    const undecodable: Record<string, Buffer> = {
      'GIF89a then text': Buffer.from('GIF89a this is a note, not a picture of anybody\n'),
      'a PNG signature then text': Buffer.concat([png.subarray(0, 8), Buffer.from('not the rest of a png at all')]),
      'a JPEG cut after its first bytes': photo.subarray(0, 40),
      'a PNG cut in half': png.subarray(0, Math.floor(png.length / 2)),
    };
    for (const [what, bytes] of Object.entries(undecodable)) {
      const res = await postForm(s.url, s.member, '/api/image/reference-face', [file(bytes, 'face.gif')]);
      expect(res.status, what).toBe(422);
      expect(res.body.error, what).toEqual({ code: 'unreadable_picture', message: expect.stringMatching(/could not be read.*another photo/) });
    }
    const text = await postForm(s.url, s.member, '/api/image/reference-face', [file(Buffer.from('just some words'), 'face.jpg')]);
    expect(text.status).toBe(415);
    expect(text.body.error.message).toMatch(/not a picture.*JPEG, PNG or WebP/);
    expect(readdirSync(folder).sort()).toEqual(before);
    expect(await faces()).toBe(rows);
  });
});
