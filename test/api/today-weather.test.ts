// Weather and "on this day" over HTTP against the Open-Meteo and Wikimedia fakes: the admin's town
// search and saving a place (coordinates rounded to 2 decimals before they leave the house), the
// forecast's shape and freshness, stale copies when a source is down, 503 with no copy, the admin's
// refresh (Retry-After honoured), the day's lists, and access (401 anonymous, 403 member on admin routes).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWeatherTool } from '../../server/modules/today/chat-tool.js';
import { BriefingResponse, BriefingSettingsResponse, OnThisDayResponse, WeatherResponse } from '../../server/modules/today/schema.js';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../fakes/open-meteo.js';
import { startFakeWikimedia, type FakeWikimedia } from '../fakes/wikimedia.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('Today: weather and on this day', () => {
  let s: TestServer;
  let meteo: FakeOpenMeteo;
  let wiki: FakeWikimedia;

  beforeAll(async () => {
    [meteo, wiki] = await Promise.all([startFakeOpenMeteo(), startFakeWikimedia()]);
    s = await startTestServer({
      seed: 'household',
      config: { openMeteoUrl: meteo.url, openMeteoGeoUrl: meteo.url, wikipediaUrl: `${wiki.url}/{lang}`, fetchAllowOrigins: [meteo.origin, wiki.origin] },
    });
  });
  afterAll(async () => {
    await s.close();
    await Promise.all([meteo.close(), wiki.close()]);
  });
  beforeEach(async () => {
    meteo.mode = 'ok';
    wiki.mode = 'ok';
    await Promise.all([meteo.up(), wiki.up()]);
    meteo.requests.length = 0;
    wiki.requests.length = 0;
    await s.handle.deps.db('today_cache').delete();
    await s.handle.deps.db('app_settings').where('key', 'like', 'today.%').delete();
  });

  it('guards every route: 401 anonymous, 403 for a member on the admin routes', async () => {
    for (const p of ['/api/weather', '/api/on-this-day', '/api/admin/briefing']) expect((await s.anon.get(p)).status).toBe(401);
    expect((await s.member.get('/api/admin/briefing')).status).toBe(403);
    expect((await s.member.get('/api/admin/briefing/location/search?q=Harb')).status).toBe(403);
    expect((await s.member.put('/api/admin/briefing/location', { name: 'X', lat: 1, lon: 2 })).status).toBe(403);
    expect((await s.member.post('/api/admin/briefing/refresh', { source: 'weather' })).status).toBe(403);
    expect(meteo.requests).toHaveLength(0);
  });

  it('says the weather is not set up before an admin saves a place, without asking anyone', async () => {
    const res = await s.member.get('/api/weather');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ configured: false });
    expect(meteo.requests).toHaveLength(0);
  });

  it('lets the admin search a town and save one, rounded to 2 decimals; the forecast asks with those coordinates', async () => {
    const search = await s.admin.get('/api/admin/briefing/location/search?q=Harbour');
    expect(search.status).toBe(200);
    expect(search.body.results).toHaveLength(2);
    expect(search.body.results[0]).toEqual({ name: 'Harbourton', region: 'North Coast', country: 'Examplia', lat: 48.14, lon: 11.58, timezone: 'Europe/Berlin' });
    expect(meteo.requests[0]).toMatchObject({ path: '/v1/search' });
    expect(meteo.requests[0]!.query.get('name')).toBe('Harbour');
    const miss = await s.admin.get('/api/admin/briefing/location/search?q=Nowhere');
    expect(miss.body).toEqual({ results: [] });

    const saved = await s.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.137154, lon: 11.576124 });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ name: 'Harbourton', lat: 48.14, lon: 11.58 });

    meteo.requests.length = 0;
    const weather = await s.member.get('/api/weather');
    expect(weather.status).toBe(200);
    const body = WeatherResponse.parse(weather.body);
    if (!body.configured) throw new Error('expected a forecast');
    expect(body.location).toEqual({ name: 'Harbourton', lat: 48.14, lon: 11.58 });
    expect(body.current).toMatchObject({ temperature: 14.2, humidity: expect.any(Number), isDay: true, description: expect.any(String) });
    expect(body.hourly).toHaveLength(24);
    expect(body.hourly[0]!.time).toBe('2026-05-14T09:00');
    expect(body.daily).toHaveLength(7);
    expect(body.daily[0]).toMatchObject({ date: '2026-05-14', sunrise: '2026-05-14T05:21', sunset: '2026-05-14T20:58' });
    expect(body).toMatchObject({ source: 'weather', stale: false, ageSeconds: 0, lastError: null });
    expect(meteo.requests).toHaveLength(1);
    const q = meteo.requests[0]!.query;
    expect([q.get('latitude'), q.get('longitude'), q.get('timezone')]).toEqual(['48.14', '11.58', 'auto']);
    expect(meteo.requests[0]!.userAgent).toMatch(/^Hearth\//);

    // a second read within 30 minutes is the cached copy
    await s.member.get('/api/weather');
    expect(meteo.requests).toHaveLength(1);
  });

  it('refuses bad input with a sentence and writes nothing', async () => {
    for (const body of [{ name: '', lat: 1, lon: 1 }, { name: 'X', lat: 91, lon: 1 }, { name: 'X', lat: 1, lon: 'east' }, { name: 'X', lat: 1, lon: 1, extra: true }]) {
      const res = await s.admin.put('/api/admin/briefing/location', body);
      expect(res.status).toBe(400);
      expect(typeof res.body.error.message).toBe('string');
    }
    expect((await s.admin.get('/api/admin/briefing/location/search?q=a')).status).toBe(400);
    expect((await s.admin.get('/api/admin/briefing/location/search')).status).toBe(400);
    expect((await s.admin.post('/api/admin/briefing/refresh', { source: 'horoscope' })).status).toBe(400);
    expect((await s.member.get('/api/on-this-day?date=02-30')).status).toBe(400);
    expect((await s.member.get('/api/on-this-day?date=5-20')).status).toBe(400);
    expect(await s.handle.deps.settings.get('today.location')).toBeUndefined();
  });

  it('serves the last forecast stale when Open-Meteo is down, limited or sends garbage; 503 with no copy', async () => {
    await s.admin.put('/api/admin/briefing/location', { name: 'Hillford', lat: 59.91, lon: 10.75 });
    await meteo.down();
    const none = await s.member.get('/api/weather');
    expect(none.status).toBe(503);
    expect(none.body.error.code).toBe('source_unavailable');
    expect(none.body.error.message).toMatch(/forecast/);

    await meteo.up();
    // the failure above set a short backoff; the admin's refresh skips it (no Retry-After was asked)
    expect((await s.admin.post('/api/admin/briefing/refresh', { source: 'weather' })).body).toMatchObject({ outcome: 'fetched' });
    meteo.mode = 'garbage';
    const refreshed = await s.admin.post('/api/admin/briefing/refresh', { source: 'weather' });
    expect(refreshed.body).toMatchObject({ source: 'weather', outcome: 'failed', lastError: expect.stringMatching(/cannot read/) });
    const stale = await s.member.get('/api/weather');
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ configured: true, stale: true, current: { temperature: 14.2 } });

    meteo.mode = 'limited';
    expect((await s.admin.post('/api/admin/briefing/refresh', { source: 'weather' })).body).toMatchObject({ outcome: 'failed', lastError: expect.stringMatching(/Asked to wait/) });
    meteo.mode = 'ok';
    const before = meteo.requests.length;
    expect((await s.admin.post('/api/admin/briefing/refresh', { source: 'weather' })).body).toMatchObject({ outcome: 'skipped' });
    expect(meteo.requests).toHaveLength(before); // Retry-After is honoured even by "refresh now"

    const status = BriefingSettingsResponse.parse((await s.admin.get('/api/admin/briefing')).body);
    const weather = status.sources.find((x) => x.source === 'weather')!;
    expect(weather.lastError).toMatch(/Asked to wait/);
    expect(weather.lastFetch).not.toBeNull();
    expect(weather.sends).toMatch(/rounded/);
  });

  it('chat’s weather tool reads the cached forecast; the tools are listed with the hosts Today contacts', async () => {
    await s.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.14, lon: 11.58 });
    const tool = createWeatherTool({ weather: s.handle.deps.weather });
    const actor = { kind: 'user' as const, id: 'x', name: 'Sam', role: 'member' as const, sessionId: 's' };
    const result = await tool.run({}, { actor, signal: new AbortController().signal });
    expect(result.content).toMatch(/^Weather in Harbourton:\nNow \(2026-05-14T09:15\): 14.2°C, Mainly clear/);
    expect(result.summary).toBe('Looked up the weather in Harbourton');
    const tools = (await s.member.get('/api/tools')).body.tools as Array<{ id: string; dataSources: Array<{ domain: string }>; route: string | null; available: boolean }>;
    const today = tools.find((t) => t.id === 'today')!;
    expect(today.route).toBe('/today');
    expect(today.dataSources.map((d) => d.domain)).toEqual(['api.open-meteo.com', 'geocoding-api.open-meteo.com', 'api.met.no', 'wikipedia.org', 'the site of each feed an admin adds', 'www.thesportsdb.com', 'r2.thesportsdb.com']);
    expect(tools.find((t) => t.id === 'weather')).toBeDefined();
  });

  it('builds the morning briefing only from cached copies: no outside request, even with nothing cached', async () => {
    expect((await s.anon.get('/api/briefing')).status).toBe(401);
    const empty = await s.member.get('/api/briefing');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ weather: null, weatherNote: expect.stringMatching(/not set yet/), headlines: [], onThisDay: [], sentences: [] });

    await s.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.14, lon: 11.58 });
    const notFetched = await s.member.get('/api/briefing');
    expect(notFetched.body).toMatchObject({ weather: null, weatherNote: expect.stringMatching(/not been fetched/) });
    expect(meteo.requests).toHaveLength(0);
    expect(wiki.requests).toHaveLength(0);

    await s.member.get('/api/weather');
    await s.member.get('/api/on-this-day');
    await Promise.all([meteo.down(), wiki.down()]);
    meteo.requests.length = 0;
    wiki.requests.length = 0;
    const b = BriefingResponse.parse((await s.member.get('/api/briefing')).body);
    expect(b.weather).toMatchObject({ location: 'Harbourton', temperature: 14.2, description: 'Mainly clear', stale: false });
    expect(b.onThisDay[0]!.text).toMatch(/A ferry line opens/);
    expect(b.sentences[0]).toMatch(/^In Harbourton it is mainly clear and 14 °C, between 8 and 18 °C today/);
    expect(b.sentences[1]).toMatch(/^On this day in 1931: A ferry line opens/);
    expect(meteo.requests).toHaveLength(0);
    expect(wiki.requests).toHaveLength(0);
  });

  it('answers a day of "on this day" from Wikipedia, with a descriptive User-Agent, cached for the day', async () => {
    const res = await s.member.get('/api/on-this-day?date=05-20');
    expect(res.status).toBe(200);
    const body = OnThisDayResponse.parse(res.body);
    expect(body).toMatchObject({ date: '05-20', language: 'en', source: 'on-this-day', stale: false });
    expect(body.events[0]).toEqual({
      year: 1902,
      text: 'The harbour bridge is finished.',
      pages: [
        { title: 'Harbour Bridge', url: 'https://en.wikipedia.org/wiki/Harbour_Bridge' },
        { title: 'Harbourton', url: 'https://en.wikipedia.org/wiki/Harbourton' },
      ],
    });
    expect(body.events[1]!.year).toBe(-44);
    expect(body.holidays[0]).toEqual({ year: null, text: 'Harbour Day', pages: [] });
    expect(body.selected[0]!.text).toMatch(/05\/20/);
    expect(wiki.requests.map((r) => r.path)).toEqual(['/en/api/rest_v1/feed/onthisday/all/05/20']);
    await s.member.get('/api/on-this-day?date=05-20');
    expect(wiki.requests).toHaveLength(1);

    // today's date when none is asked for
    const today = await s.member.get('/api/on-this-day');
    expect(today.status).toBe(200);
    expect(today.body.date).toMatch(/^\d{2}-\d{2}$/);
  });

  it('follows the household language the admin sets (only languages the feed exists in)', async () => {
    expect((await s.member.put('/api/admin/briefing/language', { language: 'de' })).status).toBe(403);
    expect((await s.admin.put('/api/admin/briefing/language', { language: 'nl' })).status).toBe(400);
    expect((await s.admin.put('/api/admin/briefing/language', { language: 'de' })).body).toEqual({ language: 'de' });
    const res = await s.member.get('/api/on-this-day?date=05-20');
    expect(res.body).toMatchObject({ language: 'de', selected: [{ text: expect.stringMatching(/^Eine Fähre/) }] });
    expect(wiki.requests.map((r) => r.path)).toEqual(['/de/api/rest_v1/feed/onthisday/all/05/20']);
    expect((await s.admin.get('/api/admin/briefing')).body.language).toBe('de');
  });

  it('on this day: 503 with no copy when Wikipedia limits Hearth, stale copy when it sends garbage', async () => {
    wiki.mode = 'limited';
    const limited = await s.member.get('/api/on-this-day?date=01-02');
    expect(limited.status).toBe(503);
    expect(limited.body.error.code).toBe('source_unavailable');
    wiki.mode = 'ok';
    expect((await s.member.get('/api/on-this-day?date=01-03')).status).toBe(200);
    await s.handle.deps.db('today_cache').update({ expires_at: '2000-01-01T00:00:00.000Z' });
    wiki.mode = 'garbage';
    const stale = await s.member.get('/api/on-this-day?date=01-03');
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ stale: true, lastError: expect.stringMatching(/cannot read/) });
  });
});

