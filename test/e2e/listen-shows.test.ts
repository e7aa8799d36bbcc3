// Issue 35 in the browser at 390 px, against the podcast fakes (Apple's directory, a feed host whose
// enclosures serve a real 2-minute WAV made here), the TVmaze fake and the Plex fake: a member searches
// podcasts (a show without a feed address is offered disabled, with the reason; the results say Apple's
// directory answered), follows one, imports
// an OPML file (counted: already followed, unreadable), plays its new episode in the mini-player,
// moves to another page while it keeps playing, and pauses: the position is saved (read back
// through the API), and after a reload Resume starts there. On the show's page they download the
// episode for offline (through the download queue), choose to keep the newest 3, and after a reload it
// plays from Hearth's copy (the enclosure host is not asked); started again in offline mode, the
// Listen pages say what waits (search, checking, downloading, an episode not downloaded) and the
// downloaded episode can still play. Before that an admin adds a Podcast Index key on Listen (a
// refused one is not saved) and the search then says Podcast Index answered.
// On Watch one search finds shows and
// films: they add Harbor Lights to their watchlist, see what airs next grouped by day, add the film
// The Night Harbor from Plex's catalogue (copied to their own Plex watchlist), open it ("In your
// Plex — Play"), open the show (poster served by Hearth, "In your Plex" linking to its Media page)
// and tick an episode (saved, read back); the Watch page also fits 1280 px. axe finds nothing serious.
// Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PI_KEY, PI_SECRET, startFakePodcastIndex, type FakePodcastIndex } from '../fakes/podcast-index.js';
import { item, startFakePodcasts, type FakePodcasts } from '../fakes/podcasts.js';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { startFakeTvmaze, type FakeTvmaze } from '../fakes/tvmaze.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

