// The inventory's photos and files over HTTP: uploads streamed to disk and typed by their first
// bytes (EXIF orientation applied, a thumbnail made; HEIC 415; too large 413 with nothing left),
// the main photo, downloads with safe headers, comments, deletion, the manual, and the path guard.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../server/modules/home-inventory/schema.js';
import type { TestClient } from '../harness/client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { HomeInventoryStore } from '../../server/modules/home-inventory/store.js';

/** A multipart/form-data body, as a browser builds it. */
function multipart(parts: Array<{ name: string; value: string } | { name: string; filename: string; type: string; bytes: Buffer }>): { body: Buffer; type: string } {
  const boundary = `----hearth${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('filename' in p) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`), p.bytes, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

async function post(s: TestServer, client: TestClient, p: string, form: { body: Buffer; type: string }) {
  const res = await request(`${s.url}${p}`, { method: 'POST', body: form.body, headers: { cookie: client.cookie!, origin: s.url, 'content-type': form.type } });
  const text = await res.body.text();
  return { status: res.statusCode, body: String(res.headers['content-type']).includes('json') ? JSON.parse(text) : text };
}

/** A multipart upload as the web app sends it. */
function upload(s: TestServer, client: TestClient, deviceId: string, file: { bytes: Buffer; name: string; type?: string }, fields: Record<string, string> = {}) {
  const form = multipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename: file.name, type: file.type ?? 'application/octet-stream', bytes: file.bytes },
  ]);
  return post(s, client, `/api/home/devices/${deviceId}/files`, form);
}

