// The local copy of a reader item's site icon: made by the capture job through the SSRF guard
// from an icon server on 127.0.0.1 (reached only through FETCH_ALLOW_ORIGINS), normalized to a
// 64x64 PNG (PNG, SVG) or kept as is (ICO), served at GET /api/reader/:id/favicon with the item's
// visibility rules; every way an icon can be unusable leaves faviconUrl null and the capture fine.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAVICON_MAX_BYTES, FullReaderItem, ItemListResponse } from '../../server/modules/reader/schema.js';
import { FakeCaptureEngine, PNG_1PX } from '../fakes/capture-engine.js';
import { icoOf, SVG_ICON } from '../fixtures/icons.js';
import type { TestClient } from '../harness/client.js';
import { freePort, waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

type Served = { status?: number; headers?: Record<string, string>; body: Buffer | string; chunked?: boolean };

function startIconServer(files: Record<string, Served>): Promise<{ url: string; close(): Promise<void>; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const f = files[req.url ?? ''];
    if (!f) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
      return;
    }
    const body = typeof f.body === 'string' ? Buffer.from(f.body) : f.body;
    res.writeHead(f.status ?? 200, { ...(f.chunked ? {} : { 'content-length': String(body.length) }), ...(f.headers ?? {}) });
    if (f.chunked) {
      // no Content-Length: the size is only known by reading
      for (let i = 0; i < body.length; i += 16 * 1024) res.write(body.subarray(i, i + 16 * 1024));
      res.end();
    } else res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

/** GET with the client's session, the body as bytes. */
async function getBytes(c: TestClient, url: string): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const res = await request(`${c.baseUrl}${url}`, { headers: c.cookie ? { cookie: c.cookie } : {} });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

describe('reader site icons (GET /api/reader/:id/favicon)', () => {
  let s: TestServer;
  let engine: FakeCaptureEngine;
  let icons: Awaited<ReturnType<typeof startIconServer>>;
  let elsewhere: Awaited<ReturnType<typeof startIconServer>>; // loopback, not allowed: what a private address is to the guard
  let downUrl: string;
  let other: TestClient;
  let png32: Buffer;

  beforeAll(async () => {
    png32 = await sharp({ create: { width: 32, height: 32, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 1 } } })
      .png()
      .toBuffer();
    const tooBig = Buffer.concat([png32, Buffer.alloc(FAVICON_MAX_BYTES + 1024)]);
    elsewhere = await startIconServer({ '/icon.png': { headers: { 'content-type': 'image/png' }, body: png32 } });
    icons = await startIconServer({
      '/icon.png': { headers: { 'content-type': 'image/png' }, body: png32 },
      '/icon.svg': { headers: { 'content-type': 'image/svg+xml' }, body: SVG_ICON },
      '/favicon.ico': { headers: { 'content-type': 'image/vnd.microsoft.icon' }, body: icoOf(PNG_1PX) },
      '/octet.ico': { headers: { 'content-type': 'application/octet-stream' }, body: icoOf(PNG_1PX) },
      '/big.png': { headers: { 'content-type': 'image/png' }, body: tooBig },
      '/big-chunked.png': { headers: { 'content-type': 'image/png' }, body: tooBig, chunked: true },
      '/soft-404.ico': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><html><body>Page not found</body></html>' },
      '/png-sent-as-html.png': { headers: { 'content-type': 'text/html' }, body: png32 },
      '/html-sent-as-png.png': { headers: { 'content-type': 'image/png' }, body: '<!doctype html><html><body>Not an image</body></html>' },
      '/broken.png': { headers: { 'content-type': 'image/png' }, body: Buffer.concat([png32.subarray(0, 40), Buffer.alloc(40)]) },
      '/gone.png': { status: 404, headers: { 'content-type': 'image/png' }, body: png32 },
      '/to-private.png': { status: 302, headers: { location: `${elsewhere.url}/icon.png` }, body: '' },
    });
    downUrl = `http://127.0.0.1:${await freePort()}`;
    engine = new FakeCaptureEngine();
    s = await startTestServer({ seed: 'household', overrides: { captureEngine: engine }, config: { fetchAllowOrigins: [icons.url, downUrl] } });
    const m = await s.admin.post('/api/admin/users', { name: 'Kim', pin: '2468', role: 'member' });
    other = await s.signIn(m.body.user.id, '2468');
  });
  afterAll(async () => {
    await s?.close();
    await icons?.close();
    await elsewhere?.close();
  });

  let n = 0;
  /** An offline item whose page declares `faviconUrl`, captured: the finished item. */
  const captured = async (faviconUrl: string | null, opts: { type?: 'offline' | 'live'; c?: TestClient } = {}) => {
    const url = `https://site${++n}.example.com/page`;
    engine.setPage(url, { title: `Site ${n}`, faviconUrl });
    const r = await (opts.c ?? s.member).post('/api/reader', { url, type: opts.type ?? 'offline' });
    expect(r.status, r.text).toBe(201);
    const id = FullReaderItem.parse(r.body.item).id;
    return waitFor(async () => {
      const row = await s.handle.deps.db('reader_items').where({ id }).first();
      const done = opts.type === 'live' ? row.thumbnail_state === 'ready' : row.archive_state === 'ready';
      return done ? FullReaderItem.parse((await (opts.c ?? s.member).get(`/api/reader/${id}`)).body.item) : null;
    }, 'the capture', 10_000);
  };

  it('keeps a PNG icon as a 64x64 PNG served from Hearth; the site address stays for the export', async () => {
    const item = await captured(`${icons.url}/icon.png`);
    expect(item.archiveState).toBe('ready');
    expect(item.faviconUrl).toBe(`/api/reader/${item.id}/favicon`);
    const res = await getBytes(s.member, item.faviconUrl!);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(res.body).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 64, height: 64 });
    // list rows carry the same local address
    const list = ItemListResponse.parse((await s.member.get('/api/reader')).body);
    expect(list.items.find((i) => i.id === item.id)!.faviconUrl).toBe(`/api/reader/${item.id}/favicon`);
    // the site's own address is kept server-side and in the JSON export
    const row = await s.handle.deps.db('reader_items').where({ id: item.id }).first();
    expect(row).toMatchObject({ favicon_url: `${icons.url}/icon.png`, favicon_path: 'favicon.png' });
    const exported = (await s.member.get('/api/reader/export/json')).body as { items: Array<{ id: string; faviconUrl: string | null }> };
    expect(exported.items.find((i) => i.id === item.id)!.faviconUrl).toBe(`${icons.url}/icon.png`);
  });

  it('rasterizes an SVG icon: Hearth never serves the SVG (or its script) itself', async () => {
    const item = await captured(`${icons.url}/icon.svg`);
    expect(item.faviconUrl).toBe(`/api/reader/${item.id}/favicon`);
    const res = await getBytes(s.member, item.faviconUrl!);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.body.includes('<script')).toBe(false);
    const stats = await sharp(res.body).metadata();
    expect(stats).toMatchObject({ format: 'png', width: 64, height: 64 });
    // the red circle was drawn: the middle pixel is red and opaque
    const { data, info } = await sharp(res.body).raw().toBuffer({ resolveWithObject: true });
    const mid = (32 * info.width + 32) * info.channels;
    expect([data[mid], data[mid + 3]]).toEqual([0xcc, 255]);
  });

  it('keeps an ICO as it came (also when the server calls it octet-stream)', async () => {
    for (const name of ['favicon.ico', 'octet.ico']) {
      const item = await captured(`${icons.url}/${name}`);
      expect(item.faviconUrl, name).toBe(`/api/reader/${item.id}/favicon`);
      const res = await getBytes(s.member, item.faviconUrl!);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/x-icon');
      expect(res.body.equals(icoOf(PNG_1PX))).toBe(true);
    }
  });

  it("a live link's thumbnail job keeps the icon too", async () => {
    const item = await captured(`${icons.url}/icon.png`, { type: 'live' });
    expect(item.archiveState).toBe('none');
    expect(item.faviconUrl).toBe(`/api/reader/${item.id}/favicon`);
    expect((await getBytes(s.member, item.faviconUrl!)).status).toBe(200);
  });

  it('an unusable icon leaves faviconUrl null and the capture succeeds: too large, not an image, refused address, server down, error status', async () => {
    const cases = {
      'larger than the limit (Content-Length)': `${icons.url}/big.png`,
      'larger than the limit (chunked)': `${icons.url}/big-chunked.png`,
      'an HTML page': `${icons.url}/soft-404.ico`,
      'image bytes sent as text/html': `${icons.url}/png-sent-as-html.png`,
      'HTML sent as image/png': `${icons.url}/html-sent-as-png.png`,
      'an image sharp cannot read': `${icons.url}/broken.png`,
      '404': `${icons.url}/gone.png`,
      'a private address': `${elsewhere.url}/icon.png`,
      'a metadata address': 'http://169.254.169.254/latest/meta-data/icon.png',
      'a redirect to a private address': `${icons.url}/to-private.png`,
      'a server that is down': `${downUrl}/favicon.ico`,
    };
    for (const [what, url] of Object.entries(cases)) {
      const item = await captured(url);
      expect(item.archiveState, what).toBe('ready');
      expect(item.archiveError, what).toBeNull();
      expect(item.contentText, what).toContain('An article captured');
      expect(item.faviconUrl, what).toBeNull();
      const res = await s.member.get(`/api/reader/${item.id}/favicon`);
      expect(res.status, what).toBe(404);
      expect(res.body.error.code, what).toBe('not_found');
    }
    // the guard refused the private server before anything reached it
    expect(elsewhere.hits).toEqual([]);
    // and a page without any icon (the engine reported none) has none
    expect((await captured(null)).faviconUrl).toBeNull();
  });

  it('a re-capture whose icon cannot be fetched keeps the icon saved before; a new one replaces it', async () => {
    const item = await captured(`${icons.url}/favicon.ico`);
    const url = engine.calls.at(-1)!.url;
    engine.setPage(url, { text: 'The second capture.', faviconUrl: `${downUrl}/favicon.ico` });
    expect((await s.member.post(`/api/reader/${item.id}/rearchive`)).status).toBe(202);
    const again = await waitFor(async () => {
      const it = FullReaderItem.parse((await s.member.get(`/api/reader/${item.id}`)).body.item);
      return it.archiveState === 'ready' && it.contentText === 'The second capture.' ? it : null;
    }, 'the second capture', 10_000);
    expect(again.faviconUrl).toBe(`/api/reader/${item.id}/favicon`);
    expect((await getBytes(s.member, again.faviconUrl!)).headers['content-type']).toBe('image/x-icon');
    engine.setPage(url, { text: 'The third capture.', faviconUrl: `${icons.url}/icon.png` });
    expect((await s.member.post(`/api/reader/${item.id}/rearchive`)).status).toBe(202);
    await waitFor(async () => {
      const row = await s.handle.deps.db('reader_items').where({ id: item.id }).first();
      return (row.archive_state === 'ready' && row.content_text === 'The third capture.') || null;
    }, 'the third capture', 10_000);
    const third = await getBytes(s.member, `/api/reader/${item.id}/favicon`);
    expect(third.headers['content-type']).toBe('image/png');
    expect((await s.handle.deps.db('reader_items').where({ id: item.id }).first()).favicon_path).toBe('favicon.png');
  });

  it("follows the item's visibility: another member's item is 404, a household link is shown to everyone, anonymous is 401", async () => {
    const mine = await captured(`${icons.url}/icon.png`);
    expect((await getBytes(s.member, `/api/reader/${mine.id}/favicon`)).status).toBe(200);
    const theirs = await other.get(`/api/reader/${mine.id}/favicon`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('not_found');
    expect((await s.admin.get(`/api/reader/${mine.id}/favicon`)).status).toBe(404);
    const anon = await s.anon.get(`/api/reader/${mine.id}/favicon`);
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('unauthenticated');
    expect((await s.member.get('/api/reader/no-such-item/favicon')).status).toBe(404);

    // a household link (global, live) made by the admin: every member sees its icon
    const url = 'https://household.example.com/';
    engine.setPage(url, { title: 'Household', faviconUrl: `${icons.url}/icon.png` });
    const created = await s.admin.post('/api/admin/reader', { url, title: 'Household' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.item.id as string;
    await waitFor(async () => (await s.handle.deps.db('reader_items').where({ id }).first()).thumbnail_state === 'ready' || null, 'the thumbnail', 10_000);
    const admin = (await s.admin.get('/api/admin/reader')).body.items.find((i: { id: string }) => i.id === id);
    expect(admin.faviconUrl).toBe(`/api/reader/${id}/favicon`);
    for (const c of [s.member, other, s.admin]) expect((await getBytes(c, `/api/reader/${id}/favicon`)).status).toBe(200);
  });
});
