// A malicious archive in a real browser: a ZIM whose page loads an external script that tries
// everything a page on Hearth's origin could do with the viewer's session: fetch /api directly,
// add an iframe onto one of Hearth's own pages (and an about:blank one) and call /api through it
// (whoami, the Reader export, posting a notification), read the parent and top windows and the
// cookies, and open a window. The archive view is sandboxed into an opaque origin, so, signed in
// as the admin, in the Library's reader and opened on its own, none of it reaches /api with the
// session. The script writes what it got into the page, where the test reads it.
// Needs the built web app (`npm run build`), Debian's kiwix-tools and zim-tools.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeFileServer, sha256 } from '../fakes/file-server.js';
import { DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { freePort } from '../harness/net.js';
import { connectSse } from '../harness/sse-client.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { kiwixServeOnPath } from '../harness/zims.js';

/** A flat-coloured RGB PNG (zimwriterfs wants a 48x48 illustration). */
function png(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type), data])) >>> 0);
    return Buffer.concat([len, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, 0x80)]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

// Everything here runs inside the archive page. Each attempt records what it got; a fetch that
// reached /api with the session would record the signed-in user's name or the export.
const EVIL_JS = `
(async () => {
  const out = {};
  const attempt = async (name, fn) => {
    try { out[name] = String(await fn()); } catch (e) { out[name] = 'blocked: ' + (e && e.name); }
  };
  const viaFrame = (src, run) => new Promise((resolve) => {
    const f = document.createElement('iframe');
    if (src) f.src = src;
    let settled = false;
    const finish = (v) => { if (!settled) { settled = true; resolve(v); } };
    const go = async () => {
      try { finish(await run(f.contentWindow)); } catch (e) { finish('blocked: ' + (e && e.name)); }
    };
    f.onload = go;
    document.body.appendChild(f);
    if (!src) go();
    setTimeout(() => finish('no frame'), 4000);
  });
  const read = async (r) => r.status + ' ' + (await r.text()).slice(0, 200);
  await attempt('directFetch', async () => read(await fetch('/api/auth/me', { credentials: 'include' })));
  await attempt('frameMe', () => viaFrame('/', async (w) => read(await w.fetch('/api/auth/me', { credentials: 'include' }))));
  await attempt('frameExport', () => viaFrame('/library', async (w) => read(await w.fetch('/api/reader/export/json', { credentials: 'include' }))));
  await attempt('frameNotify', () => viaFrame('/', async (w) => read(await w.fetch('/api/notifications', {
    method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'system', title: 'PWNED by an archive', body: 'x', audience: 'all' }),
  }))));
  await attempt('blankFrameMe', () => viaFrame('', async (w) => read(await w.fetch('/api/auth/me', { credentials: 'include' }))));
  await attempt('parentDocument', () => parent.document.title + ' ' + parent.document.cookie);
  await attempt('parentFetch', async () => read(await parent.fetch('/api/auth/me', { credentials: 'include' })));
  await attempt('topDocument', () => top.document.title);
  await attempt('cookie', () => document.cookie);
  await attempt('storage', () => localStorage.length);
  await attempt('open', () => { const w = window.open('/'); return w ? 'opened ' + w.document.title : 'null'; });
  await attempt('beacon', () => navigator.sendBeacon('/api/auth/logout'));
  const pre = document.getElementById('result');
  pre.textContent = JSON.stringify(out);
  pre.dataset.done = '1';
})();
`;

