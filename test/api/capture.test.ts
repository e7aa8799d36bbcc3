// The capture engine in the real Chromium (Debian's /usr/bin/chromium or CHROMIUM_PATH) against
// local fixture pages; the SSRF guard lets through only the fixture site's exact origin.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedChromium, resolveChromiumPath, type SharedChromium } from '../../server/adapters/browser/chromium.js';
import { createCaptureEngine } from '../../server/modules/reader/capture/engine.js';
import { CaptureError, type CaptureEngine, type CaptureRequest } from '../../server/modules/reader/capture/types.js';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { createSsrfGuard, type SsrfGuard } from '../../server/platform/ssrf.js';
import { remoteRefs } from '../fixtures/capture/remote-refs.js';
import { articlePage, startCanary, startFixtureSite, type Canary, type FixtureSite } from '../fixtures/capture/server.js';
import { waitFor } from '../harness/net.js';
import { makeTempDir } from '../harness/temp-dir.js';

const CHROMIUM = resolveChromiumPath(process.env.CHROMIUM_PATH);
const haveChromium = existsSync(CHROMIUM);

let site: FixtureSite;
let canary: Canary;
let guard: SsrfGuard;
let browser: SharedChromium;
let engine: CaptureEngine;
const temp = makeTempDir('hearth-capture-');
let n = 0;

function req(p: string, extra: Partial<CaptureRequest> = {}): CaptureRequest {
  return { url: site.origin + p, mode: 'archive', outDir: path.join(temp.dir, `c${++n}`), publicBase: `/api/reader/item${n}/archive/`, ...extra };
}

async function captureError(p: Promise<unknown>): Promise<CaptureError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(CaptureError);
    return err as CaptureError;
  }
  throw new Error('expected the capture to fail');
}

function chromiumPids(): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => Number(f[1]) === process.pid && f.slice(2).join(' ').includes('hearth-no-network'))
    .map((f) => Number(f[0]));
}

