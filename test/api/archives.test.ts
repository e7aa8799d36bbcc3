// Reference archives against the real kiwix-serve (Debian kiwix-tools) with ZIMs built by
// test/fixtures/zim/make-test-zims.sh (Debian zim-tools).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKiwixClient } from '../../server/adapters/archive-server/kiwix.js';
import { FakeFileServer, sha256 } from '../fakes/file-server.js';
import { freePort, waitFor } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath, type TestZims } from '../harness/zims.js';

const KIWIX_SERVE = kiwixServeOnPath();
let zims: TestZims;
let fixtures: any;
let files: FakeFileServer;
let s: TestServer;
const temp = makeTempDir();

async function install(sourceId: string, variantKey?: string) {
  const conn = await connectSse(s.url, `/api/admin/archives/download/${sourceId}`, { cookie: s.admin.cookie! }, { body: variantKey ? { variantKey } : {} });
  await conn.ended;
  return conn;
}

beforeAll(async () => {
  zims = buildTestZims({ withBroken: true, withNoIndex: true });
  fixtures = zims.fixtures;
  files = await new FakeFileServer().start();
  const pedia = zims.encyclopedia;
  const books = zims.books;
  const variant = (name: string, file: string) => ({
    key: 'all',
    label: 'All',
    url: files.addFile(name, file),
    sizeBytes: readFileSync(file).length,
    sha256: sha256(readFileSync(file)),
    date: '2024-05',
    language: 'eng',
  });
  const catalog = {
    sources: [
      { id: 'fixturepedia', label: 'Fixturepedia', description: 'Test encyclopedia', category: 'Encyclopedia', faviconUrl: 'https://example.org/f.ico', variants: [variant(fixtures.encyclopedia.file, pedia)] },
      { id: 'fixturebooks', label: 'Fixture books', description: 'Test books', category: 'Books', bookCategory: 'How-to', faviconUrl: 'https://example.org/b.ico', variants: [variant(fixtures.books.file, books)] },
      { id: 'wrongsum', label: 'Wrong checksum', description: 'x', category: 'Encyclopedia', faviconUrl: 'https://example.org/w.ico', variants: [{ ...variant('wrongsum.zim', books), sha256: 'a'.repeat(64) }] },
      { id: 'slow', label: 'Slow', description: 'x', category: 'Encyclopedia', faviconUrl: 'https://example.org/s.ico', variants: [variant('slow.zim', pedia)] },
      { id: 'noindex', label: 'Books without an index', description: 'No full-text index', category: 'Books', bookCategory: 'How-to', faviconUrl: 'https://example.org/n.ico', variants: [variant('noindex.zim', zims.noIndex!)] },
      { id: 'broken', label: 'Broken', description: 'Bit-flipped', category: 'Encyclopedia', faviconUrl: 'https://example.org/x.ico', variants: [{ ...variant('bitflip.zim', path.join(zims.dir, 'broken/bitflip.zim')), sha256: undefined }] },
    ],
  };
  files.behave('slow.zim', { throttleBps: 32 * 1024 });
  const catalogFile = path.join(temp.dir, 'archives.json');
  writeFileSync(catalogFile, JSON.stringify(catalog));
  s = await startTestServer({
    seed: 'household',
    config: { archiveCatalogPath: catalogFile, fetchAllowOrigins: [files.url], archiveServerPort: await freePort(), kiwixServePath: KIWIX_SERVE },
  });
}, 60_000);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** GET that reports what arrived: status, bytes, and whether the body ended cleanly. */
function fetchAll(url: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number; complete: boolean }> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, complete: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, bytes, complete: false }));
      res.on('aborted', () => resolve({ status: res.statusCode ?? 0, bytes, complete: false }));
    });
    req.on('error', () => resolve({ status: 0, bytes: 0, complete: false }));
  });
}

afterAll(async () => {
  await s?.close();
  await files?.close();
  zims?.remove();
  temp.remove();
});