/** A mono 8 kHz 8-bit WAV of a quiet 440 Hz tone: a file any browser plays. */
function toneWav(seconds: number): Buffer {
  const rate = 8000;
  const n = rate * seconds;
  const b = Buffer.alloc(44 + n);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + n, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(n, 40);
  for (let i = 0; i < n; i++) b[44 + i] = 128 + Math.round(20 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return b;
}

describe('Listen and Watch in the browser', () => {
  let pods: FakePodcasts;
  let pi: FakePodcastIndex;
  let tv: FakeTvmaze;
  let plex: FakeMediaServer;
  let server: TestServer;
  let browser: Browser;
  // kept across the two starts (online, then in offline mode)
  const temp = makeTempDir();
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    pods = await startFakePodcasts();
    pods.state.audio = { body: toneWav(120), type: 'audio/wav' };
    // published tomorrow: after the member follows the show, so it is in their inbox
    const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
    pods.state.extraItems = [item('ep-3', 'Episode 3: Pie', `${pods.url}/audio/ep3.wav`, tomorrow, '2:00')];
    pi = await startFakePodcastIndex();
    tv = await startFakeTvmaze({ now: () => new Date() });
    plex = await startFakeMediaServer();
    server = await startTestServer({
      seed: 'household',
      dataDir: temp.dir,
      config: {
        itunesUrl: pods.url,
        podcastIndexUrl: pi.base,
        tvmazeUrl: tv.url,
        fetchAllowOrigins: [pods.origin, pi.origin, tv.origin, plex.url],
        mediaAccountUrl: plex.accountUrl,
        mediaDiscoverUrl: plex.discoverUrl,
        mediaLinkPageUrl: `${plex.url}/auth`,
      },
    });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    // the household's Plex, and the member's account linked to it (for the badge)
    expect((await server.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: plex.url, token: plex.tokens.admin })).status).toBe(200);
    const pin = await server.member.post('/api/mediaserver/auth/pin');
    plex.approvePin(pin.body.id, 'alice');
    expect((await server.member.post('/api/mediaserver/me/link', { pinId: pin.body.id })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await pods?.close();
    await pi?.close();
    await tv?.close();
    await plex?.close();
    temp.remove();
  });

  it('follows a podcast, plays it across pages and saves the place; watchlists a show, sees the schedule and ticks an episode', async () => {
    const page = await pages.open('member', PHONE);
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await page.goto(`${server.url}/listen`);
    await shown(page.getByText('You follow no shows yet'));

    // search: the show Apple lists without a feed address is offered, disabled, with the reason
    await page.getByRole('searchbox', { name: 'Search podcasts' }).fill('kitchen');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    await shown(page.getByText('Results from Apple’s podcast directory.'));
    await shown(results.getByRole('listitem', { name: 'Kitchen Secrets (Apple only)' }).getByText(/cannot follow it/));
    expect(await results.getByRole('button', { name: 'Follow Kitchen Secrets (Apple only)' }).isDisabled()).toBe(true);
    await results.getByRole('button', { name: 'Follow Kitchen Table Talk' }).click();
    await shown(results.getByRole('link', { name: 'Following' }));
    const yours = page.getByRole('list', { name: 'Your shows' });
    await shown(yours.getByRole('link', { name: /Kitchen Table Talk/ }));
    // its cover comes from Hearth, fetched once from the feed's image address
    const cover = yours.locator('img.listen-cover').first();
    expect(await cover.getAttribute('src')).toMatch(/^\/api\/podcasts\/subscriptions\/[^/]+\/image$/);
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
    const inbox = page.getByTestId('inbox');
    await shown(inbox.getByRole('listitem', { name: 'Episode 3: Pie' }));
    expect(await page.getByRole('link', { name: 'Export my shows (OPML)' }).getAttribute('href')).toBe('/api/podcasts/opml');
    // an OPML file from another app: the show it names moved (301) to the one followed, the other is not a feed
    const opml = `<?xml version="1.0"?><opml version="2.0"><body><outline type="rss" text="Old" xmlUrl="${pods.url}/feeds/old.xml"/><outline type="rss" text="Broken" xmlUrl="${pods.url}/feeds/broken.xml"/></body></opml>`;
    await page.getByTestId('opml-file').setInputFiles({ name: 'from-my-old-app.opml', mimeType: 'text/xml', buffer: Buffer.from(opml) });
    await shown(page.getByText('0 shows followed, 1 already followed, 1 could not be read.'));
    await expectNoSeriousA11yViolations(page, '/listen (phone)');
    expect(await fits()).toBe(true);

    // play the new episode: the mini-player plays Hearth's copy of the audio
    await inbox.getByRole('button', { name: 'Play Episode 3: Pie' }).click();
    const player = page.getByRole('region', { name: 'Podcast player' });
    await shown(player.getByText('Episode 3: Pie'));
    const audio = player.locator('audio');
    expect(await audio.getAttribute('src')).toMatch(/^\/api\/podcasts\/episodes\/[^/]+\/audio$/);
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 1);
    await player.getByRole('button', { name: 'Forward 30 seconds' }).click();
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 30);
    // the list's button says what it would do now; the speed applies to the audio; the sleep timer shows the time left
    await shown(inbox.getByRole('button', { name: 'Pause Episode 3: Pie' }));
    await player.getByRole('combobox', { name: 'Playback speed' }).selectOption('1.5');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.playbackRate)).toBe(1.5);
    await player.getByRole('combobox', { name: /^Sleep timer/ }).selectOption('15');
    await shown(player.getByRole('combobox', { name: /^Sleep timer: pauses in 1[45]:\d\d$/ }));
    expect(await player.getByTestId('sleep-left').textContent()).toMatch(/^1[45]:\d\d$/);
    await expectNoSeriousA11yViolations(page, '/listen with the mini-player (phone)');

    // another page: the same player keeps playing
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'More' }).tap();
    await nav.getByRole('link', { name: 'Watch', exact: true }).tap();
    await shown(page.getByRole('heading', { name: 'Watch', level: 1 }));
    const before = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);
    await page.waitForFunction((t) => { const a = document.querySelector('audio'); return !!a && !a.paused && a.currentTime > t + 0.5; }, before);

    // pausing saves the place (stamped now), read back through the API
    await player.getByRole('button', { name: 'Pause', exact: true }).click();
    await shown(player.getByRole('button', { name: 'Play', exact: true }));
    const subs = (await server.member.get('/api/podcasts/subscriptions')).body.subscriptions as { id: string }[];
    await expect
      .poll(async () => ((await server.member.get(`/api/podcasts/subscriptions/${subs[0]!.id}/episodes`)).body.episodes as { title: string; positionSec: number }[]).find((e) => e.title === 'Episode 3: Pie')?.positionSec)
      .toBeGreaterThanOrEqual(30);

    // Watch: one search for shows (TVmaze) and films (Plex's catalogue, the member linked Plex); a show
    // on the watchlist, what airs next by day
    await page.getByRole('searchbox', { name: 'Search shows and films' }).fill('harbor');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const found = page.getByRole('list', { name: 'Shows found' });
    await found.getByRole('button', { name: 'Add Harbor Lights to your watchlist' }).click();
    await shown(found.getByRole('listitem', { name: 'Harbor Lights' }).getByText('On your watchlist'));
    const watchlist = page.getByTestId('watchlist');
    await shown(watchlist.getByRole('listitem', { name: 'Harbor Lights' }).getByText(/^Next: S2 E3/));
    const schedule = page.getByTestId('schedule');
    await shown(schedule.getByRole('heading', { level: 3 }).first());
    expect(await schedule.getByRole('link', { name: 'Harbor Lights' }).count()).toBe(2); // S2 E3 and S2 E4, in 2 and 9 days
    // a film from Plex's catalogue: on the member's watchlist here and on their own Plex watchlist
    const films = page.getByRole('list', { name: 'Films found' });
    await shown(page.getByText('Searched Plex’s catalogue with your Plex account.'));
    await films.getByRole('button', { name: 'Add The Night Harbor to your watchlist' }).click();
    await shown(films.getByRole('listitem', { name: 'The Night Harbor' }).getByText('On your watchlist'));
    const myFilms = page.getByTestId('film-watchlist');
    await shown(myFilms.getByRole('listitem', { name: 'The Night Harbor' }).getByText(/Also on your Plex watchlist/));
    expect(plex.state().watchlists.alice).toContain('The Night Harbor');
    await expectNoSeriousA11yViolations(page, '/watch (phone)');
    expect(await fits()).toBe(true);

    // the film's page: the household's Plex has it, Play opens it in Hearth's Media player
    await myFilms.getByRole('link', { name: 'The Night Harbor' }).click();
    await shown(page.getByRole('heading', { name: 'The Night Harbor (2019)', level: 1 }));
    await shown(page.getByText('In your Plex'));
    expect(await page.getByRole('link', { name: 'Play', exact: true }).getAttribute('href')).toBe('/media/play/101');
    await expect.poll(() => page.locator('img.show-poster--large').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page, '/watch/films/:id (phone)');
    expect(await fits()).toBe(true);
    await page.goBack();
    await shown(page.getByRole('heading', { name: 'Watch', level: 1 }));

    // the show's guide: Hearth's poster, the Plex badge, a tick saved
    await watchlist.getByRole('link', { name: 'Harbor Lights' }).click();
    await shown(page.getByRole('heading', { name: 'Harbor Lights', level: 1 }));
    await shown(page.getByText('In your Plex'));
    expect(await page.getByRole('link', { name: 'Open it in Media' }).getAttribute('href')).toBe('/media/title/201');
    const poster = page.locator('img.show-poster--large');
    expect(await poster.getAttribute('src')).toBe('/api/shows/9901/image');
    await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
    const tick = page.getByRole('checkbox', { name: /^Seen S2 E1 / });
    // a click, not check(): the tick is written after the show's pending fetch is cancelled, a moment later
    await tick.click();
    await expect.poll(async () => ((await server.member.get('/api/shows/9901')).body.episodes as { id: number; watched: boolean }[]).find((e) => e.id === 990121)?.watched).toBe(true);
    await expect.poll(() => tick.isChecked()).toBe(true);
    await shown(page.getByRole('link', { name: 'TVmaze' }));
    await expectNoSeriousA11yViolations(page, '/shows/9901 (phone)');
    expect(await fits()).toBe(true);

    // the Watch page on a wide screen: shows and films side by side, nothing wider than the window
    const wide = await pages.open('member', DESKTOP);
    await wide.goto(`${server.url}/watch`);
    await shown(wide.getByTestId('film-watchlist').getByRole('listitem', { name: 'The Night Harbor' }));
    await shown(wide.getByTestId('watchlist').getByRole('listitem', { name: 'Harbor Lights' }));
    expect(await wide.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoSeriousA11yViolations(wide, '/watch (desktop)');

    // after a reload nothing plays by itself; Resume starts where the member paused
    await page.goto(`${server.url}/listen`);
    await page.getByTestId('inbox').getByRole('button', { name: 'Resume Episode 3: Pie' }).click();
    await shown(player.getByText('Episode 3: Pie'));
    await page.waitForFunction(() => { const a = document.querySelector('audio'); return !!a && !a.paused && a.currentTime >= 30; });
    // the speed chosen before is remembered on this device
    expect(await audio.evaluate((a: HTMLAudioElement) => a.playbackRate)).toBe(1.5);
    await player.getByRole('button', { name: 'Pause', exact: true }).click();
    await shown(page.getByTestId('inbox').getByRole('button', { name: 'Resume Episode 3: Pie' }));

    // on the show's page: download it for offline (Hearth's download queue fetches a copy), keep the newest N
    await page.getByRole('list', { name: 'Your shows' }).getByRole('link', { name: /Kitchen Table Talk/ }).click();
    const pie = page.getByTestId('episodes').getByRole('listitem', { name: 'Episode 3: Pie' });
    await pie.getByRole('button', { name: 'Download Episode 3: Pie for offline' }).click();
    await shown(pie.getByText(/^Downloaded · \d/));
    await page.getByRole('combobox', { name: 'Keep downloaded' }).selectOption('3');
    await shown(page.getByText(/Hearth downloads new episodes by itself/));
    await expectNoSeriousA11yViolations(page, '/listen/:id with a download (phone)');
    expect(await fits()).toBe(true);
    // after a reload it plays from the copy: the feed's audio host is not asked again
    const enclosureAsks = () => pods.requests.filter((r) => r.path === '/audio/ep3.wav').length;
    const asked = enclosureAsks();
    await page.reload();
    await page.getByTestId('episodes').getByRole('button', { name: 'Resume Episode 3: Pie' }).click();
    await page.waitForFunction(() => { const a = document.querySelector('audio'); return !!a && !a.paused && a.readyState >= 3 && a.currentTime >= 31; });
    expect(enclosureAsks()).toBe(asked);
    await player.getByRole('button', { name: 'Pause', exact: true }).click();

    // an admin adds a Podcast Index key on the Listen page: a refused secret is not saved (a sentence
    // says why), a good pair is, and searches then say Podcast Index answered
    const admin = await pages.open('admin', PHONE);
    await admin.goto(`${server.url}/listen`);
    const key = admin.getByLabel('Podcast Index API key');
    await key.fill(PI_KEY);
    await admin.getByLabel('Podcast Index API secret').fill('not-the-secret');
    await admin.getByRole('button', { name: 'Check and save' }).click();
    await shown(admin.getByText(/Podcast Index refused that key and secret, so they were not saved/));
    await admin.getByLabel('Podcast Index API secret').fill(PI_SECRET);
    await admin.getByRole('button', { name: 'Check and save' }).click();
    await shown(admin.getByText(`Key ending ${PI_KEY.slice(-4)} saved`));
    await admin.getByRole('searchbox', { name: 'Search podcasts' }).fill('kitchen');
    await admin.getByRole('button', { name: 'Search', exact: true }).click();
    await shown(admin.getByText('Results from Podcast Index.'));
    expect(await admin.getByRole('list', { name: 'Search results' }).getByRole('listitem', { name: 'Kitchen Archive (gone)' }).count()).toBe(0);
    await expectNoSeriousA11yViolations(admin, '/listen with the Podcast Index card (phone, admin)');
    expect(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Hearth started again in offline mode: downloaded episodes play, the rest says why it waits
    const port = Number(new URL(server.url).port);
    await server.close();
    server = await startTestServer({ dataDir: temp.dir, port, config: { itunesUrl: pods.url, fetchAllowOrigins: [pods.origin], offline: true } });
    await page.goto(`${server.url}/listen`);
    await shown(page.getByText(/Hearth is in offline mode, so searching the podcast directory/));
    expect(await page.getByRole('searchbox', { name: 'Search podcasts' }).count()).toBe(0);
    await page.getByRole('list', { name: 'Your shows' }).getByRole('link', { name: /Kitchen Table Talk/ }).click();
    await shown(page.getByText(/Hearth is in offline mode: downloaded episodes play/));
    expect(await page.getByRole('button', { name: 'Check for new episodes' }).isDisabled()).toBe(true);
    const bonus = page.getByTestId('episodes').getByRole('listitem', { name: 'Bonus: no guid' });
    await shown(bonus.getByText('Not downloaded: it plays once Hearth is out of offline mode.'));
    expect(await bonus.getByRole('button', { name: 'Play Bonus: no guid' }).isDisabled()).toBe(true);
    expect(await bonus.getByRole('button', { name: 'Download Bonus: no guid (not in offline mode)' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('episodes').getByRole('button', { name: 'Resume Episode 3: Pie' }).isEnabled()).toBe(true);
    await expectNoSeriousA11yViolations(page, '/listen/:id in offline mode (phone)');
    expect(await fits()).toBe(true);
    expect(pages.pageErrors).toEqual([]);
  });
});
