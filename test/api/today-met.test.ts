// MET Norway as the admin's alternative weather source, against the MET fake: the admin switches to
// it; the forecast asks api.met.no's compact product with the coordinates at 2 decimals and the
// identifying User-Agent (a generic one gets 403 there), the days are aggregated from the hourly
// series, symbols are worded like Open-Meteo's codes, °F and mph when the household uses them, a
// second poll revalidates with the exact Last-Modified and gets 304, a deprecated product (203) is
// still read and logged, garbage keeps the last copy stale, and no copy at all is a 503.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseMetNorway, symbolToCode } from '../../server/modules/today/met-norway.js';
import { BriefingSettingsResponse, WeatherResponse } from '../../server/modules/today/schema.js';
import { MET_LAST_MODIFIED, metBody, startFakeMet, type FakeMet } from '../fakes/met-norway.js';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../fakes/open-meteo.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('Today: MET Norway as the weather source', () => {
  let s: TestServer;
  let met: FakeMet;
  let meteo: FakeOpenMeteo;
  const forecast = async () => {
    const r = await s.member.get('/api/weather');
    expect(r.status, r.text).toBe(200);
    const w = WeatherResponse.parse(r.body);
    if (!w.configured) throw new Error('expected a forecast');
    return w;
  };

  beforeAll(async () => {
    [met, meteo] = await Promise.all([startFakeMet(), startFakeOpenMeteo()]);
    s = await startTestServer({ seed: 'household', config: { metUrl: met.url, openMeteoUrl: meteo.url, openMeteoGeoUrl: meteo.url, fetchAllowOrigins: [met.origin, meteo.origin] } });
  });
  afterAll(async () => {
    await s.close();
    await Promise.all([met.close(), meteo.close()]);
  });
  beforeEach(async () => {
    met.mode = 'ok';
    met.requests.length = 0;
    meteo.requests.length = 0;
    await s.handle.deps.db('today_cache').delete();
    await s.handle.deps.db('app_settings').where('key', 'like', 'today.%').delete();
    await s.handle.deps.db('app_settings').where('key', 'like', 'locale.%').delete();
    await s.admin.put('/api/admin/briefing/location', { name: 'Hillford', lat: 59.913868, lon: 10.752245 });
  });

  it('is the admin’s choice (403 for a member, 400 for another name), shown in the settings with its host', async () => {
    expect((await s.member.put('/api/admin/briefing/weather-source', { source: 'met-norway' })).status).toBe(403);
    const bad = await s.admin.put('/api/admin/briefing/weather-source', { source: 'yr' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toContain('source is open-meteo or met-norway.');
    expect(BriefingSettingsResponse.parse((await s.admin.get('/api/admin/briefing')).body).weatherSource).toBe('open-meteo');
    expect((await s.admin.put('/api/admin/briefing/weather-source', { source: 'met-norway' })).body).toEqual({ source: 'met-norway' });
    const settings = BriefingSettingsResponse.parse((await s.admin.get('/api/admin/briefing')).body);
    expect(settings.weatherSource).toBe('met-norway');
    expect(settings.sources.find((x) => x.source === 'weather')!.host).toBe(new URL(met.url).host);
  });

  it('reads the forecast from MET: rounded coordinates, Hearth’s User-Agent, days aggregated, symbols in words', async () => {
    await s.admin.put('/api/admin/briefing/weather-source', { source: 'met-norway' });
    const w = await forecast();
    expect(meteo.requests).toHaveLength(0);
    expect(met.requests).toHaveLength(1);
    const asked = met.requests[0]!;
    expect(asked.path).toBe('/weatherapi/locationforecast/2.0/compact');
    expect([asked.query.get('lat'), asked.query.get('lon')]).toEqual(['59.91', '10.75']);
    expect(asked.userAgent).toMatch(/^Hearth\//);
    expect(w).toMatchObject({ credit: 'Weather data by MET Norway (CC BY 4.0)', units: { temperature: '°C', windSpeed: 'km/h' }, stale: false });
    expect(w.current).toMatchObject({ temperature: 10, windSpeed: 10.8, humidity: 70, description: 'Clear sky', apparentTemperature: null });
    expect(w.hourly).toHaveLength(24);
    expect(w.daily.length).toBeGreaterThanOrEqual(3);
    for (const d of w.daily) {
      expect(d.min).not.toBeNull();
      expect(d.max!).toBeGreaterThanOrEqual(d.min!);
    }
    // a full day of the series spans every temperature of its 8-hour cycle
    expect(w.daily[1]).toMatchObject({ min: 10, max: 17 });
  });

  it('revalidates with the exact Last-Modified and keeps the copy on a 304', async () => {
    await s.admin.put('/api/admin/briefing/weather-source', { source: 'met-norway' });
    await forecast();
    const refreshed = await s.admin.post('/api/admin/briefing/refresh', { source: 'weather' });
    expect(refreshed.body).toMatchObject({ outcome: 'not_modified' });
    expect(met.requests[1]!.ifModifiedSince).toBe(MET_LAST_MODIFIED);
    expect((await forecast()).current.temperature).toBe(10);
  });

  it('gives °F and mph when the household uses them', async () => {
    await s.admin.put('/api/admin/briefing/weather-source', { source: 'met-norway' });
    await s.admin.put('/api/admin/briefing/units', { units: 'imperial' });
    const w = await forecast();
    expect(w.units).toEqual({ temperature: '°F', windSpeed: 'mph' });
    expect(w.current).toMatchObject({ temperature: 50, windSpeed: 6.7 });
  });

  it('reads a deprecated product (203) and logs it; garbage keeps the last copy, stale; no copy is a 503', async () => {
    await s.admin.put('/api/admin/briefing/weather-source', { source: 'met-norway' });
    met.mode = 'garbage';
    const none = await s.member.get('/api/weather');
    expect(none.status).toBe(503);
    expect(none.body.error.code).toBe('source_unavailable');

    met.mode = 'deprecated';
    expect((await s.admin.post('/api/admin/briefing/refresh', { source: 'weather' })).body).toMatchObject({ outcome: 'fetched' });
    expect(s.logger.lines.map((l) => JSON.stringify(l)).join('\n')).toMatch(/deprecated \(203\)/);

    met.mode = 'garbage';
    await s.handle.deps.db('today_cache').update({ expires_at: '2000-01-01T00:00:00.000Z', etag: null, last_modified: null });
    const stale = await forecast();
    expect(stale).toMatchObject({ stale: true, lastError: expect.stringMatching(/cannot read/) });
    expect(stale.current.temperature).toBe(10);
  });

  it('words MET’s symbols like the WMO codes, and refuses what is not a forecast', () => {
    expect(symbolToCode('partlycloudy_night')).toEqual({ code: 2, isDay: false });
    expect(symbolToCode('heavyrainandthunder')).toEqual({ code: 95, isDay: true });
    expect(symbolToCode('lightsnowshowers_polartwilight')).toEqual({ code: 85, isDay: true });
    expect(symbolToCode(null)).toEqual({ code: null, isDay: true });
    expect(() => parseMetNorway(Buffer.from('{"type":"Feature","properties":{}}'), 'metric')).toThrow(/not a forecast/);
    expect(() => parseMetNorway(Buffer.from('<html>'), 'metric')).toThrow();
    expect(parseMetNorway(Buffer.from(JSON.stringify(metBody(59.91, 10.75))), 'metric').daily[0]!.description).not.toBe('Unknown');
  });
});
