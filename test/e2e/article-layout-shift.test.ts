// A saved article does not move once it is on screen (Lighthouse measured a cumulative layout
// shift of 0.241 on one). The article is saved through Hearth's own capture (the static path: the
// HTML and its pictures fetched through the guard, Readability in the parse worker), from a page
// whose pictures, like most sites', carry no width or height. On a phone, its picture is held back
// until the text has been drawn, then let through, as a slow line would deliver it; the layout
// shifts the page reports (PerformanceObserver 'layout-shift', no input in between) must add up
// to less than 0.1, the "good" line of the metric. This is a layout measure, not a timing one: the
// held picture makes the order of events the same on any machine.
// Needs the built web app (`npm run build:web`) and Chromium.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Route } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaptureEngine } from '../../server/modules/reader/capture/engine.js';
import type { CaptureEngine } from '../../server/modules/reader/capture/types.js';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { createSsrfGuard, type SsrfGuard } from '../../server/platform/ssrf.js';
import { launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const words = 'The kettle sang while the bread rose slowly on the counter by the window, and nobody hurried it.';
const para = (n: number) => Array.from({ length: n }, (_, i) => `<p>${i + 1}. ${words} ${words}</p>`).join('\n');

/** A news-like article: its lead picture at the top of the text, without width or height (its size is the file's). */
const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bread without hurry</title>
<meta property="og:site_name" content="The Slow Kitchen"></head><body>
<main><article><h1>Bread without hurry</h1><p class="byline">By Robin Baker</p>
<figure><img src="/pictures/loaf.png" alt="A loaf cooling on a rack"><figcaption>A loaf cooling on a rack</figcaption></figure>
${para(10)}
<img src="/pictures/crumb.jpg" alt="The crumb of the loaf">
${para(4)}
</article></main></body></html>`;

interface Shift {
  value: number;
  sources: string[];
}

describe('a saved article on a phone', () => {
  let site: Server;
  let origin: string;
  let guard: SsrfGuard;
  let engine: CaptureEngine;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    requireBuiltWebApp();
    const loaf = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#c8a165' } }).png().toBuffer();
    const crumb = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#e8d9b5' } }).jpeg().toBuffer();
    site = createServer((req, res) => {
      if (req.url === '/bread') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
      if (req.url === '/pictures/loaf.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(loaf);
      if (req.url === '/pictures/crumb.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(crumb);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    guard = createSsrfGuard({ allowOrigins: [origin] });
    // the static capture (no browser): the same reader view and pictures, without a Chromium per test
    engine = createCaptureEngine({ guard, browserEnabled: false, logger: createMemoryLogger('warn') });
    server = await startTestServer({ seed: 'household', config: { fetchAllowOrigins: [origin] }, overrides: { captureEngine: engine } });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await engine?.close();
    await guard?.close();
    await new Promise((r) => site?.close(r));
  });

  it('does not shift when its pictures arrive after its text (cumulative layout shift under 0.1)', async () => {
    const created = await server.member.post('/api/reader', { url: `${origin}/bread`, type: 'offline' });
    expect(created.status).toBe(201);
    const id = (created.body as { item: { id: string } }).item.id;
    await until(async () => (await server.member.get(`/api/reader/${id}`)).body.item.archiveState === 'ready', 'the article to be saved');

    const ctx = await signedInContext(browser, server.url, server.member.cookie!, PHONE);
    try {
      await ctx.addInitScript(() => {
        const shifts: Shift[] = [];
        (window as unknown as { shifts: Shift[] }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Array<{ node?: Node | null }> }>) {
            if (e.hadRecentInput) continue;
            shifts.push({ value: e.value, sources: e.sources.map((s) => (s.node instanceof Element ? `${s.node.tagName.toLowerCase()}.${s.node.className}` : String(s.node?.nodeName))) });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // the article's pictures wait until its text is on screen
      const held: Route[] = [];
      let hold = true;
      await ctx.route(`${server.url}/api/reader/${id}/archive/**`, (route) => (hold ? held.push(route) : route.continue()));
      const page = await ctx.newPage();
      await page.goto(`${server.url}/reader/${id}`);
      const content = page.getByTestId('reader-content');
      await shown(content.getByText('1. The kettle sang').first());
      await until(() => held.length >= 1, 'the article to ask for its pictures');
      hold = false;
      for (const r of held.splice(0)) await r.continue();
      // every picture in the text has arrived and been laid out
      await until(
        () => page.evaluate(() => [...document.querySelectorAll<HTMLImageElement>('[data-testid="reader-content"] img')].every((i) => i.complete && i.naturalWidth > 0)),
        'the pictures to load',
      );
      expect(await content.locator('img').count()).toBe(2);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const shifts = await page.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts);
      const cls = shifts.reduce((a, s) => a + s.value, 0);
      expect(cls, `layout shifts: ${JSON.stringify(shifts)}`).toBeLessThan(0.1);
    } finally {
      await ctx.close();
    }
  });
});