describe.skipIf(!haveChromium)('capture engine in Chromium', () => {
  beforeAll(async () => {
    canary = await startCanary();
    site = await startFixtureSite(canary.port);
    guard = createSsrfGuard({ allowOrigins: [site.origin] });
    browser = createSharedChromium({ executablePath: CHROMIUM });
    engine = createCaptureEngine({ guard, browser, logger: createMemoryLogger('warn'), navigationTimeoutMs: 15_000, idleTimeoutMs: 2_000 });
  });
  afterAll(async () => {
    await engine?.close();
    await browser?.close();
    await guard?.close();
    await site?.close();
    await canary?.close();
    temp.remove();
  });

  it('captures an article: snapshot with every asset local, reader view, screenshot, og:image', async () => {
    const r = req('/article');
    const res = await engine.capture(r);
    expect(res.method).toBe('browser');
    expect(res.finalUrl).toBe(site.origin + '/article');
    expect(res.title).toBe('A quiet evening with the notebook');
    expect(res.byline).toMatch(/Robin Baker/);
    expect(res.siteName).toBe('Fixture Times');
    expect(res.lang).toBe('en');
    expect(res.publishedTime).toBe('2024-05-01T10:00:00Z');
    expect(res.faviconUrl).toBe(site.origin + '/img/favicon.png');
    expect(res.wordCount).toBeGreaterThan(200);
    expect(res.readingMins).toBeGreaterThanOrEqual(1);
    expect(res.contentText).toMatch(/shared notebook by the stove/);
    expect(res.contentHtml).toContain(`src="${r.publicBase}assets/`);
    expect(res.contentHtml).not.toMatch(/<script|on\w+=/i);
    expect(res.snapshotPath).toBe('index.html');
    expect(res.screenshotPath).toBe('screenshot.png');
    expect(res.ogImagePath).toBe('og-image.png');
    const html = readFileSync(path.join(r.outDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son\w+=/i);
    expect(remoteRefs(html)).toEqual([]);
    const assets = readdirSync(path.join(r.outDir, 'assets'));
    // hero 1x/2x, inline bg, favicon, main.css, extra.css (imported), font, 2 css backgrounds
    expect(assets.filter((a) => a.endsWith('.png')).length).toBeGreaterThanOrEqual(6);
    expect(assets.filter((a) => a.endsWith('.css')).length).toBe(2);
    expect(assets.some((a) => a.endsWith('.woff2'))).toBe(true);
    const css = assets.filter((a) => a.endsWith('.css')).map((a) => readFileSync(path.join(r.outDir, 'assets', a), 'utf8')).join('\n');
    expect(css).not.toMatch(/url\("?\/|url\("?http|@import "\//);
    expect(css).toContain('url(#g)');
    const shot = await sharp(path.join(r.outDir, 'screenshot.png')).metadata();
    expect(shot.width).toBe(640);
    expect(shot.height).toBe(400);
  });

  it('loads lazy images (loading=lazy and an IntersectionObserver data-src swap) by scrolling', async () => {
    const r = req('/lazy');
    const res = await engine.capture(r);
    expect(site.hits).toContain('/img/lazy-native.png');
    expect(site.hits).toContain('/img/lazy-io.png');
    const doc = new JSDOM(readFileSync(path.join(r.outDir, 'index.html'), 'utf8')).window.document;
    expect(doc.querySelector('#native')!.getAttribute('src')).toMatch(/^assets\/[0-9a-f]{32}\.png$/);
    expect(doc.querySelector('#io')!.getAttribute('src')).toMatch(/^assets\/[0-9a-f]{32}\.png$/);
    expect(res.contentHtml).toMatch(/assets\/[0-9a-f]{32}\.png/);
  });

  it('waits for JS-rendered content', async () => {
    const r = req('/js');
    const res = await engine.capture(r);
    expect(res.contentText).toMatch(/Paragraph 11 written by script/);
    expect(res.contentHtml).toContain(`${r.publicBase}assets/`);
    expect(readFileSync(path.join(r.outDir, 'index.html'), 'utf8')).not.toContain('Loading…');
  });

  it('takes a page that keeps reporting to its server once its own loading is done, without waiting out the idle budget', async () => {
    // a news-like page: a script POSTs to its server every 300 ms for as long as the page is open,
    // so the network is never quiet for 500 ms (Playwright's networkidle); and it draws its last
    // paragraph from a timer after the load, which the capture must still wait for
    site.routes.set('/beacon-page', (_q, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        articlePage(
          'A page that keeps reporting',
          '',
          `<script>setInterval(() => fetch('/beacon', { method: 'POST', body: 'seen' }).catch(() => {}), 300);
window.addEventListener('load', () => setTimeout(() => { const p = document.createElement('p'); p.textContent = 'Drawn after the load by a timer.'; document.querySelector('article').append(p); }, 300));</script>`,
        ),
      ),
    );
    let beacons = 0;
    site.routes.set('/beacon', (_q, res) => {
      beacons++;
      res.writeHead(204).end();
    });
    // an idle budget far past the test's own timeout: waiting for a quiet network never ends here
    const patient = createCaptureEngine({ guard, browser, logger: createMemoryLogger('warn'), navigationTimeoutMs: 15_000, idleTimeoutMs: 600_000 });
    try {
      const res = await patient.capture(req('/beacon-page'));
      expect(res.title).toBe('A page that keeps reporting');
      expect(res.contentText).toContain('Drawn after the load by a timer.');
      expect(beacons).toBeGreaterThan(0);
    } finally {
      await patient.close();
      site.routes.delete('/beacon-page');
      site.routes.delete('/beacon');
    }
  });

  it('follows a redirect chain (301 -> 302 -> page)', async () => {
    const res = await engine.capture(req('/r1'));
    expect(res.finalUrl).toBe(site.origin + '/article?from=redirect');
    expect(res.title).toBe('A quiet evening with the notebook');
  });
  it('keeps every request of a hostile page inside the guard: the loopback canary sees nothing', async () => {
    const r = req('/ssrf');
    const res = await engine.capture(r);
    expect(res.title).toBe('Tricky page');
    // give stray requests (beacons, retries) a moment to land, then check the canary
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(canary.requests).toEqual([]);
    expect(canary.connections).toBe(0);
    // the allowed origin's redirect to the canary was asked for, and went no further
    expect(site.hits).toContain('/to-canary');
    const html = readFileSync(path.join(r.outDir, 'index.html'), 'utf8');
    expect(remoteRefs(html)).toEqual([]);
    expect(html).not.toMatch(/<iframe|<script|\sping=|action=/i);
    expect(html).toContain('hearth-frame-placeholder');
  });

  it('control: with the canary allowed too, the same page does reach it (so the test above means something)', async () => {
    const open = createSsrfGuard({ allowOrigins: [site.origin, canary.origin] });
    const logger = createMemoryLogger('info');
    const e = createCaptureEngine({ guard: open, browser, logger, navigationTimeoutMs: 15_000, idleTimeoutMs: 2_000 });
    try {
      await e.capture(req('/ssrf'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const paths = canary.requests.map((l) => l.split(' ')[1]);
      for (const p of ['/img-127', '/redirected', '/linked.css', '/css-url.png', '/inline-style.png', '/iframe', '/fetch', '/xhr', '/srcset.png']) expect(paths, p).toContain(p);
      // the other encodings of loopback are still refused, the guard only exempts the exact origin
      for (const p of ['/img-localhost', '/img-v6', '/img-mapped', '/fetch-localhost']) expect(paths, p).not.toContain(p);
      const blocked = logger.lines.filter((l) => l.msg === 'capture: blocked a request').map((l) => String(l.host));
      // the refused hosts are logged by name, the page's address is not
      expect(blocked).toEqual(expect.arrayContaining(['169.254.169.254', 'localhost']));
      expect(JSON.stringify(logger.lines)).not.toContain('/ssrf');
    } finally {
      canary.requests.length = 0;
      await open.close();
    }
  });

  it('refuses a blocked top URL and a redirect from the allowed origin to a blocked one', async () => {
    const connectionsBefore = canary.connections;
    for (const url of [`http://127.0.0.1:${canary.port}/top`, `http://localhost:${canary.port}/`, 'http://169.254.169.254/latest/meta-data/', `http://[::1]:${canary.port}/`, `http://0x7f000001:${canary.port}/`, 'file:///etc/passwd']) {
      const e = await captureError(engine.capture({ ...req('/'), url }));
      expect(e.code, url).toBe('blocked_url');
    }
    const e = await captureError(engine.capture(req('/to-canary')));
    expect(e.code).toBe('blocked_url');
    expect(canary.requests).toEqual([]);
    expect(canary.connections).toBe(connectionsBefore);
  });

  it('fails a bot wall as a challenge with a clear message', async () => {
    const e = await captureError(engine.capture(req('/botwall')));
    expect(e.code).toBe('challenge');
    expect(e.message).toMatch(/bot check/);
  });

  it('maps a 404 to http_error and a PDF to not_html', async () => {
    const e1 = await captureError(engine.capture(req('/missing')));
    expect(e1.code).toBe('http_error');
    // the household reads what a 404 means, never the number
    expect(e1.message).toMatch(/does not exist/);
    expect(e1.message).not.toContain('404');
    const e2 = await captureError(engine.capture(req('/pdf')));
    expect(e2.code).toBe('not_html');
  });

  it('removes consent overlays instead of failing', async () => {
    const r = req('/consent');
    const res = await engine.capture(r);
    expect(res.title).toBe('Consent overlay article');
    const html = readFileSync(path.join(r.outDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/onetrust|privacy-wall|Accept all cookies/i);
    expect(res.contentText).not.toMatch(/cookies/i);
    expect(res.contentText).toMatch(/shared notebook/);
  });

  it('thumbnail mode: metadata, screenshot and og:image only', async () => {
    const r = req('/article', { mode: 'thumbnail' });
    const res = await engine.capture(r);
    expect(res).toMatchObject({ method: 'browser', title: 'A quiet evening with the notebook', siteName: 'Fixture Times', contentHtml: null, contentText: '', snapshotPath: null, screenshotPath: 'screenshot.png', ogImagePath: 'og-image.png' });
    expect(res.faviconUrl).toBe(site.origin + '/img/favicon.png');
    expect(existsSync(path.join(r.outDir, 'index.html'))).toBe(false);
  });

  it('keeps a page whose third-party script never answers (navigation timeout with content rendered)', async () => {
    site.routes.set('/stuck-script', (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html><head><title>Stuck script</title></head><body><article><h1>Stuck script</h1>${'<p>The page is all here, but a script at the end of it never arrives, so DOMContentLoaded never fires.</p>'.repeat(8)}</article><script src="/never.js"></script></body></html>`);
    });
    site.routes.set('/never.js', () => undefined); // never answers
    const e = createCaptureEngine({ guard, browser, navigationTimeoutMs: 1_500, idleTimeoutMs: 500 });
    const res = await e.capture(req('/stuck-script'));
    expect(res.method).toBe('browser');
    expect(res.title).toBe('Stuck script');
    expect(res.contentText).toMatch(/never arrives/);
  });

  it('cancels through the signal', async () => {
    // the page is held unanswered until the capture has ended: a capture that waited for the page
    // before it looked at the cancellation could not end first
    let answer: (() => void) | undefined;
    site.routes.set('/held', (_req, res) => {
      answer = () => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Held</title><p>held</p>');
    });
    try {
      const ac = new AbortController();
      const p = engine.capture(req('/held', { signal: ac.signal }));
      await waitFor(() => answer !== undefined, 'the held page to be asked for', 20_000);
      ac.abort();
      const e = await captureError(p);
      expect(e.code).toBe('cancelled');
    } finally {
      answer?.();
      site.routes.delete('/held');
    }
  });

  it('ends a capture cancelled while its page is being made, and closes its context', async () => {
    // The cancellation closes the capture's context, and Playwright's newPage never settles when
    // its context starts closing just before or while it runs: such a capture never ended, and a
    // server shutting down waited for it (test/api/search.test.ts's afterAll, under load).
    let when: 'as newPage is called' | 'while newPage runs' = 'as newPage is called';
    let ac = new AbortController();
    let closed: Promise<unknown> = Promise.resolve();
    const cancelling: SharedChromium = {
      ...browser,
      async newContext(options) {
        const ctx = await browser.newContext(options);
        closed = new Promise((resolve) => ctx.once('close', resolve));
        const newPage = ctx.newPage.bind(ctx);
        ctx.newPage = () => {
          if (when === 'as newPage is called') ac.abort();
          const page = newPage();
          if (when === 'while newPage runs') ac.abort();
          return page;
        };
        return ctx;
      },
    };
    const e = createCaptureEngine({ guard, browser: cancelling, navigationTimeoutMs: 15_000, idleTimeoutMs: 2_000 });
    try {
      for (when of ['as newPage is called', 'while newPage runs'] as const) {
        ac = new AbortController();
        expect((await captureError(e.capture(req('/article', { signal: ac.signal })))).code, when).toBe('cancelled');
        await closed;
      }
    } finally {
      await e.close();
    }
  });

  it('relaunches the shared browser after it dies', async () => {
    await engine.capture(req('/article', { mode: 'thumbnail' }));
    const before = browser.launches();
    const pids = chromiumPids();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const res = await engine.capture(req('/article', { mode: 'thumbnail' }));
    expect(res.method).toBe('browser');
    expect(browser.launches()).toBe(before + 1);
    // close() is not final: the next capture opens the browser again
    await browser.close();
    expect(chromiumPids()).toEqual([]);
    expect((await engine.capture(req('/article', { mode: 'thumbnail' }))).method).toBe('browser');
    expect(browser.launches()).toBe(before + 2);
  });

  it('falls back to the client snapshot when navigation fails', async () => {
    site.routes.set('/reset', (q) => q.socket.destroy());
    const client = `<!doctype html><html lang="en"><head><title>From the user's browser</title></head><body><article><h1>From the user's browser</h1>${'<p>The user saw this article in their own browser, with every paragraph already rendered for them.</p>'.repeat(10)}<img src="/img/hero.png"></article><script>alert(1)</script></body></html>`;
    const r = req('/reset', { clientSnapshot: { html: client, url: site.origin + '/reset' } });
    const res = await engine.capture(r);
    expect(res.method).toBe('client-snapshot');
    expect(res.title).toBe("From the user's browser");
    expect(res.contentHtml).toContain(`${r.publicBase}assets/`);
    const html = readFileSync(path.join(r.outDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script/i);
    expect(remoteRefs(html)).toEqual([]);
  });
});

describe('capture engine without a browser', () => {
  let s: FixtureSite;
  let g: SsrfGuard;
  let e: CaptureEngine;
  const t = makeTempDir('hearth-capture-static-');
  beforeAll(async () => {
    s = await startFixtureSite();
    g = createSsrfGuard({ allowOrigins: [s.origin] });
    e = createCaptureEngine({ guard: g, chromiumPath: path.join(t.dir, 'no-such-chromium'), logger: createMemoryLogger('warn') });
  });
  afterAll(async () => {
    await e?.close();
    await g?.close();
    await s?.close();
    t.remove();
  });

  it('falls back to a static fetch when the browser cannot launch', async () => {
    const outDir = path.join(t.dir, 'a');
    const res = await e.capture({ url: s.origin + '/r1', mode: 'archive', outDir, publicBase: '/x/' });
    expect(res.method).toBe('static');
    expect(res.finalUrl).toBe(s.origin + '/article?from=redirect');
    expect(res.title).toBe('A quiet evening with the notebook');
    expect(res.contentText).toMatch(/shared notebook/);
    expect(res.screenshotPath).toBeNull();
    expect(res.ogImagePath).toBe('og-image.png');
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script/i);
    expect(remoteRefs(html)).toEqual([]);
  });

  it('static fetch: challenge, http_error, not_html', async () => {
    const run = (p: string) => captureError(e.capture({ url: s.origin + p, mode: 'archive', outDir: path.join(t.dir, p.slice(1)), publicBase: '/x/' }));
    expect((await run('/botwall')).code).toBe('challenge');
    expect((await run('/missing')).code).toBe('http_error');
    expect((await run('/pdf')).code).toBe('not_html');
  });
});