describe('installing archives', () => {
  it('downloads over SSE, verifies, serves, and maps the URL name from the running server', async () => {
    const conn = await install('fixturepedia');
    const names = conn.events.map((e) => e.event);
    expect(names).toContain('progress');
    expect(names.at(-1)).toBe('done');
    expect(conn.events.at(-1)!.data).toMatchObject({ sourceId: 'fixturepedia', served: true });
    const installed = (await s.member.get('/api/archives/installed')).body.archives;
    expect(installed).toEqual([expect.objectContaining({ sourceId: 'fixturepedia', bookName: fixtures.encyclopedia.urlName, label: 'Fixturepedia', zimIconUrl: '/api/archives/favicon/fixturepedia' })]);
    const status = (await s.member.get('/api/archives/status')).body;
    expect(status).toMatchObject({ kiwixInstalled: true, kiwixState: 'ready', kiwixError: null, installedCount: 1 });
    await install('fixturebooks');
    expect((await s.member.get('/api/archives/installed')).body.archives.map((a: any) => a.bookName).sort()).toEqual([fixtures.books.urlName, fixtures.encyclopedia.urlName].sort());
  });
});

describe('download failures', () => {
  it('a checksum mismatch ends with an error event and installs nothing', async () => {
    const conn = await install('wrongsum');
    expect(conn.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'download_failed', message: expect.stringContaining('checksum') } });
    expect(await s.handle.deps.db('zim_archives').where({ source_id: 'wrongsum' })).toEqual([]);
  });

  it('one download per source; cancel stops it and removes the partial file', async () => {
    const conn = await connectSse(s.url, '/api/admin/archives/download/slow', { cookie: s.admin.cookie! }, { body: {} });
    await conn.waitFor((e) => e.event === 'progress');
    const second = await s.admin.post('/api/admin/archives/download/slow', {});
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('download_in_progress');
    expect((await s.admin.post('/api/admin/archives/cancel/slow')).status).toBe(200);
    await conn.ended;
    expect(conn.events.at(-1)!.event).toBe('cancelled');
    const dir = path.join(s.dataDir, 'archives', 'slow');
    expect(existsSync(path.join(dir, 'slow.zim.part'))).toBe(false);
    expect((await s.admin.post('/api/admin/archives/cancel/slow')).status).toBe(404);
  });

  it('a GET never starts a download: it only watches one that runs (404 when none does)', async () => {
    // what a cross-site link followed with the admin's Lax cookie would send
    const r = await s.admin.get('/api/admin/archives/download/fixturebooks', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
    expect(r.body.error.message).toMatch(/not downloading/);
    const withVariant = await s.admin.get('/api/admin/archives/download/slow?variantKey=all');
    expect(withVariant.status).toBe(404);
    const catalog = (await s.admin.get('/api/admin/archives/catalog')).body.sources;
    expect(catalog.filter((x: any) => x.downloading)).toEqual([]);
    expect(existsSync(path.join(s.dataDir, 'archives', 'slow', 'slow.zim.part'))).toBe(false);
    expect((await s.member.get('/api/admin/archives/download/slow')).status).toBe(403);

    // a running one: the watcher gets its last status and progress, then live events to the end
    files.behave('slow.zim', { throttleBps: 32 * 1024 });
    const starter = await connectSse(s.url, '/api/admin/archives/download/slow', { cookie: s.admin.cookie! }, { body: {} });
    await starter.waitFor((e) => e.event === 'progress');
    const watcher = await connectSse(s.url, '/api/admin/archives/download/slow', { cookie: s.admin.cookie! });
    expect(watcher.status).toBe(200);
    await watcher.waitFor((e) => e.event === 'status' && e.data.state === 'downloading');
    await watcher.waitFor((e) => e.event === 'progress');
    // a watcher that leaves does not stop it
    const early = await connectSse(s.url, '/api/admin/archives/download/slow', { cookie: s.admin.cookie! });
    early.close();
    const seen = starter.events.length;
    await starter.waitFor((e) => e.event === 'progress' && starter.events.indexOf(e) >= seen);
    expect((await s.admin.post('/api/admin/archives/cancel/slow')).status).toBe(200);
    await Promise.all([starter.ended, watcher.ended]);
    expect(watcher.events.at(-1)!.event).toBe('cancelled');
    expect(starter.events.at(-1)!.event).toBe('cancelled');
  });

  it('a client that disconnects aborts the download but keeps the partial file for a resume', async () => {
    const conn = await connectSse(s.url, '/api/admin/archives/download/slow', { cookie: s.admin.cookie! }, { body: {} });
    await conn.waitFor((e) => e.event === 'progress' && e.data.bytesDone > 0);
    conn.close();
    const part = path.join(s.dataDir, 'archives', 'slow', 'slow.zim.part');
    await waitFor(async () => !(await s.admin.get('/api/admin/archives/catalog')).body.sources.find((x: any) => x.id === 'slow').downloading, 'the dropped download to stop', 5000, 50);
    expect(existsSync(part)).toBe(true);
    files.behave('slow.zim', {});
    const resumed = await install('slow');
    expect(resumed.events.at(-1)).toMatchObject({ event: 'done', data: { resumedFrom: expect.any(Number) } });
    expect(resumed.events.at(-1)!.data.resumedFrom).toBeGreaterThan(0);
    expect((await s.admin.delete('/api/admin/archives/slow')).status).toBe(200);
  });
});

