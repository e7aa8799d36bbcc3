// The admin's Today settings beyond the place: units (°C/km/h or °F/mph, asked of Open-Meteo) and
// the section switches, which the briefing honours (a section off is not read, not in the facts
// and not in the summary's prompt) and which members read for the widgets. Access and bad input.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BriefingResponse, BriefingSettingsResponse, WeatherResponse } from '../../server/modules/today/schema.js';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../fakes/open-meteo.js';
import { startFakeWikimedia, type FakeWikimedia } from '../fakes/wikimedia.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('Today: units and section switches', () => {
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
    meteo.requests.length = 0;
    wiki.requests.length = 0;
    await s.handle.deps.db('today_cache').delete();
    await s.handle.deps.db('app_settings').where('key', 'like', 'today.%').delete();
    await s.handle.deps.db('app_settings').where('key', 'like', 'locale.%').delete();
    await s.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.14, lon: 11.58 });
  });

  it('guards the routes and refuses bad input with a sentence, changing nothing', async () => {
    expect((await s.anon.get('/api/briefing/sections')).status).toBe(401);
    expect((await s.member.put('/api/admin/briefing/units', { units: 'imperial' })).status).toBe(403);
    expect((await s.member.put('/api/admin/briefing/sections', { weather: false })).status).toBe(403);
    const units = await s.admin.put('/api/admin/briefing/units', { units: 'kelvin' });
    expect(units.status).toBe(400);
    expect(JSON.stringify(units.body.error)).toContain('units is metric (°C, km/h) or imperial (°F, mph).');
    for (const body of [{}, { weather: 'no' }, { weather: false, horoscope: true }]) {
      const r = await s.admin.put('/api/admin/briefing/sections', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error.message).toBe('string');
    }
    expect((await s.member.get('/api/briefing/sections')).body).toEqual({ weather: true, news: true, onThisDay: true, sports: true });
    expect(BriefingSettingsResponse.parse((await s.admin.get('/api/admin/briefing')).body).units).toBe('metric');
  });

  it('asks Open-Meteo in °F and mph once the admin chooses imperial units', async () => {
    const metric = WeatherResponse.parse((await s.member.get('/api/weather')).body);
    if (!metric.configured) throw new Error('expected a forecast');
    expect(metric.units).toEqual({ temperature: '°C', windSpeed: 'km/h' });
    expect(meteo.requests[0]!.query.get('temperature_unit')).toBeNull();

    expect((await s.admin.put('/api/admin/briefing/units', { units: 'imperial' })).body).toEqual({ units: 'imperial' });
    expect(BriefingSettingsResponse.parse((await s.admin.get('/api/admin/briefing')).body).units).toBe('imperial');
    const imperial = WeatherResponse.parse((await s.member.get('/api/weather')).body);
    if (!imperial.configured) throw new Error('expected a forecast');
    const asked = meteo.requests.at(-1)!;
    expect(asked.query.get('temperature_unit')).toBe('fahrenheit');
    expect(asked.query.get('wind_speed_unit')).toBe('mph');
    expect(imperial.units).toEqual({ temperature: '°F', windSpeed: 'mp/h' });
    expect(imperial.current.temperature).toBe(57.6);
  });

  it('leaves a section switched off out of the briefing; the widgets read the switches', async () => {
    await s.member.get('/api/weather');
    await s.member.get('/api/on-this-day');
    const all = BriefingResponse.parse((await s.member.get('/api/briefing')).body);
    expect(all.weather).not.toBeNull();
    expect(all.onThisDay.length).toBeGreaterThan(0);

    const set = await s.admin.put('/api/admin/briefing/sections', { weather: false, onThisDay: false });
    expect(set.body).toEqual({ weather: false, news: true, onThisDay: false, sports: true });
    expect((await s.member.get('/api/briefing/sections')).body).toEqual({ weather: false, news: true, onThisDay: false, sports: true });
    expect(BriefingSettingsResponse.parse((await s.admin.get('/api/admin/briefing')).body).sections).toEqual({ weather: false, news: true, onThisDay: false, sports: true });

    const some = BriefingResponse.parse((await s.member.get('/api/briefing')).body);
    expect(some).toMatchObject({ weather: null, weatherNote: 'An admin switched the weather off.', onThisDay: [], sections: { weather: false, onThisDay: false } });
    expect(some.sentences.join(' ')).not.toMatch(/Harbourton|On this day/);

    // switching one back on keeps the other as it was
    expect((await s.admin.put('/api/admin/briefing/sections', { weather: true })).body).toEqual({ weather: true, news: true, onThisDay: false, sports: true });
  });

  it('starts the shipped default home screen with the Today widgets once the place is saved; an admin’s default and a member’s own stay theirs', async () => {
    const ids = (layout: { canvas: Array<{ cols: Array<{ toolId: string }> }> }) => layout.canvas.flatMap((r) => r.cols.map((c) => c.toolId));
    await s.handle.deps.db('app_settings').where('key', 'like', 'today.%').delete();
    await s.handle.deps.db('app_settings').where('key', 'like', 'locale.%').delete();
    await s.handle.deps.db('user_preferences').where('key', 'like', 'home.%').delete();
    await s.handle.deps.db('app_settings').where('key', 'home.layout.default').delete();
    const before = ids((await s.member.get('/api/home-layout')).body.layout);
    expect(before).not.toContain('weather');

    await s.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.14, lon: 11.58 });
    const after = ids((await s.member.get('/api/home-layout')).body.layout);
    expect(after).toEqual(['weather', 'briefing', 'news', 'on-this-day', ...before]);

    // a member's own layout is theirs
    const own = { header: { weather: false, jokes: false, sports: false, locked: false }, canvas: [{ id: 'r1', cols: [{ toolId: 'reader', colSpan: 2 }] }] };
    expect((await s.member.put('/api/home-layout', own)).status).toBe(200);
    expect(ids((await s.member.get('/api/home-layout')).body.layout)).toEqual(['reader']);
    // an admin's default is used as it is
    expect((await s.admin.put('/api/home-layout/default', own)).status).toBe(200);
    expect(ids((await s.admin.get('/api/home-layout')).body.layout)).toEqual(['reader']);
    await s.handle.deps.db('app_settings').where('key', 'home.layout.default').delete();
    await s.handle.deps.db('user_preferences').where('key', 'like', 'home.%').delete();
  });
});
