// The player page on a phone (renderer/src/features/media/PlayerPage.tsx): a real <video> playing a
// film from the fake Plex through Hearth's stream proxy (the fake serves a small real WebM/VP8 clip,
// test/fixtures/media/clip.webm, as every film's part, slowly: 100 KB/s). It plays, every read is a
// Range request the proxy answers 206, and a seek to 80 % (far past what the first read has brought)
// reaches the fake through Hearth as a Range from there, answered 206, and plays on from the seek
// point; an episode says in a sentence why it does not play. No token reaches the page's requests,
// its JSON answers or a log line.
// Needs the built web app (`npm run build:web`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const CLIP = readFileSync(path.join(import.meta.dirname, '../fixtures/media/clip.webm'));
const CLIP_SECONDS = 12;
/** About 8 s for the whole clip (a bit faster than it plays): a seek to 80 % comes long before the first read gets there. */
const PART_BYTES_PER_SECOND = 100_000;

describe('playing a film in the browser', () => {
  let fake: FakeMediaServer;
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const scan = createTokenScan();
  /** Every request the page made to Hearth, with its Range header and answer status. */
  const requests: Array<{ path: string; range: string | null; status: number }> = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    fake = await startFakeMediaServer({ partVideo: { bytes: CLIP, contentType: 'video/webm' }, partBytesPerSecond: PART_BYTES_PER_SECOND });
    server = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl },
    });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
    context = await signedInContext(browser, server.url, server.member.cookie!, PHONE);
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    scan.watch(server);
    scan.watchPage(page, 'member');
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.origin === server.url) requests.push({ path: url.pathname + url.search, range: res.request().headers().range ?? null, status: res.status() });
    });
  });

  afterAll(async () => {
    await context?.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  const video = () => page.locator('video');
  const state = () => video().evaluate((v: HTMLVideoElement) => ({ time: v.currentTime, duration: v.duration, paused: v.paused, error: v.error?.code ?? null, ready: v.readyState }));

  it('plays a film through the stream proxy, and a seek to 80 % asks the fake for a Range from there and plays on', async () => {
    await page.goto(`${server.url}/media/play/103`);
    await shown(page.getByRole('heading', { name: /Glass Orchard/ }).or(page.getByRole('heading', { name: 'Film' })));
    await shown(video());
    expect(await video().getAttribute('src')).toBe('/api/mediaserver/stream/103');
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1);
    expect((await state()).duration).toBeCloseTo(CLIP_SECONDS, 0);

    // the fake sends the part slowly: the browser holds the start only, so the seek needs bytes it has not got
    const seekFrom = fake.log.length;
    const pageFrom = requests.length;
    const target = CLIP_SECONDS * 0.8;
    await video().evaluate((v: HTMLVideoElement, to: number) => {
      v.currentTime = to;
    }, target);
    await page.waitForFunction(() => {
      const v = document.querySelector('video');
      return !!v && !v.seeking && v.readyState >= 2;
    });
    const seekedTo = (await state()).time;
    expect(Math.abs(seekedTo - target)).toBeLessThan(1);
    await video().evaluate((v: HTMLVideoElement) => v.play());
    await page.waitForFunction((from) => (document.querySelector('video')?.currentTime ?? 0) > from + 0.5, seekedTo);
    expect((await state())).toMatchObject({ error: null, paused: false });

    // the seek reached the fake through Hearth as a Range from well past the start, answered 206
    const midFile = (l: { range: string | null }) => Number(/^bytes=(\d+)-$/.exec(l.range ?? '')?.[1] ?? 0) > CLIP.length / 2;
    const afterSeek = fake.log.slice(seekFrom).filter((l) => l.path.startsWith('/library/parts/'));
    const seekRead = afterSeek.find(midFile);
    expect(seekRead, `part requests after the seek: ${JSON.stringify(afterSeek.map((l) => l.range))}`).toBeDefined();
    expect(seekRead).toMatchObject({ method: 'GET', tokenVia: 'header', query: '' });
    // (the fake notes the status when the answer ends or the browser drops it)
    await vi.waitFor(() => expect(seekRead!.status).toBe(206), { timeout: 15_000 });
    const pageSeekRead = requests.slice(pageFrom).find((r) => r.path === '/api/mediaserver/stream/103' && r.range === seekRead!.range);
    expect(pageSeekRead).toMatchObject({ status: 206 });

    const streamed = requests.filter((r) => r.path === '/api/mediaserver/stream/103');
    // every read of the film was a Range request, answered 206 by the proxy
    expect(streamed.length).toBeGreaterThanOrEqual(2);
    for (const r of streamed) expect(r).toMatchObject({ range: expect.stringMatching(/^bytes=\d+-/) as unknown, status: 206 });
    // and the server saw the same Ranges with the token in a header, never in a URL
    const parts = fake.log.filter((l) => l.path.startsWith('/library/parts/'));
    expect(parts.map((l) => l.range)).toEqual(expect.arrayContaining(streamed.map((r) => r.range)));
    for (const l of parts) expect(l).toMatchObject({ tokenVia: 'header', query: '' });
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: '/tmp/hearth-phone-media-play.png' });
  });

  it('says in a sentence why an episode does not play, with a way back', async () => {
    await page.goto(`${server.url}/media/play/20111`);
    const alert = page.getByRole('alert');
    await shown(alert.getByText('This film does not play here'));
    await shown(alert.getByText(/Episodes do not play in the browser/));
    await shown(page.getByRole('link', { name: 'Back to Media' }));
    await expectNoSeriousA11yViolations(page);
  });

  it('sent no token to the page or a log line and raised no page error', async () => {
    expect(pageErrors).toEqual([]);
    const seen = JSON.stringify(requests);
    for (const t of fake.allTokens()) expect(seen.includes(t)).toBe(false);
    await context.close();
    await scan.settled();
    scan.expectNoTokens(fake.allTokens());
  });
});
