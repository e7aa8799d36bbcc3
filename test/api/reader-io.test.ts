// The reader's outbound and file-in/file-out routes: /probe and the legacy /api/proxy/:id against a
// local page server (reached only through FETCH_ALLOW_ORIGINS), bookmarks.html import over SSE and
// the html/json exports.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseBookmarksHtml } from '../../server/modules/reader/bookmarks-html.js';
import { ARCHIVE_CSP, PROXY_MAX_BYTES } from '../../server/modules/reader/schema.js';
import { FakeCaptureEngine } from '../fakes/capture-engine.js';
import { rawRequest } from '../harness/raw-http.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

type Page = { status?: number; headers?: Record<string, string>; body?: string | Buffer };

function startPages(pages: Record<string, Page>): Promise<{ url: string; close(): Promise<void>; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const p = pages[req.url ?? ''];
    if (!p) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
      return;
    }
    res.writeHead(p.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...(p.headers ?? {}) });
    res.end(p.body ?? '');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

function parseSse(text: string): Array<{ event: string; data: any }> {
  const out: Array<{ event: string; data: any }> = [];
  for (const frame of text.split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
    }
    if (data.length) out.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return out;
}

describe('reader probe, proxy, import and export', () => {
  let s: TestServer;
  let pages: Awaited<ReturnType<typeof startPages>>;
  beforeAll(async () => {
    const bigHead = `<html><head>${'<meta name="x" content="' + 'y'.repeat(1000) + '">'.repeat(1)}`.padEnd(300 * 1024, ' ');
    pages = await startPages({
      '/plain': { body: '<html><head><title> Hello &amp; welcome </title><link rel="icon" href="/static/icon.png"></head><body>hi</body></html>' },
      '/xfo': { headers: { 'x-frame-options': 'SAMEORIGIN' }, body: '<title>XFO</title>' },
      '/csp-self': { headers: { 'content-security-policy': "default-src 'self'; frame-ancestors 'self'" }, body: '<title>CSP</title>' },
      '/csp-any': { headers: { 'content-security-policy': 'frame-ancestors *' }, body: '<title>Any</title>' },
      '/late-title': { body: `${bigHead}<title>Too late</title>` },
      '/no-icon': { body: '<title>No icon</title><link rel="stylesheet" href="/s.css">' },
      '/redirect-out': { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      '/gone': { status: 404, body: 'gone' },
      '/embed': {
        headers: { 'set-cookie': 'tracker=1; Path=/', 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'", 'x-custom': 'kept' },
        body: '<html><body><h1>Embedded</h1><script>alert(1)</script></body></html>',
      },
      '/huge': { headers: { 'content-length': String(30 * 1024 * 1024) }, body: 'x' },
      '/huge-undeclared': { headers: { 'transfer-encoding': 'chunked' }, body: Buffer.alloc(PROXY_MAX_BYTES + 256 * 1024, 'x') },
    });
    s = await startTestServer({ seed: 'household', overrides: { captureEngine: new FakeCaptureEngine() }, config: { fetchAllowOrigins: [pages.url] } });
  });
  afterAll(async () => {
    await s.close();
    await pages.close();
  });
  beforeEach(async () => {
    await s.handle.deps.db('reader_items').delete();
    await s.handle.deps.db('reader_collections').delete();
    await s.handle.deps.db('reader_tags').delete();
  });

  const probe = (u: string) => s.member.get(`/api/reader/probe?url=${encodeURIComponent(u)}`);

  describe('GET /api/reader/probe', () => {
    it('reports reachability, title, icon and whether frames are blocked', async () => {
      const r = await probe(`${pages.url}/plain`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ reachable: true, framesBlocked: false, title: 'Hello & welcome', faviconUrl: `${pages.url}/static/icon.png` });
      expect((await probe(`${pages.url}/xfo`)).body).toMatchObject({ framesBlocked: true, title: 'XFO' });
      expect((await probe(`${pages.url}/csp-self`)).body.framesBlocked).toBe(true);
      expect((await probe(`${pages.url}/csp-any`)).body.framesBlocked).toBe(false);
      expect((await probe(`${pages.url}/no-icon`)).body.faviconUrl).toBe(`${pages.url}/favicon.ico`);
      // the title is looked for in the first 256 KB only
      expect((await probe(`${pages.url}/late-title`)).body.title).toBeNull();
      expect((await probe(`${pages.url}/gone`)).body.reachable).toBe(false);
    });

    it('refuses private, local and malformed addresses with 400 blocked_url, also after a redirect', async () => {
      for (const u of ['http://127.0.0.1:9/', 'http://localhost/', 'http://169.254.169.254/', 'http://[::1]/', 'http://0x7f000001/', 'file:///etc/passwd', 'not a url', 'http://user:pw@example.com/']) {
        const r = await probe(u);
        expect(r.status, u).toBe(400);
        expect(r.body.error.code).toBe('blocked_url');
      }
      const r = await probe(`${pages.url}/redirect-out`);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('blocked_url');
      expect((await s.member.get('/api/reader/probe')).status).toBe(400);
      expect((await s.anon.get(`/api/reader/probe?url=${encodeURIComponent(pages.url)}`)).status).toBe(401);
    });
  });

  describe('GET /api/proxy/:id (legacy embed proxy)', () => {
    it('streams the page with the sandbox CSP, without cookies or frame headers', async () => {
      const item = (await s.member.post('/api/reader', { url: `${pages.url}/embed`, type: 'live' })).body.item;
      const r = await s.member.get(`/api/proxy/${item.id}`);
      expect(r.status).toBe(200);
      expect(r.text).toContain('<h1>Embedded</h1>');
      expect(r.headers['content-security-policy']).toBe(ARCHIVE_CSP);
      expect(r.headers['x-frame-options']).toBeUndefined();
      expect(r.headers['set-cookie']).toBeUndefined();
      expect(r.headers['x-custom']).toBe('kept');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    });

    it('is SSRF-guarded, owner-scoped and size-capped', async () => {
      const priv = (await s.member.post('/api/reader', { url: 'http://10.0.0.1/admin', type: 'live' })).body.item;
      const r = await s.member.get(`/api/proxy/${priv.id}`);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('blocked_url');
      const redirect = (await s.member.post('/api/reader', { url: `${pages.url}/redirect-out`, type: 'live' })).body.item;
      expect((await s.member.get(`/api/proxy/${redirect.id}`)).status).toBe(400);
      const theirs = (await s.admin.post('/api/reader', { url: `${pages.url}/embed`, type: 'live' })).body.item;
      expect((await s.member.get(`/api/proxy/${theirs.id}`)).status).toBe(404);
      const huge = (await s.member.post('/api/reader', { url: `${pages.url}/huge`, type: 'live' })).body.item;
      expect((await s.member.get(`/api/proxy/${huge.id}`)).status).toBe(413);
      expect((await s.anon.get(`/api/proxy/${huge.id}`)).status).toBe(401);
    });

    it('cuts off a page that sends more than the cap without declaring it, and keeps serving', async () => {
      const huge = (await s.member.post('/api/reader', { url: `${pages.url}/huge-undeclared`, type: 'live' })).body.item;
      await expect(s.member.get(`/api/proxy/${huge.id}`)).rejects.toThrow();
      const item = (await s.member.post('/api/reader', { url: `${pages.url}/embed`, type: 'live' })).body.item;
      expect((await s.member.get(`/api/proxy/${item.id}`)).status).toBe(200);
    });
  });

  describe('POST /api/reader/import/html', () => {
    const postImport = (body: string | Buffer, qs = '') =>
      rawRequest(s.url, { method: 'POST', path: `/api/reader/import/html${qs}`, body, headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': 'text/html' } });

    it('streams progress and a summary; folders become collections, tags and dates are kept, duplicates counted', async () => {
      const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p>
<DT><H3>Recipes</H3>
<DL><p>
<DT><A HREF="https://food.example.com/pie" ADD_DATE="1700000000" TAGS="baking,Dessert">Apple pie</A>
<DD>Grandma's
<DT><A HREF="https://food.example.com/soup">Soup</A>
</DL><p>
<DT><A HREF="javascript:alert(1)">Bad</A>
<DT><A HREF="https://top.example.com/">Top</A>
<DT><A HREF="https://top.example.com/">Top again</A>
</DL>`;
      await s.member.post('/api/reader', { url: 'https://food.example.com/soup', type: 'live' });
      const r = await postImport(file);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/text\/event-stream/);
      const events = parseSse(r.text);
      const progress = events.filter((e) => e.event === 'progress');
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)!.data).toMatchObject({ processed: 5, total: 5 });
      const done = events.find((e) => e.event === 'done')!.data;
      expect(done).toMatchObject({ imported: 2, duplicates: 2, skipped: 1, collections: ['Recipes'] });
      expect(done.errors).toEqual([expect.objectContaining({ index: 2, title: 'Bad', reason: expect.any(String) })]);

      const items = (await s.member.get('/api/reader?limit=50')).body.items;
      const pie = items.find((i: { url: string }) => i.url === 'https://food.example.com/pie');
      expect(pie).toMatchObject({ type: 'live', title: 'Apple pie', tags: ['baking', 'Dessert'], excerpt: "Grandma's", archiveState: 'none', createdAt: new Date(1700000000 * 1000).toISOString() });
      const col = (await s.member.get('/api/reader/collections')).body.collections[0];
      expect(col).toMatchObject({ name: 'Recipes', itemCount: 1 });
      expect(pie.collectionId).toBe(col.id);
      // no capture storm: imported live links are not queued for thumbnails
      expect(await s.handle.deps.db('reader_items').where({ thumbnail_state: 'pending' }).count({ n: '*' }).first()).toEqual({ n: 1 });
    });

    it('imports offline when asked (archive jobs queued)', async () => {
      const r = await postImport('<DL><DT><A HREF="https://read.example.com/a">A</A></DL>', '?type=offline');
      expect(parseSse(r.text).find((e) => e.event === 'done')!.data.imported).toBe(1);
      const row = await s.handle.deps.db('reader_items').where({ url: 'https://read.example.com/a' }).first();
      expect(row.type).toBe('offline');
      expect(['pending', 'fetching', 'ready']).toContain(row.archive_state);
    });

    it('imports every file of the bookmarks corpus without an error event', async () => {
      const dir = path.join(import.meta.dirname, '..', 'fixtures', 'bookmarks');
      for (const name of readdirSync(dir).filter((n) => /\.html?$/.test(n))) {
        await s.handle.deps.db('reader_items').delete();
        const text = readFileSync(path.join(dir, name), 'utf8');
        const expected = parseBookmarksHtml(text);
        const r = await postImport(text);
        const events = parseSse(r.text);
        expect(events.some((e) => e.event === 'error'), name).toBe(false);
        const done = events.find((e) => e.event === 'done')!.data;
        expect(done.imported + done.duplicates + done.skipped, name).toBe(expected.total);
        expect(done.imported, name).toBe(expected.bookmarks);
        const count = await s.handle.deps.db('reader_items').count({ n: '*' }).first();
        expect(count, name).toEqual({ n: expected.bookmarks });
      }
    });

    it('refuses an empty body (400), a body over 20 MB (413) and anonymous callers (401)', async () => {
      expect((await postImport('')).status).toBe(400);
      expect((await postImport(Buffer.alloc(21 * 1024 * 1024, 'a'))).status).toBe(413);
      const anon = await rawRequest(s.url, { method: 'POST', path: '/api/reader/import/html', body: '<DL></DL>' });
      expect(anon.status).toBe(401);
    });
  });

  describe('exports', () => {
    it('GET /export/html writes the live links only, as a Netscape file that parses back', async () => {
      await s.member.post('/api/reader', { url: 'https://live.example.com/1', type: 'live', title: 'Live <one>', tags: ['a'], collectionName: 'Links' });
      await s.member.post('/api/reader', { url: 'https://offline.example.com/1', title: 'Offline' });
      await s.admin.post('/api/admin/reader', { url: 'https://global.example.com/' });
      const r = await s.member.get('/api/reader/export/html');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/text\/html/);
      expect(r.headers['content-disposition']).toMatch(/attachment/);
      const back = parseBookmarksHtml(r.text);
      const rows = back.rows.filter((x) => x.kind === 'bookmark');
      expect(rows.map((x) => (x.kind === 'bookmark' ? [x.url, x.title, x.folder, x.tags] : null))).toEqual([['https://live.example.com/1', 'Live <one>', 'Links', ['a']]]);
    });

    it('GET /export/json has every own item with its content, collections and tags', async () => {
      const item = (await s.member.post('/api/reader', { url: 'https://offline.example.com/2', tags: ['keep'], collectionName: 'Saved' })).body.item;
      await s.handle.deps.db('reader_items').where({ id: item.id }).update({ content_text: 'The text', content_html: '<p>The text</p>' });
      await s.admin.post('/api/reader', { url: 'https://someone-else.example.com/' });
      const r = await s.member.get('/api/reader/export/json');
      expect(r.status).toBe(200);
      expect(r.headers['content-disposition']).toMatch(/attachment/);
      expect(r.body).toMatchObject({ version: 1, collections: [expect.objectContaining({ name: 'Saved' })], tags: [expect.objectContaining({ name: 'keep' })] });
      expect(r.body.items).toHaveLength(1);
      expect(r.body.items[0]).toMatchObject({ url: 'https://offline.example.com/2', contentText: 'The text', contentHtml: '<p>The text</p>', tags: ['keep'], collectionName: 'Saved' });
      expect(r.body.items[0]).not.toHaveProperty('contentHash');
    });
  });
});