/** Raw bytes of a GET, with headers. */
async function download(s: TestServer, client: TestClient, p: string) {
  const res = await request(`${s.url}${p}`, { headers: { cookie: client.cookie! } });
  const h = res.headers;
  return { status: res.statusCode, headers: { get: (k: string) => (h[k] === undefined ? null : String(h[k])) }, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

describe('home inventory: photos and files', () => {
  let s: TestServer;
  let landscapeWithExif6: Buffer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
    // 300x200 pixels stored, EXIF orientation 6: a viewer shows it 200 wide and 300 tall
    landscapeWithExif6 = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
  });
  afterAll(() => s.close());
  beforeEach(async () => {
    await s.handle.deps.db('home_devices').delete();
  });

  const device = async (name = 'Washing machine') => (await s.member.post('/api/home/devices', { name })).body.device.id as string;
  const folder = (id: string) => path.join(s.dataDir, 'home-inventory', id);
  const filesIn = (id: string) => (existsSync(folder(id)) ? readdirSync(folder(id)) : []);
  const rows = async (id: string) => s.handle.deps.db('home_device_files').where({ device_id: id });

  it('stores a photo upright (EXIF orientation applied), makes a thumbnail, and makes the first photo the main one', async () => {
    expect((await sharp(landscapeWithExif6).metadata()).orientation).toBe(6);
    const id = await device();
    const r = await upload(s, s.member, id, { bytes: landscapeWithExif6, name: 'IMG_0001.JPG', type: 'image/jpeg' }, { comment: 'Front' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const f = r.body.file;
    expect(f).toMatchObject({ fileType: 'image', contentType: 'image/jpeg', source: 'user', comment: 'Front', label: 'IMG_0001.JPG' });
    expect(f.url).toBe(`/api/home/devices/${id}/files/${f.id}`);
    expect(f.thumbUrl).toBe(`${f.url}?thumb=1`);

    const stored = await download(s, s.member, f.url);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toBe('image/jpeg');
    expect(stored.headers.get('x-content-type-options')).toBe('nosniff');
    expect(stored.headers.get('content-disposition')).toMatch(/^inline; filename="IMG_0001.JPG"/);
    const meta = await sharp(stored.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([200, 300]);
    expect(meta.orientation ?? 1).toBe(1);

    const thumb = await download(s, s.member, f.thumbUrl);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const tm = await sharp(thumb.bytes).metadata();
    expect(tm.format).toBe('webp');
    expect(tm.height).toBeGreaterThan(tm.width!);

    const d = (await s.member.get(`/api/home/devices/${id}`)).body.device;
    expect(d.mainPhotoId).toBe(f.id);
    expect(d.photoUrl).toBe(`/api/home/devices/${id}/photo?thumb=1`);
    expect(d.files).toHaveLength(1);
    const photo = await download(s, s.member, `/api/home/devices/${id}/photo`);
    expect(photo.status).toBe(200);
    expect(photo.bytes.equals(stored.bytes)).toBe(true);
    expect((await download(s, s.member, d.photoUrl)).headers.get('content-type')).toBe('image/webp');
  });

  it('role main makes a later photo the main one; set-main-photo switches back and refuses a non-photo', async () => {
    const id = await device();
    const first = (await upload(s, s.member, id, { bytes: landscapeWithExif6, name: 'a.jpg' })).body.file;
    const png = await sharp({ create: { width: 10, height: 10, channels: 4, background: '#00f' } }).png().toBuffer();
    const second = (await upload(s, s.admin, id, { bytes: png, name: 'b.png' }, { role: 'main', label: 'Label plate' })).body.file;
    expect(second).toMatchObject({ label: 'Label plate', contentType: 'image/png' });
    expect((await s.member.get(`/api/home/devices/${id}`)).body.device.mainPhotoId).toBe(second.id);
    const back = await s.member.post(`/api/home/devices/${id}/set-main-photo`, { fileId: first.id });
    expect(back.status).toBe(200);
    expect(back.body.device.mainPhotoId).toBe(first.id);
    const pdf = (await upload(s, s.member, id, { bytes: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), name: 'manual.pdf' })).body.file;
    expect(pdf.fileType).toBe('pdf');
    expect((await s.member.post(`/api/home/devices/${id}/set-main-photo`, { fileId: pdf.id })).status).toBe(400);
    expect((await s.member.post(`/api/home/devices/${id}/set-main-photo`, { fileId: 'nope' })).status).toBe(404);
    const notPhoto = await upload(s, s.member, id, { bytes: Buffer.from('%PDF-1.4\n'), name: 'x.pdf' }, { role: 'main' });
    expect(notPhoto.status).toBe(400);
    expect(await rows(id)).toHaveLength(3);
  });

  it('refuses a HEIC photo with 415 and a sentence, leaving no row and no file', async () => {
    const id = await device();
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(64)]);
    const r = await upload(s, s.member, id, { bytes: heic, name: 'IMG_0002.HEIC', type: 'image/heic' });
    expect(r.status).toBe(415);
    expect(r.body.error.code).toBe('unsupported_media_type');
    expect(r.body.error.message).toMatch(/Most Compatible/);
    expect(await rows(id)).toHaveLength(0);
    expect(filesIn(id)).toEqual([]);
  });

  it('refuses a damaged picture with 415, leaving nothing', async () => {
    const id = await device();
    const broken = Buffer.concat([landscapeWithExif6.subarray(0, 40), Buffer.alloc(200, 7)]);
    const r = await upload(s, s.member, id, { bytes: broken, name: 'broken.jpg', type: 'image/jpeg' });
    expect(r.status).toBe(415);
    expect(await rows(id)).toHaveLength(0);
    expect(filesIn(id)).toEqual([]);
  });

  it('refuses a file over the limit with 413 and a sentence, leaving no row and no partial file', async () => {
    const id = await device();
    const r = await upload(s, s.member, id, { bytes: Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1), name: 'huge.bin' });
    expect(r.status).toBe(413);
    expect(r.body.error.message).toMatch(/larger than 25 MB/);
    expect(await rows(id)).toHaveLength(0);
    expect(filesIn(id)).toEqual([]);
    // the device still takes a normal file afterwards
    expect((await upload(s, s.member, id, { bytes: Buffer.from('hello'), name: 'note.txt' })).status).toBe(201);
  });

  it('stores a text file renamed .jpg as other, never as an image, and downloads it as an attachment', async () => {
    const id = await device();
    const r = await upload(s, s.member, id, { bytes: Buffer.from('<script>alert(1)</script> not a photo'), name: 'photo.jpg', type: 'image/jpeg' });
    expect(r.status).toBe(201);
    expect(r.body.file).toMatchObject({ fileType: 'other', contentType: 'application/octet-stream', thumbUrl: null });
    const got = await download(s, s.member, r.body.file.url);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="photo.jpg"/);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect((await download(s, s.member, `${r.body.file.url}?thumb=1`)).status).toBe(404);
    // not a photo, so not the main one
    expect((await s.member.get(`/api/home/devices/${id}`)).body.device.mainPhotoId).toBeNull();
    expect((await download(s, s.member, `/api/home/devices/${id}/photo`)).status).toBe(404);
  });

  it('names downloads safely from the label', async () => {
    const id = await device();
    const r = await upload(s, s.member, id, { bytes: Buffer.from('%PDF-1.4\n'), name: 'x.pdf' }, { label: 'Receipt "2025"\r\n../../etc/passwd' });
    expect(r.status).toBe(201);
    const got = await download(s, s.member, r.body.file.url);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    const cd = got.headers.get('content-disposition')!;
    expect(cd).toMatch(/^inline; filename="[\w .-]+\.pdf"/);
    expect(cd).not.toMatch(/[\r\n]|\.\.\//);
  });

  it('hands an uploaded PDF to the manual extraction only while the device has no manual text', async () => {
    const calls: string[] = [];
    const files = s.handle.deps.home.files as unknown as { deps: { manuals: { fromUploadedFile(d: string, f: string): void } } };
    const real = files.deps.manuals;
    files.deps.manuals = { fromUploadedFile: (_d, f) => void calls.push(f) };
    try {
      const id = await device();
      const a = (await upload(s, s.member, id, { bytes: Buffer.from('%PDF-1.4\n'), name: 'a.pdf' })).body.file;
      expect(calls).toEqual([a.id]);
      await new HomeInventoryStore(s.handle.deps.db).updateDevice(id, { manualText: 'Descale every month.' });
      await upload(s, s.member, id, { bytes: Buffer.from('%PDF-1.4\n'), name: 'b.pdf' });
      expect(calls).toEqual([a.id]);
      await upload(s, s.member, id, { bytes: landscapeWithExif6, name: 'c.jpg' });
      expect(calls).toEqual([a.id]);
    } finally {
      files.deps.manuals = real;
    }
  });

  it('edits a comment, deletes a file (and its thumbnail), and moves the main photo on', async () => {
    const id = await device();
    const a = (await upload(s, s.member, id, { bytes: landscapeWithExif6, name: 'a.jpg' })).body.file;
    const b = (await upload(s, s.member, id, { bytes: landscapeWithExif6, name: 'b.jpg' })).body.file;
    const c = await s.member.patch(`/api/home/devices/${id}/files/${a.id}/comment`, { comment: 'Serial plate' });
    expect(c.body.file.comment).toBe('Serial plate');
    expect((await s.member.patch(`/api/home/devices/${id}/files/${a.id}/comment`, { comment: '' })).body.file.comment).toBeNull();
    expect((await s.member.patch(`/api/home/devices/${id}/files/nope/comment`, { comment: 'x' })).status).toBe(404);
    expect(filesIn(id)).toHaveLength(4);
    expect((await s.member.delete(`/api/home/devices/${id}/files/${a.id}`)).status).toBe(204);
    expect(filesIn(id).sort()).toEqual([`${b.id}.jpg`, `${b.id}.thumb.webp`]);
    expect((await s.member.get(`/api/home/devices/${id}`)).body.device.mainPhotoId).toBe(b.id);
    expect((await s.member.delete(`/api/home/devices/${id}/files/${b.id}`)).status).toBe(204);
    expect((await s.member.get(`/api/home/devices/${id}`)).body.device).toMatchObject({ mainPhotoId: null, photoUrl: null });
    expect((await s.member.delete(`/api/home/devices/${id}/files/${b.id}`)).status).toBe(404);
    expect((await s.member.get(`/api/home/devices/${id}/files`)).body.files).toEqual([]);
  });

  it('serves the cached manual inline as a PDF, 404 with a sentence without one; deleting that file clears it', async () => {
    const id = await device('Coffee machine');
    const none = await s.member.get(`/api/home/devices/${id}/manual`);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/no manual/);
    const pdf = (await upload(s, s.member, id, { bytes: Buffer.from('%PDF-1.4\nmanual'), name: 'manual.pdf' })).body.file;
    const row = (await rows(id))[0];
    await new HomeInventoryStore(s.handle.deps.db).updateDevice(id, { manualPath: row.file_path });
    expect((await s.member.get(`/api/home/devices/${id}`)).body.device.hasManual).toBe(true);
    const got = await download(s, s.member, `/api/home/devices/${id}/manual`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toMatch(/^inline; filename="Coffee machine manual.pdf"/);
    expect(got.bytes.toString()).toBe('%PDF-1.4\nmanual');
    await s.member.delete(`/api/home/devices/${id}/files/${pdf.id}`);
    expect((await s.member.get(`/api/home/devices/${id}`)).body.device.hasManual).toBe(false);
  });

  it('never serves a file whose stored path leads outside the inventory folder', async () => {
    const id = await device();
    writeFileSync(path.join(s.dataDir, 'secret.txt'), 'TOP SECRET');
    for (const [i, p] of ['../secret.txt', '../../etc/passwd', '/etc/passwd', `${id}/../../secret.txt`].entries()) {
      await new HomeInventoryStore(s.handle.deps.db).insertFile({
        id: `evil-${i}`,
        deviceId: id,
        label: 'evil',
        filePath: p,
        thumbPath: p,
        fileType: 'image',
        contentType: 'image/jpeg',
        bytes: 10,
        source: 'user',
        comment: null,
        createdBy: null,
        createdAt: new Date().toISOString(),
      });
      for (const q of ['', '?thumb=1']) {
        const r = await download(s, s.member, `/api/home/devices/${id}/files/evil-${i}${q}`);
        expect(r.status, p).toBe(404);
        expect(r.bytes.toString()).not.toContain('TOP SECRET');
      }
    }
    await new HomeInventoryStore(s.handle.deps.db).updateDevice(id, { manualPath: '../secret.txt', mainPhotoId: 'evil-0' });
    expect((await download(s, s.member, `/api/home/devices/${id}/manual`)).status).toBe(404);
    expect((await download(s, s.member, `/api/home/devices/${id}/photo`)).status).toBe(404);
  });

  it('refuses a body that is not a form, and a form with no file, with 400', async () => {
    const id = await device();
    const json = await s.member.post(`/api/home/devices/${id}/files`, { file: 'x' });
    expect(json.status).toBe(400);
    const res = await post(s, s.member, `/api/home/devices/${id}/files`, multipart([{ name: 'label', value: 'x' }]));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/no file/);
    const bad = await upload(s, s.member, id, { bytes: Buffer.from('x'), name: 'x.txt' }, { role: 'boss' });
    expect(bad.status).toBe(400);
    expect(await rows(id)).toHaveLength(0);
    expect(filesIn(id)).toEqual([]);
    expect((await upload(s, s.member, 'no-such-device', { bytes: Buffer.from('x'), name: 'x.txt' })).status).toBe(404);
  });
});