describe('content proxy', () => {
  const view = (p: string, headers: Record<string, string> = {}) => s.anon.get(`/api/archives/view/fixturepedia/${p}`, { headers });

  it('serves an article with a base tag, no archive-server bar, and absolute paths rewritten', async () => {
    const r = await view('A/Water_heater');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.text).toContain('<base href="/api/archives/view/fixturepedia/A/Water_heater">');
    expect(r.text).not.toMatch(/type=["']root["']/);
    expect(r.text).not.toContain(`"/${fixtures.encyclopedia.urlName}/`);
    // other people's HTML on Hearth's origin: no fetch/XHR/WebSocket (so no /api calls with the cookie), no plugins
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    // ... and sandboxed into an opaque origin with no frames of its own: a script inside cannot
    // reach the app's origin through an iframe onto one of Hearth's own pages
    expect(csp).toMatch(/^sandbox allow-scripts allow-forms;/);
    expect(csp).not.toContain('allow-same-origin');
    expect(csp).not.toContain('allow-top-navigation');
    expect(csp).not.toContain('allow-popups');
    for (const d of ["frame-src 'none'", "child-src 'none'", "worker-src 'none'"]) expect(csp).toContain(d);
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    // every other answer of the view carries the sandbox too: images, the friendly pages, search, random
    for (const p of ['I/Water_heater.png', 'A/No_such_page', 'search?pattern=heater', 'random', '%c0%ae']) {
      const other = await view(p);
      expect(String(other.headers['content-security-policy']), p).toMatch(/^sandbox allow-scripts allow-forms;/);
      expect(String(other.headers['content-security-policy']), p).toContain("frame-src 'none'");
    }
  });

  it('follows redirects server-side (chain, odd characters) so the browser sees one answer', async () => {
    for (const [from, to] of Object.entries(fixtures.encyclopedia.redirects as Record<string, string>)) {
      const r = await view(from.split('/').map(encodeURIComponent).join('/'));
      expect(r.status, from).toBe(200);
      const final = (fixtures.encyclopedia.redirects[to] ?? to) as string;
      expect(r.text, from).toContain(`<base href="/api/archives/view/fixturepedia/${final.split('/').map(encodeURIComponent).join('/')}">`);
    }
  });

  it('reaches the odd paths: Why?, C++, Café_crème, 100%_Juice, AC/DC', async () => {
    for (const [, encoded] of Object.entries(fixtures.encyclopedia.oddPaths as Record<string, string>)) {
      const r = await view(encoded);
      expect(r.status, encoded).toBe(200);
      expect(r.headers['content-type']).toContain('text/html');
    }
  });

  it('the root goes to the main page; search and random map to the server', async () => {
    const root = await s.anon.get('/api/archives/view/fixturepedia/');
    expect(root.status).toBe(200);
    expect(root.text).toContain(`<base href="/api/archives/view/fixturepedia/${fixtures.encyclopedia.mainPage}">`);
    const search = await view('search?pattern=heater');
    expect(search.status).toBe(200);
    expect(search.text).toContain('/api/archives/view/fixturepedia/A/Water_heater');
    expect(search.text).not.toContain(`href="/${fixtures.encyclopedia.urlName}/`);
    const random = await view('random');
    expect(random.status).toBe(200);
    expect(random.text).toMatch(/<base href="\/api\/archives\/view\/fixturepedia\/A\//);
  });

  it('streams images with content type and Range passed through', async () => {
    const full = await view(fixtures.encyclopedia.image200k);
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('image/png');
    const part = await view(fixtures.encyclopedia.image200k, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
  });

  it('is the same for everyone: no session is looked up, a stale one is ignored, nothing is refreshed', async () => {
    const stale = await view('A/Water_heater', { cookie: 'session=not-a-session; ld-theme=light' });
    expect(stale.status).toBe(200);
    const signedIn = await view('A/Water_heater', { cookie: `${s.member.cookie!}; ld-theme=light` });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers['set-cookie']).toBeUndefined();
    expect(signedIn.text).toBe(stale.text);
  });

  it('injects the dark-mode payload for the ld-theme=dark cookie, none for light, and the device\'s scheme without a cookie', async () => {
    const r = await view('A/Water_heater', { cookie: 'ld-theme=dark' });
    expect(r.text).toContain('<style>html{color-scheme:dark}');
    expect((await view('A/Water_heater', { cookie: 'ld-theme=light' })).text).not.toContain('color-scheme:dark');
    // an archive page's own links carry no cookies (it runs sandboxed in an opaque origin): the
    // page then follows the device's colour scheme, as the app does
    const none = await view('A/Water_heater');
    expect(none.text).toContain('<style>@media (prefers-color-scheme:dark){html{color-scheme:dark}');
    expect(none.text).toContain(`<script nonce="${/'nonce-([0-9a-f]+)'/.exec(String(none.headers['content-security-policy']))?.[1]}">if(matchMedia(`);
  });

  it('answers friendly HTML pages: unknown archive, missing page, traversal attempts', async () => {
    const missing = await s.anon.get('/api/archives/view/nothing-here/A/x');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toContain('text/html');
    expect(missing.text).toContain('not installed');
    expect(missing.text).not.toContain('http-equiv="refresh"'); // trying again will not help
    expect(missing.headers['cache-control']).toBe('no-store');
    expect((await view('A/No_such_page')).status).toBe(404);
    for (const p of ['..%2F..%2Fcatalog%2Fv2%2Fentries', 'A/%2E%2E/%2E%2E/catalog/v2/entries', '%2E%2E/%2E%2E/skin/taskbar.css']) {
      const r = await view(p);
      expect(r.status, p).toBe(404);
      expect(r.text).not.toContain('<feed');
    }
    // a malformed escape is refused before it reaches the proxy, as a traversal: 404
    for (const p of ['%E0%A4%A', '%c0%ae%c0%ae/%c0%ae%c0%ae/catalog/v2/entries', 'A/%c0%ae']) {
      const bad = await view(p);
      expect(bad.status, p).toBe(404);
      expect(bad.headers['content-type'], p).toContain('text/html');
    }
  });

  it('answers a repeat visit from memory: the same page with a fresh nonce each time, dark or light, and images byte for byte', async () => {
    const stats = () => s.handle.deps.archiveContent.cacheStats();
    const nonceOf = (r: { headers: Record<string, unknown> }) => /'nonce-([0-9a-f]+)'/.exec(String(r.headers['content-security-policy']))?.[1];
    const light = { cookie: 'ld-theme=light' };
    const a = await view('A/Heat_pump', light);
    const hits = stats().hits;
    const b = await view('A/Heat_pump', light);
    expect(stats().hits).toBe(hits + 1);
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(Number(b.headers['content-length'])).toBe(Buffer.byteLength(b.text));
    expect(b.headers['cache-control']).toBe(a.headers['cache-control']);
    expect(nonceOf(b)).toMatch(/^[0-9a-f]{32}$/);
    expect(nonceOf(b)).not.toBe(nonceOf(a));
    // the same cached entry, dark: the page's script carries this response's nonce
    const dark1 = await view('A/Heat_pump', { cookie: 'ld-theme=dark' });
    const dark2 = await view('A/Heat_pump', { cookie: 'ld-theme=dark' });
    expect(stats().hits).toBe(hits + 3);
    for (const d of [dark1, dark2]) {
      expect(d.text).toContain('color-scheme:dark');
      expect(d.text).toContain(`<script nonce="${nonceOf(d)}">`);
      expect(d.text.replace(/<style>html\{color-scheme:dark[^]*?<\/script>/, '')).toBe(a.text);
    }
    // an image: the archive's bytes each time, with its headers
    const image = fixtures.encyclopedia.image200k as string;
    const want = createHash('sha256').update(readFileSync(path.join(zims.dir, 'src-encyclopedia', image))).digest('hex');
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${s.url}/api/archives/view/fixturepedia/${image}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/png');
      expect(r.headers.get('cache-control')).toMatch(/max-age/);
      expect(createHash('sha256').update(Buffer.from(await r.arrayBuffer())).digest('hex')).toBe(want);
    }
    expect(stats().hits).toBeGreaterThanOrEqual(hits + 4);
    // a range still goes to the archive server (and is not what a later whole request gets)
    const part = await view(image, { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toMatch(/^bytes 10-19\/\d+$/);
  });

  it('never answers from memory after the archive changes: a new file under the same name is read afresh', async () => {
    const row = await s.handle.deps.db('zim_archives').where({ source_id: 'fixturepedia' }).first();
    expect((await view('A/Water_heater')).status).toBe(200); // in the cache now
    const kept = `${row.file_path}.kept`;
    copyFileSync(row.file_path, kept);
    try {
      // another archive takes the file's place (renamed over it, never written in place under the server)
      copyFileSync(zims.noIndex!, `${row.file_path}.new`);
      renameSync(`${row.file_path}.new`, row.file_path);
      await s.handle.deps.archives.serve();
      const after = await view('A/Water_heater');
      expect(after.status).toBe(404);
      expect(after.text).toContain('no such page');
    } finally {
      renameSync(kept, row.file_path);
      await s.handle.deps.archives.serve();
    }
    expect((await view('A/Water_heater')).status).toBe(200);
  });
});

describe('the books archive: base tag and CSS', () => {
  const books = (p: string) => s.anon.get(`/api/archives/view/fixturebooks/${p}`);
  const resolve = (ref: string, against: string) => new URL(ref, new URL(against, s.url)).pathname;

  it('r/start answers index.html (another directory) with a base tag, so its stylesheet and the image in it load', async () => {
    const page = await books('r/start');
    expect(page.status).toBe(200);
    const base = /<base href="([^"]+)">/.exec(page.text)?.[1];
    expect(base).toBe('/api/archives/view/fixturebooks/index.html');
    const cssHref = /<link rel="stylesheet" href="([^"]+)">/.exec(page.text)![1]!;
    expect(cssHref).toBe('css/book.css');
    // resolved like a browser does: against the base, not against the address bar (r/start)
    const cssPath = resolve(cssHref, base!);
    expect(cssPath).toBe('/api/archives/view/fixturebooks/css/book.css');
    const css = await s.anon.get(cssPath);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
    const imageRef = /url\("([^"]+)"\)/.exec(css.text)![1]!;
    expect(imageRef).toBe('../img/paper.png');
    const image = await s.anon.get(resolve(imageRef, cssPath));
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toMatch(/max-age=\d+/);
  });

  it('a redirect to a deeper page gets that page as its base, so ../../ reaches the archive root', async () => {
    const page = await books('books/tidy-workshop/index.html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<base href="/api/archives/view/fixturebooks/books/the-tidy-workshop/index.html">');
    const cover = /<img class="cover" src="([^"]+)"/.exec(page.text)![1]!;
    const coverPath = resolve(cover, '/api/archives/view/fixturebooks/books/the-tidy-workshop/index.html');
    expect(coverPath).toBe('/api/archives/view/fixturebooks/img/cover-the-tidy-workshop.jpg');
    const img = await s.anon.get(coverPath);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
  });
});