describe('Today in offline mode', () => {
  let s: TestServer;
  let meteo: FakeOpenMeteo;
  beforeAll(async () => {
    meteo = await startFakeOpenMeteo();
    s = await startTestServer({ seed: 'household', config: { offline: true, openMeteoUrl: meteo.url, openMeteoGeoUrl: meteo.url, fetchAllowOrigins: [meteo.origin] } });
  });
  afterAll(async () => {
    await s.close();
    await meteo.close();
  });

  it('makes no outbound request: weather 503 without a copy, the town search says why', async () => {
    await s.admin.put('/api/admin/briefing/location', { name: 'Hillford', lat: 59.91, lon: 10.75 });
    const weather = await s.member.get('/api/weather');
    expect(weather.status).toBe(503);
    expect(weather.body.error.code).toBe('source_unavailable');
    const search = await s.admin.get('/api/admin/briefing/location/search?q=Harbour');
    expect(search.status).toBe(503);
    expect(search.body.error.message).toMatch(/offline mode/);
    expect((await s.admin.post('/api/admin/briefing/refresh', { source: 'weather' })).body).toMatchObject({ outcome: 'skipped' });
    expect((await s.admin.get('/api/admin/briefing')).body.offline).toBe(true);
    expect(meteo.requests).toHaveLength(0);
  });
});
