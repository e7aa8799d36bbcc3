// The player page on a phone (renderer/src/features/media/PlayerPage.tsx): a real <video> playing a
// film from the fake Plex through Hearth's stream proxy (the fake serves a small real WebM/VP8 clip,
// test/fixtures/media/clip.webm, as every film's part). It plays, every read is a Range request the
// proxy answers 206, and after a seek to the middle currentTime moves on from the seek point; an
// episode says in a sentence why it does not play. No token reaches the page's requests.
// Needs the built web app (`npm run build:web`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const CLIP = readFileSync(path.join(import.meta.dirname, '../fixtures/media/clip.webm'));
const CLIP_SECONDS = 12;

describe('playing a film in the browser', () => {
  let fake: FakeMediaServer;
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  /** Every request the page made to Hearth, with its Range header and answer status. */
  const requests: Array<{ path: string; range: string | null; status: number }> = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    fake = await startFakeMediaServer({ partVideo: { bytes: CLIP, contentType: 'video/webm' } });
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

  it('plays a film through the stream proxy, and a seek to the middle asks the proxy for a Range from there', async () => {
    await page.goto(`${server.url}/media/play/103`);
    await shown(page.getByRole('heading', { name: /Glass Orchard/ }).or(page.getByRole('heading', { name: 'Film' })));
    await shown(video());
    expect(await video().getAttribute('src')).toBe('/api/mediaserver/stream/103');
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1);
    expect((await state()).duration).toBeCloseTo(CLIP_SECONDS, 0);
    // preload=metadata: the browser read the start only; a seek to the middle must ask for the middle
    await video().evaluate((v: HTMLVideoElement) => {
      v.currentTime = v.duration / 2;
    });
    await page.waitForFunction(() => {
      const v = document.querySelector('video');
      return !!v && !v.seeking && v.readyState >= 2;
    });
    const seekedTo = (await state()).time;
    expect(seekedTo).toBeGreaterThan(CLIP_SECONDS / 2 - 1);
    await video().evaluate((v: HTMLVideoElement) => v.play());
    await page.waitForFunction((from) => (document.querySelector('video')?.currentTime ?? 0) > from + 0.3, seekedTo);
    expect((await state()).error).toBeNull();

    const streamed = requests.filter((r) => r.path === '/api/mediaserver/stream/103');
    // every read of the film was a Range request, answered 206 by the proxy
    expect(streamed.length).toBeGreaterThanOrEqual(2);
    for (const r of streamed) expect(r).toMatchObject({ range: expect.stringMatching(/^bytes=\d+-/) as unknown, status: 206 });
    // (Chromium reads a clip this small whole from its first Range, so the seek itself is served
    // from what it holds; a Range from the middle is proven in test/api/media-proxy.test.ts)
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

  it('sent no token to the page and raised no page error', () => {
    expect(pageErrors).toEqual([]);
    const seen = JSON.stringify(requests);
    for (const t of fake.allTokens()) expect(seen.includes(t)).toBe(false);
  });
});
