// Today in a real browser at 390 px and 1280 px, against the Open-Meteo, Wikimedia, feed-site and
// TheSportsDB fakes: the admin sets the household's place by searching a town, adds a feed and follows a team;
// Home shows the Weather, Headlines, On this day, Scores and Briefing widgets with their "as of" line (the team's
// badge served by Hearth, today's match live with its score, the chat model's summary — or, with the
// model down, the facts and why there is no summary); the
// Today page shows them all and lets a member hide a feed; a copy whose refresh failed is marked not up to date, and a source
// with no copy says so with Try again. Axe finds nothing serious. Needs the built web app.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { startFakeFeeds, type FakeFeeds } from '../fakes/feeds.js';
import { startFakeMet, type FakeMet } from '../fakes/met-norway.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../fakes/open-meteo.js';
import { startFakeSportsDb, type FakeSportsDb } from '../fakes/sportsdb.js';
import { startFakeWikimedia, type FakeWikimedia } from '../fakes/wikimedia.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const WIDGETS = ['weather', 'news', 'on-this-day', 'scores', 'briefing'];
const SUMMARY = 'It is mainly clear in Harbourton at 14 degrees. The harbour bridge has reopened. Riverside are playing right now.';
const layout = { header: { weather: false, jokes: false, sports: false, locked: false }, canvas: WIDGETS.map((id) => ({ id: `row-${id}`, cols: [{ toolId: id, colSpan: 2 }] })) };

