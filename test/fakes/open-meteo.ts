// A stand-in for Open-Meteo's forecast API and its geocoder (reference/briefing.md §3.1): one
// server answers GET /v1/forecast (columnar parallel arrays for exactly the variables asked for,
// local times without an offset, `timezone=auto`) and GET /v1/search (hits with latitude/longitude,
// no `results` key on a miss, 400 on count=0). Modes, switched at run time: ok, limited (429 with
// the daily-limit reason and a Retry-After), bad-request (400 {error, reason}), garbage (HTML with 200);
// down() stops listening. Every request is recorded (the coordinates that left the house, the validators).
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

export type FakeOpenMeteoMode = 'ok' | 'limited' | 'bad-request' | 'garbage';

export interface FakeTown {
  name: string;
  latitude: number;
  longitude: number;
  country: string;
  admin1?: string;
  timezone: string;
}

export const FAKE_TOWNS: FakeTown[] = [
  { name: 'Harbourton', latitude: 48.137154, longitude: 11.576124, country: 'Examplia', admin1: 'North Coast', timezone: 'Europe/Berlin' },
  { name: 'Harbourton', latitude: 52.51234, longitude: 13.38987, country: 'Otherland', timezone: 'Europe/Berlin' },
  { name: 'Hillford', latitude: 59.91, longitude: 10.75, country: 'Examplia', timezone: 'Europe/Oslo' },
];

export interface FakeOpenMeteo extends FakeHttp {
  mode: FakeOpenMeteoMode;
  /** The current temperature the next forecast reports (tests change it to tell copies apart). */
  temperature: number;
}

const HOURLY_START = Date.UTC(2026, 4, 14, 0, 0);
const localTime = (ms: number) => new Date(ms).toISOString().slice(0, 16);

function column(name: string, i: number, temperature: number): number | string {
  switch (name) {
    case 'temperature_2m':
      return Math.round((temperature - 3 + (i % 24) / 4) * 10) / 10;
    case 'apparent_temperature':
      return temperature - 1.5;
    case 'relative_humidity_2m':
      return 60 + (i % 10);
    case 'precipitation_probability':
    case 'precipitation_probability_max':
      return (i * 7) % 100;
    case 'weather_code':
      return [0, 1, 2, 3, 45, 61, 80, 95][i % 8]!;
    case 'wind_speed_10m':
      return 11;
    case 'is_day':
      return i % 24 >= 6 && i % 24 < 21 ? 1 : 0;
    case 'temperature_2m_max':
      return temperature + 4 + i;
    case 'temperature_2m_min':
      return temperature - 6 + i;
    case 'sunrise':
      return `${localTime(HOURLY_START + i * 86_400_000).slice(0, 10)}T05:21`;
    case 'sunset':
      return `${localTime(HOURLY_START + i * 86_400_000).slice(0, 10)}T20:58`;
    default:
      return 0;
  }
}

export async function startFakeOpenMeteo(): Promise<FakeOpenMeteo> {
  const state = { mode: 'ok' as FakeOpenMeteoMode, temperature: 14.2 };
  const http = await startFakeHttp((_req, res, url) => {
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html><body>Service temporarily overloaded</body></html>');
    }
    if (state.mode === 'limited') return sendJson(res, 429, { error: true, reason: 'Daily API request limit exceeded. Please try again tomorrow.' }, { 'retry-after': '120' });
    if (state.mode === 'bad-request') return sendJson(res, 400, { error: true, reason: 'Latitude must be in range of -90 to 90°.' });
    const q = url.searchParams;
    if (url.pathname === '/v1/search') {
      const count = Number(q.get('count') ?? '10');
      if (!Number.isInteger(count) || count < 1 || count > 100) return sendJson(res, 400, { error: true, reason: 'Parameter count must be between 1 and 100.' });
      const name = (q.get('name') ?? '').trim().toLowerCase();
      const hits = name.length < 2 ? [] : FAKE_TOWNS.filter((t) => t.name.toLowerCase().startsWith(name)).slice(0, count);
      if (hits.length === 0) return sendJson(res, 200, { generationtime_ms: 0.4 });
      return sendJson(res, 200, { results: hits.map((t, i) => ({ id: 1000 + i, feature_code: 'PPL', country_code: 'EX', population: 1000, ...t })), generationtime_ms: 0.5 });
    }
    if (url.pathname !== '/v1/forecast') return sendJson(res, 404, { error: true, reason: 'Not found' });
    const lat = Number(q.get('latitude'));
    const lon = Number(q.get('longitude'));
    if (!Number.isFinite(lat) || lat < -90 || lat > 90 || !Number.isFinite(lon)) return sendJson(res, 400, { error: true, reason: 'Latitude must be in range of -90 to 90°.' });
    const vars = (key: string) => (q.get(key) ?? '').split(',').filter(Boolean);
    // temperature_unit=fahrenheit and wind_speed_unit=mph change the numbers and the *_units
    const fahrenheit = q.get('temperature_unit') === 'fahrenheit';
    const temperature = fahrenheit ? Math.round(((state.temperature * 9) / 5 + 32) * 10) / 10 : state.temperature;
    const body: Record<string, unknown> = {
      latitude: lat,
      longitude: lon,
      generationtime_ms: 0.3,
      utc_offset_seconds: 7200,
      timezone: 'Europe/Berlin',
      timezone_abbreviation: 'GMT+2',
      elevation: 520,
    };
    if (vars('current').length) {
      const current: Record<string, unknown> = { time: '2026-05-14T09:15', interval: 900 };
      for (const v of vars('current')) current[v] = v === 'temperature_2m' ? temperature : v === 'wind_speed_10m' && q.get('wind_speed_unit') === 'mph' ? 6.8 : column(v, 9, temperature);
      body.current = current;
      body.current_units = { time: 'iso8601', temperature_2m: fahrenheit ? '°F' : '°C', wind_speed_10m: q.get('wind_speed_unit') === 'mph' ? 'mp/h' : 'km/h' };
    }
    const days = Number(q.get('forecast_days') ?? '7');
    if (vars('hourly').length) {
      const hourly: Record<string, unknown[]> = { time: Array.from({ length: days * 24 }, (_, i) => localTime(HOURLY_START + i * 3_600_000)) };
      for (const v of vars('hourly')) hourly[v] = Array.from({ length: days * 24 }, (_, i) => column(v, i, temperature));
      body.hourly = hourly;
    }
    if (vars('daily').length) {
      const daily: Record<string, unknown[]> = { time: Array.from({ length: days }, (_, i) => localTime(HOURLY_START + i * 86_400_000).slice(0, 10)) };
      for (const v of vars('daily')) daily[v] = Array.from({ length: days }, (_, i) => column(v, i, temperature));
      body.daily = daily;
    }
    sendJson(res, 200, body);
  });
  return {
    ...http,
    get mode() {
      return state.mode;
    },
    set mode(m: FakeOpenMeteoMode) {
      state.mode = m;
    },
    get temperature() {
      return state.temperature;
    },
    set temperature(t: number) {
      state.temperature = t;
    },
  };
}
