// Language and region in a real browser at 390 px (and the admin page at 1280 px), against the
// Open-Meteo and TVmaze fakes: an admin switches the household to imperial units, a 12-hour clock
// and another time zone (found by searching), sees the preview follow, saves, and then Today's
// weather is in °F with its "as of" time on a 12-hour clock and a show's next air time is written
// in the new zone; a member chooses metric for themselves on their profile and their Today is in
// °C while the admin's stays °F. Axe finds nothing serious. Needs the built web app.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../fakes/open-meteo.js';
import { startFakeTvmaze, type FakeTvmaze } from '../fakes/tvmaze.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const ZONE = 'America/Chicago';
/** "21:00" → "9:00 PM", as en-US writes a 12-hour clock (a narrow space before PM in recent ICU). */
const twelveHour = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return `${h % 12 || 12}:${String(m).padStart(2, '0')}\\s${h < 12 ? 'AM' : 'PM'}`;
};

describe('Language and region', () => {
  let server: TestServer;
  let meteo: FakeOpenMeteo;
  let tv: FakeTvmaze;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));
  const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  beforeAll(async () => {
    requireBuiltWebApp();
    [meteo, tv] = await Promise.all([startFakeOpenMeteo(), startFakeTvmaze({ now: () => new Date() })]);
    server = await startTestServer({
      seed: 'household',
      config: { openMeteoUrl: meteo.url, openMeteoGeoUrl: meteo.url, tvmazeUrl: tv.url, fetchAllowOrigins: [meteo.origin, tv.origin] },
    });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.14, lon: 11.58 })).status).toBe(200);
    // the household starts as a metric, 24-hour, UTC household in US English
    expect((await server.admin.req('PUT', '/api/admin/locale', { language: 'en-US', timeZone: 'UTC', units: 'metric', timeFormat: '24h' })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await Promise.all([meteo?.close(), tv?.close()]);
    expect(pages.pageErrors).toEqual([]);
  });

  it('an admin on a phone switches to imperial, 12-hour and Chicago; Today and a show follow; a member keeps metric', async () => {
    const page = await pages.open('admin', PHONE);
    await page.goto(`${server.url}/today`);
    const weather = page.getByTestId('today-weather');
    await shown(weather.getByText('14 °C'));

    await page.goto(`${server.url}/admin/locale`);
    await shown(page.getByRole('heading', { name: 'Language and region', level: 1 }));
    const preview = page.getByTestId('locale-preview');
    await shown(preview.getByText('20 °C'));
    await page.getByRole('button', { name: 'Imperial' }).click();
    await page.getByRole('combobox', { name: 'Time format' }).selectOption('12h');
    await page.getByRole('searchbox', { name: 'Search time zones' }).fill('chicago');
    await page.getByRole('listbox', { name: 'Time zone' }).selectOption(ZONE);
    // the preview follows before anything is saved
    await shown(preview.getByText('68 °F'));
    await shown(preview.getByText('7.7 mi'));
    await shown(preview.getByText(/\d:\d\d\s[AP]M/));
    await expectNoSeriousA11yViolations(page, '/admin/locale (phone)');
    await page.screenshot({ path: '/tmp/hearth-phone-locale-admin.png', fullPage: true });
    expect(await fits(page)).toBe(true);
    await page.getByRole('button', { name: 'Save' }).click();
    await shown(page.getByTestId('toast').getByText('The household’s language and region are saved.'));
    const saved = (await server.admin.get('/api/admin/locale')).body.locale;
    expect(saved).toMatchObject({ timeZone: ZONE, units: 'imperial', timeFormat: '12h' });

    // Today: the forecast asked in °F, its time on a 12-hour clock
    await page.goto(`${server.url}/today`);
    await shown(weather.getByText('58 °F'));
    await shown(weather.getByTestId('as-of').getByText(/As of \d{1,2}:\d\d\s[AP]M/));
    expect(meteo.requests.some((r) => r.query.get('temperature_unit') === 'fahrenheit')).toBe(true);

    // elsewhere: a show's next air time in Chicago's time, on the 12-hour clock
    const next = (await server.admin.get('/api/shows/9901')).body.nextEpisode.airsAt as string;
    expect(next).toMatch(/-0[56]:00$/);
    await page.goto(`${server.url}/shows/9901`);
    await shown(page.getByText(new RegExp(`${twelveHour(next.slice(11, 16))} \\(household time\\)`)));
    await expectNoSeriousA11yViolations(page, '/shows/9901 (phone)');

    // the same admin page on a laptop fits too
    await page.setViewportSize(DESKTOP.viewport);
    await page.goto(`${server.url}/admin/locale`);
    await shown(page.getByRole('combobox', { name: 'Time format' }));
    expect(await page.getByRole('combobox', { name: 'Time format' }).inputValue()).toBe('12h');
    expect(await fits(page)).toBe(true);
    await page.screenshot({ path: '/tmp/hearth-laptop-locale-admin.png', fullPage: true });

    // a member keeps metric for themselves
    const member = await pages.open('member', PHONE);
    await member.goto(`${server.url}/profile`);
    const units = member.getByRole('combobox', { name: 'Units' });
    await shown(units);
    expect(await units.inputValue()).toBe('');
    await units.selectOption('metric');
    await shown(member.getByTestId('toast').getByText('Your language and units are saved.'));
    await expect.poll(async () => (await server.member.get('/api/auth/me/locale')).body.locale.units).toBe('metric');
    await expectNoSeriousA11yViolations(member, '/profile (phone)');
    expect(await fits(member)).toBe(true);
    await member.goto(`${server.url}/today`);
    await shown(member.getByTestId('today-weather').getByText('14 °C'));
    // the admin's own answers stay in °F
    expect((await server.admin.get('/api/weather')).body.units.temperature).toBe('°F');
  });
});