describe('Today', () => {
  let server: TestServer;
  let meteo: FakeOpenMeteo;
  let wiki: FakeWikimedia;
  let site: FakeFeeds;
  let sportsDb: FakeSportsDb;
  let ollama: FakeModelRuntime;
  let met: FakeMet;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    [meteo, wiki, site, sportsDb, ollama] = await Promise.all([startFakeOpenMeteo(), startFakeWikimedia(), startFakeFeeds(), startFakeSportsDb(), startFakeModelRuntime({ chunkDelayMs: 1, chatReply: SUMMARY })]);
    met = await startFakeMet();
    server = await startTestServer({
      seed: 'household',
      config: { openMeteoUrl: meteo.url, openMeteoGeoUrl: meteo.url, wikipediaUrl: `${wiki.url}/{lang}`, sportsDbUrl: sportsDb.url, metUrl: met.url, fetchAllowOrigins: [meteo.origin, wiki.origin, site.origin, sportsDb.origin, met.origin] },
      overrides: { modelRuntime: createOllamaClient({ baseUrl: ollama.url }), tuning: { briefingSummaryMs: 3000 } },
    });
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBe(200);
    for (const who of [server.admin, server.member]) expect((await who.put('/api/home-layout', layout)).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await Promise.all([meteo?.close(), wiki?.close(), site?.close(), sportsDb?.close(), ollama?.close(), met?.close()]);
    expect(pages.pageErrors).toEqual([]);
  });

  it('an admin on a laptop sets the place by searching a town, adds a feed, and sees the widgets on Home', async () => {
    const page = await pages.open('admin', DESKTOP);
    await page.goto(`${server.url}/admin/today`);
    await shown(page.getByTestId('current-place').getByText('Not set yet'));
    await page.getByRole('textbox', { name: 'Town' }).fill('Harbour');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Use Harbourton North Coast, Examplia' }).click();
    await shown(page.getByTestId('current-place').getByText('Harbourton (48.14, 11.58)'));
    expect(meteo.requests.filter((r) => r.path === '/v1/search').map((r) => r.query.get('name'))).toEqual(['Harbour']);

    await page.getByLabel('Feed or site address').fill(`${site.url}/rss.xml`);
    await page.getByRole('button', { name: 'Add feed' }).click();
    await shown(page.getByRole('button', { name: 'Remove Example Times' }));
    // a feed list imported from a file, then pasted: new feeds added, known ones and non-web addresses counted
    const opml = (title: string, path: string) =>
      `<?xml version="1.0"?><opml version="2.0"><head><title>Feeds</title></head><body><outline text="News"><outline type="rss" text="${title}" xmlUrl="${site.url}${path}"/><outline type="rss" text="Example Times" xmlUrl="${site.url}/rss.xml"/><outline type="rss" text="Old" xmlUrl="ftp://example.org/feed"/></outline></body></opml>`;
    await page.getByText('Import a feed list (OPML)').click();
    await page.getByLabel('OPML file').setInputFiles({ name: 'feeds.opml', mimeType: 'text/x-opml', buffer: Buffer.from(opml('Atom Weekly', '/atom.xml')) });
    await shown(page.getByText('1 feed added, 1 already followed, 1 skipped (no http or https feed address).'));
    await shown(page.getByRole('button', { name: 'Remove Atom Weekly' }));
    await page.getByLabel('Or paste the OPML').fill(opml('Json Daily', '/feed.json'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await shown(page.getByRole('button', { name: 'Remove Json Daily' }));
    await expectNoSeriousA11yViolations(page);
    // the same settings page on a phone: the import, the switches and the units fit
    await page.setViewportSize(PHONE.viewport);
    await shown(page.getByLabel('Or paste the OPML'));
    await shown(page.getByRole('link', { name: 'language and region' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize(DESKTOP.viewport);
    // the rest of the test reads Example Times only
    for (const f of (await server.admin.get('/api/admin/news/feeds')).body.feeds as Array<{ id: number; title: string }>) {
      if (f.title !== 'Example Times') expect((await server.admin.delete(`/api/admin/news/feeds/${f.id}`)).status).toBe(204);
    }
    await page.getByRole('textbox', { name: 'Team' }).fill('river');
    await page.getByRole('button', { name: 'Search teams' }).click();
    await page.getByRole('button', { name: 'Follow Riverside' }).click();
    await shown(page.getByRole('button', { name: 'Stop following Riverside' }));
    await expectNoSeriousA11yViolations(page);
    // Riverside plays today, and the match is being played
    sportsDb.matchDay = new Date().toISOString().slice(0, 10);
    sportsDb.live = true;

    await page.goto(server.url);
    const weather = page.getByTestId('widget-weather');
    await shown(weather.getByText('14° · Mainly clear in Harbourton'));
    await shown(weather.getByTestId('as-of'));
    await shown(page.getByTestId('widget-news').getByRole('link', { name: 'Harbour bridge reopens' }));
    await shown(page.getByTestId('widget-on-this-day').getByText(/A ferry line opens/));
    const scores = page.getByTestId('widget-scores');
    await shown(scores.getByText(/Last: Riverside 2–1 Hill Rovers/));
    await shown(scores.getByText('Live · 2H'));
    await shown(scores.getByText(/Hill Rovers 0–1 Riverside/));
    // the badge comes from Hearth (fetched once by the server), and it is a real picture
    const badge = scores.locator('img.today-badge');
    expect(await badge.getAttribute('src')).toBe('/api/sports/badges/134001');
    await expect.poll(() => badge.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(16);
    // the briefing in words, by the household chat model
    await shown(page.getByTestId('widget-briefing').getByTestId('briefing-summary').getByText(SUMMARY));
    expect(await page.getByText('Not up to date').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: '/tmp/hearth-laptop-today-home.png', fullPage: true });

    // the admin switches On this day off: Home says so instead of showing it
    await page.goto(`${server.url}/admin/today`);
    await page.getByRole('checkbox', { name: 'On this day' }).click();
    await expect.poll(async () => (await server.admin.get('/api/briefing/sections')).body.onThisDay).toBe(false);
    await shown(page.getByText(/Units: °C and km\/h/));
    await expectNoSeriousA11yViolations(page);
    await page.goto(server.url);
    await shown(page.getByTestId('widget-on-this-day').getByText('An admin switched On this day off.'));
    expect((await server.admin.put('/api/admin/briefing/sections', { onThisDay: true })).status).toBe(200);

    // the admin chooses MET Norway: Home's forecast comes from it (it has no "feels like")
    await page.goto(`${server.url}/admin/today`);
    await page.getByRole('combobox', { name: 'Weather source' }).selectOption('met-norway');
    await expect.poll(async () => (await server.admin.get('/api/admin/briefing')).body.weatherSource).toBe('met-norway');
    await page.goto(server.url);
    const metWeather = page.getByTestId('widget-weather');
    await shown(metWeather.getByText('10° · Clear sky in Harbourton'));
    expect(await metWeather.getByText(/Feels like/).count()).toBe(0);
    expect(met.requests.filter((r) => r.path.endsWith('/compact'))).toHaveLength(1);
    expect((await server.admin.put('/api/admin/briefing/weather-source', { source: 'open-meteo' })).status).toBe(200);
  });

  it('a member on a phone: the widgets, the Today page, hiding a feed; a failed refresh is marked, a missing source says so', async () => {
    // the chat model is down: the briefing still tells the facts, and why there is no summary
    await ollama.setMode('down');
    const page = await pages.open('member', PHONE);
    await page.goto(server.url);
    await shown(page.getByTestId('widget-weather').getByText(/Mainly clear in Harbourton/));
    const briefing = page.getByTestId('widget-briefing');
    await shown(briefing.getByText(/^In Harbourton it is mainly clear/));
    await shown(briefing.getByText(/^No summary in words: /));
    expect(await briefing.getByTestId('briefing-summary').count()).toBe(0);
    await page.getByTestId('widget-news').getByRole('link', { name: 'Open Today' }).click();
    await page.waitForURL(/\/today$/);
    await shown(page.getByTestId('today-weather').getByText('This week'));
    await shown(page.getByTestId('today-otd').getByText('Harbour Day'));
    await shown(page.getByTestId('today-scores').getByText('Riverside 2–1 Hill Rovers'));
    await shown(page.getByTestId('today-scores').getByRole('list', { name: 'Today’s matches' }).getByText('Live · 2H'));
    await shown(page.getByTestId('today-news').getByRole('link', { name: 'Harbour bridge reopens' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: '/tmp/hearth-phone-today.png', fullPage: true });

    await page.getByRole('button', { name: 'Hide Example Times' }).click();
    await shown(page.getByRole('button', { name: 'Show Example Times' }));
    await shown(page.getByText('No headlines yet from the feeds you follow.'));

    // the forecast's copy expires and its refresh fails; "on this day" has no copy and is limited
    await server.handle.deps.db('today_cache').where({ source: 'weather' }).update({ expires_at: '2000-01-01T00:00:00.000Z' });
    await server.handle.deps.db('today_cache').where({ source: 'on-this-day' }).delete();
    meteo.mode = 'garbage';
    wiki.mode = 'limited';
    await page.goto(server.url);
    await shown(page.getByTestId('widget-weather').getByText('Not up to date'));
    const otd = page.getByTestId('widget-on-this-day');
    await shown(otd.getByText(/could not be fetched from Wikipedia/));
    await shown(otd.getByRole('button', { name: 'Try again' }));
    await expectNoSeriousA11yViolations(page);
  });
});