describe('friendly pages for each not-ready cause', () => {
  const refresh = /<meta http-equiv="refresh" content="\d+">/;

  it('an archive still downloading: 503 that retries by itself', async () => {
    files.behave('slow.zim', { throttleBps: 32 * 1024 });
    const conn = await connectSse(s.url, '/api/admin/archives/download/slow', { cookie: s.admin.cookie! }, { body: {} });
    await conn.waitFor((e) => e.event === 'progress');
    const r = await s.anon.get('/api/archives/view/slow/A/Water_heater');
    expect(r.status).toBe(503);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.headers['retry-after']).toBeDefined();
    expect(r.text).toMatch(refresh);
    expect(r.text).toContain('still downloading');
    await s.admin.post('/api/admin/archives/cancel/slow');
    await conn.ended;
    files.behave('slow.zim', {});
  });

  it('a row whose book the server has not opened (no book name yet): 503 with a refresh', async () => {
    const file = path.join(s.dataDir, 'archives', 'late', 'late.zim');
    mkdirSync(path.dirname(file), { recursive: true });
    copyFileSync(zims.noIndex!, file);
    const now = new Date().toISOString();
    await s.handle.deps.db('zim_archives').insert({ source_id: 'late', variant_key: 'all', book_name: null, file_path: file, file_size_bytes: 1, zim_date: '2024-05', downloaded_at: now, verified_at: null, created_at: now, updated_at: now });
    const r = await s.anon.get('/api/archives/view/late/index.html');
    expect(r.status).toBe(503);
    expect(r.text).toMatch(refresh);
    expect(r.text).toContain('being opened');
    expect((await s.admin.delete('/api/admin/archives/late')).status).toBe(200);
    expect(existsSync(file)).toBe(false);
  });

  it('the archive server stopped: 503 with a refresh, and the page again once it is back', async () => {
    await s.handle.deps.archives.stop();
    const r = await s.anon.get('/api/archives/view/fixturepedia/A/Water_heater');
    expect(r.status).toBe(503);
    expect(r.text).toMatch(refresh);
    expect(r.text).toContain('not running');
    await s.handle.deps.archives.serve();
    expect((await s.anon.get('/api/archives/view/fixturepedia/A/Water_heater')).status).toBe(200);
  });
});

