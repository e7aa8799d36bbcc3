// The video hub in the browser at 390 px (issue 35), against the fakes of test/fakes/videos.ts: a
// member opens Videos (search says how an admin sets it up, since none is set), adds a YouTube
// channel by its @handle, sees its uploads and the listed PeerTube instance's videos in the hub,
// plays a YouTube video (the privacy-enhanced embed, stood in for here: no test reaches Google) and
// then a PeerTube one in the mini-player's <video> (the real MP4 through Hearth), and moves to
// another page while the player stays. The admin's Videos settings page shows what is set. axe
// finds nothing serious.
// Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PT_CC, startFakeVideoWorld, type FakeVideoWorld } from '../fakes/videos.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('Videos in the browser', () => {
  let w: FakeVideoWorld;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    w = await startFakeVideoWorld();
    server = await startTestServer({ seed: 'household', config: { youtubeFeedsUrl: w.youtube.url, fetchAllowOrigins: w.origins } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.put('/api/admin/videos', { peertubeUrls: [w.peertube.url] })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await w?.close();
  });

  it('adds a channel, plays a video in the mini-player and keeps it while moving to another page', async () => {
    const page = await pages.open('member', PHONE);
    // the embed's own page stands in for YouTube's player (tests never reach the internet)
    await page.route('https://www.youtube-nocookie.com/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html lang="en"><title>Player</title><body>YouTube player</body></html>' }));
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await page.goto(`${server.url}/videos`);
    await shown(page.getByRole('heading', { name: 'Videos', level: 1 }));
    await shown(page.getByText('No channels yet'));
    await shown(page.getByTestId('search-not-configured').getByText(/An admin adds one in Admin, Videos/));

    await page.getByLabel('Add a YouTube channel').fill('@kitchen');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await shown(page.getByRole('list', { name: 'Channels' }).getByRole('listitem', { name: 'Kitchen Channel' }));
    const hub = page.getByTestId('hub');
    await shown(hub.getByRole('listitem', { name: 'Sourdough at home' }));
    await shown(hub.getByRole('listitem', { name: 'Open film 1' }));
    // YouTube is never saved; a Creative Commons PeerTube video can be
    expect(await hub.getByRole('button', { name: 'Save Sourdough at home for offline' }).count()).toBe(0);
    await shown(hub.getByRole('button', { name: 'Save Open film 1 for offline' }));
    await expectNoSeriousA11yViolations(page, '/videos (phone)');
    expect(await fits()).toBe(true);

    // YouTube plays in the privacy-enhanced embed, inside the mini-player
    await hub.getByRole('button', { name: 'Play Sourdough at home' }).click();
    const player = page.getByRole('region', { name: 'Video player' });
    await shown(player.getByText('Sourdough at home'));
    expect(await player.locator('iframe').getAttribute('src')).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/kitchVid002\?/);
    await shown(player.getByText(/your browser talks to Google/));
    expect(await player.getByRole('combobox', { name: 'Playback speed' }).count()).toBe(0);

    // a PeerTube video plays from Hearth in a <video>
    await hub.getByRole('button', { name: 'Play Open film 1' }).click();
    await shown(player.getByText('Open film 1'));
    const video = player.locator('video');
    expect(await video.getAttribute('src')).toBe(`/api/videos/peertube/${PT_CC[0]}/stream?instance=${encodeURIComponent(w.peertube.url)}`);
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2);
    // Hearth's own <video>: speed, skip and a sleep timer (the YouTube embed has YouTube's own controls)
    await player.getByRole('combobox', { name: 'Playback speed' }).selectOption('1.25');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.25);
    await player.getByRole('button', { name: 'Forward 30 seconds' }).click();
    await player.getByRole('combobox', { name: /^Sleep timer/ }).selectOption('30');
    await shown(player.getByTestId('sleep-left').getByText(/^(30:00|29:\d\d)$/));
    expect(await fits()).toBe(true);
    await expectNoSeriousA11yViolations(page, '/videos with the video player (phone)');

    // another page: the same player stays
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'More' }).tap();
    await nav.getByRole('link', { name: 'Listen', exact: true }).tap();
    await shown(page.getByRole('heading', { name: 'Listen', level: 1 }));
    await shown(player.getByText('Open film 1'));
    expect(await video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
    expect(await fits()).toBe(true);

    // the admin's settings page says what is set
    const admin = await pages.open('admin', PHONE);
    await admin.goto(`${server.url}/videos/settings`);
    await shown(admin.getByRole('heading', { name: 'Videos settings', level: 1 }));
    expect(await admin.getByLabel('PeerTube instances').inputValue()).toBe(w.peertube.url);
    await expectNoSeriousA11yViolations(admin, '/videos/settings (phone)');
    expect(pages.pageErrors).toEqual([]);
  });
});