const EVIL_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Harmless article</title></head>
<body><h1 id="firstHeading">Harmless article</h1><p>Nothing to see.</p><pre id="result"></pre>
<script src="evil.js"></script></body></html>
`;

describe('a malicious archive cannot act as the viewer', () => {
  const temp = makeTempDir('hearth-evil-zim-');
  let files: FakeFileServer;
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  /** Every request to /api (but the archive view itself) that carried the session cookie. */
  const withSession: string[] = [];

  async function open(device: typeof PHONE | typeof DESKTOP): Promise<Page> {
    const ctx = await signedInContext(browser, server.url, server.admin.cookie!, device);
    contexts.push(ctx);
    ctx.on('request', (req) => {
      const url = new URL(req.url());
      if (!url.pathname.startsWith('/api/') || url.pathname.startsWith('/api/archives/view/')) return;
      // the app's own calls come from the top document; anything from a frame is the archive's
      if (req.frame() === req.frame().page().mainFrame()) return;
      void req.allHeaders().then((h) => {
        if ((h.cookie ?? '').includes('session=')) withSession.push(`${req.method()} ${url.pathname}`);
      });
    });
    return ctx.newPage();
  }

  /** What the archive's script recorded, once it has finished. */
  async function resultIn(frame: Frame | Page): Promise<Record<string, string>> {
    const pre = frame.locator('#result[data-done="1"]');
    await pre.waitFor({ state: 'attached', timeout: 30_000 });
    return JSON.parse((await pre.textContent()) ?? '{}') as Record<string, string>;
  }

  function expectNothingReached(out: Record<string, string>) {
    // every attempt ran (the script itself was allowed to run) ...
    expect(Object.keys(out).sort()).toEqual(
      ['beacon', 'blankFrameMe', 'cookie', 'directFetch', 'frameExport', 'frameMe', 'frameNotify', 'open', 'parentDocument', 'parentFetch', 'storage', 'topDocument'].sort(),
    );
    // ... and none came back with anything of the household's
    const all = JSON.stringify(out);
    expect(all).not.toContain(server.users.admin.name);
    expect(all).not.toMatch(/"(frameMe|frameExport|frameNotify|blankFrameMe|directFetch|parentFetch)":"2\d\d /);
    expect(all).not.toContain('session=');
    expect(all).not.toContain('opened');
    // (sendBeacon answers true once queued; whether it got through shows in the admin's session, checked after)
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    const src = path.join(temp.dir, 'src');
    mkdirSync(path.join(src, 'img'), { recursive: true });
    writeFileSync(path.join(src, 'index.html'), EVIL_HTML);
    writeFileSync(path.join(src, 'evil.js'), EVIL_JS);
    writeFileSync(path.join(src, 'img', 'icon48.png'), png(48));
    const zim = path.join(temp.dir, 'evil_en_all_2024-05.zim');
    execFileSync(
      'zimwriterfs',
      ['-j', '--welcome=index.html', '--illustration=img/icon48.png', '--language=eng', '--name=evil_en_all', '--title=Evil', '--description=A malicious archive', '--creator=Mallory', '--publisher=Mallory', '--threads=1', src, zim],
      { stdio: 'ignore' },
    );
    files = await new FakeFileServer().start();
    const data = readFileSync(zim);
    const catalog = {
      sources: [
        {
          id: 'evil',
          label: 'Evil',
          description: 'A malicious archive',
          category: 'Encyclopedia',
          faviconUrl: 'https://example.org/e.ico',
          variants: [{ key: 'all', label: 'All', url: files.addFile('evil.zim', zim), sizeBytes: data.length, sha256: sha256(data), date: '2024-05', language: 'eng' }],
        },
      ],
    };
    const catalogFile = path.join(temp.dir, 'archives.json');
    writeFileSync(catalogFile, JSON.stringify(catalog));
    server = await startTestServer({
      seed: 'household',
      config: { archiveCatalogPath: catalogFile, fetchAllowOrigins: [files.url], archiveServerPort: await freePort(), kiwixServePath: kiwixServeOnPath() },
    });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    const install = await connectSse(server.url, '/api/admin/archives/download/evil', { cookie: server.admin.cookie! }, { body: {} });
    await install.ended;
    expect(install.events.at(-1)?.event).toBe('done');
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await files?.close();
    temp.remove();
  });

  it('in the Library reader on a phone, the archive script runs but reaches nothing of the admin\'s', async () => {
    const notificationsBefore = (await server.admin.get('/api/notifications')).body.notifications.length;
    const page = await open(PHONE);
    await page.goto(`${server.url}/read/evil`);
    await shown(page.getByRole('heading', { name: 'Evil' }));
    const frame = page.frameLocator('[data-testid="reader-frame"]');
    await shown(frame.locator('#firstHeading', { hasText: 'Harmless article' }));
    const reader = page.frames().find((f) => f.url().includes('/api/archives/view/evil/'))!;
    const out = await resultIn(reader);
    console.info('archive script in the reader:', out);
    expectNothingReached(out);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-evil.png' });
    // the app around it is unharmed: still signed in, no notification was posted
    await page.getByRole('link', { name: 'Library', exact: true }).first().tap();
    await shown(page.getByTestId('shelf-reference'));
    expect((await server.admin.get('/api/auth/me')).status).toBe(200);
    expect((await server.admin.get('/api/notifications')).body.notifications.length).toBe(notificationsBefore);
    expect(withSession).toEqual([]);
  });

  it('opened on its own on a laptop, the archive page is just as powerless', async () => {
    const page = await open(DESKTOP);
    await page.goto(`${server.url}/api/archives/view/evil/`);
    await shown(page.locator('#firstHeading', { hasText: 'Harmless article' }));
    const out = await resultIn(page);
    console.info('archive script on its own:', out);
    expectNothingReached(out);
    expect(withSession).toEqual([]);
    expect((await server.admin.get('/api/auth/me')).status).toBe(200);
  });
});