describe('search and favicon', () => {
  it('zimSearch shapes results with links to the view route, and survives many concurrent callers', async () => {
    const out = await s.handle.deps.archives.zimSearch(['fixturepedia', 'fixturebooks'], 'heater', 5);
    expect(out.sources.length).toBeGreaterThan(0);
    expect(out.sources[0]).toMatchObject({ sourceId: 'fixturepedia', url: expect.stringMatching(/^\/api\/archives\/view\/fixturepedia\//) });
    const results = await Promise.all(Array.from({ length: 12 }, () => s.handle.deps.archives.zimSearch(['fixturepedia'], 'pump', 3)));
    expect(results.every((r) => r.sources.length > 0)).toBe(true);
    expect(s.handle.deps.archives.status().state).toBe('ready');
  });

  it('GET /api/archives/search gives signed-in users gist, highlights and sources, in the order asked', async () => {
    const all = await s.member.get('/api/archives/search?q=heater&limit=3');
    expect(all.status).toBe(200);
    expect(all.body.sources.length).toBeGreaterThan(0);
    expect(all.body.sources.length).toBeLessThanOrEqual(3);
    expect(all.body.sources[0]).toMatchObject({ sourceId: 'fixturepedia', title: expect.any(String), url: expect.stringMatching(/^\/api\/archives\/view\/fixturepedia\//), snippet: expect.any(String) });
    expect(all.body.gist).toContain(all.body.sources[0].title);
    expect(all.body.highlights.length).toBeGreaterThan(0);
    expect(all.body.highlights[0]).not.toMatch(/<b>/);
    expect((await s.anon.get(all.body.sources[0].url)).status).toBe(200);

    const books = await s.member.get('/api/archives/search?q=garden&sources=fixturebooks');
    expect(books.status).toBe(200);
    expect(books.body.sources.length).toBeGreaterThan(0);
    expect(new Set(books.body.sources.map((x: any) => x.sourceId))).toEqual(new Set(['fixturebooks']));
    // a comma list or repeated keys; the first source is searched first
    for (const qs of ['sources=fixturebooks,fixturepedia', 'sources=fixturebooks&sources=fixturepedia']) {
      const both = await s.member.get(`/api/archives/search?q=water&limit=20&${qs}`);
      expect(both.status, qs).toBe(200);
      const order: string[] = both.body.sources.map((x: any) => x.sourceId);
      expect(order[0], qs).toBe('fixturebooks');
      const firstPedia = order.indexOf('fixturepedia');
      if (firstPedia >= 0) expect(order.slice(firstPedia), qs).not.toContain('fixturebooks');
    }
    expect((await s.member.get('/api/archives/search?q=water&sources=nothing-here')).body).toEqual({ gist: '', highlights: [], sources: [] });
  });

  it('GET /api/archives/search validates its input and needs a session', async () => {
    expect((await s.anon.get('/api/archives/search?q=heater')).status).toBe(401);
    const many = Array.from({ length: 21 }, (_, i) => `s${i}`).join(',');
    for (const qs of ['', 'q=', 'q=%20%20', 'q=heater&limit=0', 'q=heater&limit=21', 'q=heater&limit=two', 'q=heater&sources=..%2Fx', 'q=heater&sources=Wiki', `q=heater&sources=${many}`, `q=${'x'.repeat(201)}`]) {
      const r = await s.member.get(`/api/archives/search?${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
    expect((await s.member.get('/api/archives/search?q=heater&limit=20')).status).toBe(200);
  });

  it('falls back to title suggestions for a book without a full-text index, with many concurrent callers and no crash', async () => {
    expect((await install('noindex')).events.at(-1)!.event).toBe('done');
    const before = s.handle.deps.archives.status();
    expect(before.state).toBe('ready');
    const logMark = s.logger.lines.length;
    const terms = ['garden', 'kitchen', 'power', 'small', 'tidy', 'chapter'];
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => s.handle.deps.archives.zimSearch(i % 4 === 0 ? ['noindex', 'fixturepedia'] : ['noindex'], terms[i % terms.length]!, 3)),
    );
    for (const r of results) expect(r.sources.length).toBeGreaterThan(0);
    const garden = results[0]!;
    expect(garden.sources[0]).toMatchObject({ sourceId: 'noindex', title: expect.stringContaining('Garden'), snippet: '', url: expect.stringMatching(/^\/api\/archives\/view\/noindex\/books\/garden-notes\//) });
    expect((await s.anon.get(garden.sources[0]!.url)).status).toBe(200);
    // the same kiwix-serve process answered every call: no crash, no restart
    expect(s.handle.deps.archives.status()).toMatchObject({ state: 'ready', pid: before.pid });
    expect(s.logger.lines.slice(logMark).filter((l) => /crashed|hung/.test(String(l.msg)))).toEqual([]);
    expect((await s.admin.delete('/api/admin/archives/noindex')).status).toBe(200);
  });

  it('the adapter sends one /suggest at a time, whoever calls', async () => {
    let active = 0;
    let most = 0;
    const fake = http.createServer((req, res) => {
      active++;
      most = Math.max(most, active);
      setTimeout(() => {
        active--;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ value: 'Garden Notes', label: 'Garden Notes', kind: 'path', path: 'books/garden-notes/index.html' }]));
      }, 5);
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
    try {
      const kiwix = createKiwixClient({ baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}` });
      const book = { uuid: 'x', name: 'b', title: 'B', href: '/b', urlName: 'b' };
      const out = await Promise.all(Array.from({ length: 10 }, () => kiwix.suggest(book, 'garden', 5)));
      expect(out.every((o) => o[0]?.path === 'books/garden-notes/index.html')).toBe(true);
      expect(most).toBe(1);
    } finally {
      fake.close();
    }
  });

  it('serves the archive icon', async () => {
    const r = await s.member.get('/api/archives/favicon/fixturepedia');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toContain('image/png');
    expect((await s.anon.get('/api/archives/favicon/fixturepedia')).status).toBe(401);
  });
});

describe('supervision', () => {
  it('restarts the archive server after kill -9 and serves again', async () => {
    const before = s.handle.deps.archives.status().pid!;
    process.kill(before, 'SIGKILL');
    // while it restarts (after a short backoff), the reader gets the "starting" page
    await waitFor(() => s.handle.deps.archives.status().state === 'starting', 'the archive server to be restarting', 5000, 5);
    const waiting = await s.anon.get('/api/archives/view/fixturepedia/A/Water_heater');
    expect(waiting.status).toBe(503);
    expect(waiting.text).toContain('starting');
    expect(waiting.text).toContain('http-equiv="refresh"');
    await waitFor(() => {
      const st = s.handle.deps.archives.status();
      return st.state === 'ready' && st.pid && st.pid !== before;
    }, 'a new archive server process to be ready', 15_000, 50);
    expect(s.handle.deps.archives.status()).toMatchObject({ state: 'ready' });
    // search pages are never kept in memory: this one comes from the restarted server
    const search = await s.anon.get('/api/archives/view/fixturepedia/search?pattern=heater');
    expect(search.status).toBe(200);
    expect(search.text).toContain('/api/archives/view/fixturepedia/A/Water_heater');
  });
});

describe('admin', () => {
  it('verify quarantines a bit-flipped archive while the healthy ones stay served', async () => {
    await install('broken');
    const v = await s.admin.post('/api/admin/archives/verify');
    expect(v.status).toBe(200);
    const byId = Object.fromEntries(v.body.results.map((r: any) => [r.sourceId, r]));
    expect(byId.broken).toMatchObject({ ok: false, reason: expect.stringContaining('checksum') });
    expect(byId.fixturepedia.ok).toBe(true);
    expect((await s.member.get('/api/archives/installed')).body.archives.map((a: any) => a.sourceId).sort()).toEqual(['fixturebooks', 'fixturepedia']);
    expect((await s.anon.get('/api/archives/view/fixturepedia/A/Water_heater')).status).toBe(200);
  });

  it('a truncated file is validated out before it can stop the server from starting', async () => {
    const row = await s.handle.deps.db('zim_archives').where({ source_id: 'fixturebooks' }).first();
    copyFileSync(path.join(zims.dir, 'broken/truncated.zim'), row.file_path);
    await s.handle.deps.archives.serve();
    expect(s.handle.deps.archives.status().state).toBe('ready');
    expect((await s.anon.get('/api/archives/view/fixturepedia/A/Water_heater')).status).toBe(200);
    const quarantined = await s.handle.deps.db('zim_archives').where({ source_id: 'fixturebooks' }).first();
    expect(quarantined.quarantine_reason).toMatch(/truncated/);
  });

  it('delete while serving: image requests just before and during it do not crash the archive server; the file goes once the server let go of it', async () => {
    const row = await s.handle.deps.db('zim_archives').where({ source_id: 'fixturepedia' }).first();
    expect((await s.member.delete('/api/admin/archives/fixturepedia')).status).toBe(403);
    const imagePath = `/api/archives/view/fixturepedia/${fixtures.encyclopedia.image200k}`;
    const imageBytes = readFileSync(path.join(zims.dir, 'src-encyclopedia', fixtures.encyclopedia.image200k)).length;
    // right before: a whole image
    const just = await s.anon.get(imagePath);
    expect(just.status).toBe(200);
    expect(Number(just.headers['content-length'])).toBe(imageBytes);
    const pid = s.handle.deps.archives.status().pid!;
    const logMark = s.logger.lines.length;
    // the file must outlive the process that has it open (truncating or replacing it under kiwix-serve is a SIGBUS)
    let removedWhileRunning = false;
    const watch = setInterval(() => {
      if (!existsSync(row.file_path) && isAlive(pid)) removedWhileRunning = true;
    }, 1);
    // a range request is never answered from the proxy's memory, so these reach the archive server
    const inFlight = Array.from({ length: 8 }, () => fetchAll(`${s.url}${imagePath}`, { range: 'bytes=0-' }));
    const r = await s.admin.delete('/api/admin/archives/fixturepedia');
    clearInterval(watch);
    expect(r.status).toBe(200);
    for (const o of await Promise.all(inFlight)) {
      // each one either arrived whole, or was refused/cut cleanly (never a short 200 that looks whole)
      if (o.status === 206 && o.complete) expect(o.bytes).toBe(imageBytes);
      else expect([206, 404, 502, 503, 0]).toContain(o.status);
    }
    expect(removedWhileRunning).toBe(false);
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(row.file_path)).toBe(false);
    expect(s.logger.lines.slice(logMark).filter((l) => /crashed|hung|stopped \(/.test(String(l.msg)))).toEqual([]);
    const gone = await s.anon.get('/api/archives/view/fixturepedia/A/Water_heater');
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('not installed');
  });

  it('downloads are refused in offline mode with 503', async () => {
    const off = await startTestServer({ seed: 'household', config: { offline: true, archiveCatalogPath: path.join(temp.dir, 'archives.json'), archiveServerPort: await freePort() } });
    try {
      const r = await off.admin.post('/api/admin/archives/download/fixturepedia', {});
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('offline_mode');
    } finally {
      await off.close();
    }
  });
});
