// A stand-in for MET Norway's Locationforecast 2.0 compact (reference/briefing.md §3.2):
// GET /weatherapi/locationforecast/2.0/compact?lat=&lon= answers GeoJSON with a UTC `timeseries`
// (instant details in °C and m/s, symbols for the next 1 and 6 hours), Expires and Last-Modified;
// If-Modified-Since equal to the Last-Modified gets a 304; a missing or generic User-Agent gets
// 403, and more than 4 decimals in the coordinates 403 too, as MET's terms say. Modes: ok,
// limited (429), garbage (HTML with 200), deprecated (203 with the body, a product near its end).
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

export type FakeMetMode = 'ok' | 'limited' | 'garbage' | 'deprecated';

export interface FakeMet extends FakeHttp {
  mode: FakeMetMode;
}

export const MET_LAST_MODIFIED = 'Thu, 14 May 2026 06:55:12 GMT';
const START = Date.UTC(2026, 4, 14, 7, 0);
const SYMBOLS = ['clearsky_day', 'fair_day', 'partlycloudy_day', 'cloudy', 'lightrain', 'rainshowers_day', 'fog', 'heavyrainandthunder'];

export function metBody(lat: number, lon: number) {
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [lon, lat, 40] },
    properties: {
      meta: { updated_at: '2026-05-14T06:40:00Z', units: { air_temperature: 'celsius', wind_speed: 'm/s', relative_humidity: '%' } },
      timeseries: Array.from({ length: 60 }, (_, i) => ({
        time: new Date(START + i * 3_600_000).toISOString().replace('.000', ''),
        data: {
          instant: { details: { air_temperature: 10 + (i % 8), wind_speed: 3, relative_humidity: 70, air_pressure_at_sea_level: 1012, cloud_area_fraction: 50 } },
          next_1_hours: { summary: { symbol_code: SYMBOLS[i % SYMBOLS.length] }, details: { precipitation_amount: 0 } },
          next_6_hours: { summary: { symbol_code: 'cloudy' }, details: { precipitation_amount: 0.4 } },
        },
      })),
    },
  };
}

export async function startFakeMet(): Promise<FakeMet> {
  const state = { mode: 'ok' as FakeMetMode };
  const http = await startFakeHttp((req, res, url) => {
    const ua = req.headers['user-agent'] ?? '';
    if (!ua || /^(node|undici|axios|python|curl|java|go-http)/i.test(ua)) return sendJson(res, 403, { error: 'Identify yourself in the User-Agent (app name and contact).' });
    if (url.pathname !== '/weatherapi/locationforecast/2.0/compact') return sendJson(res, 404, { error: 'not found' });
    const lat = url.searchParams.get('lat') ?? '';
    const lon = url.searchParams.get('lon') ?? '';
    if (!/^-?\d+(\.\d{1,4})?$/.test(lat) || !/^-?\d+(\.\d{1,4})?$/.test(lon)) return sendJson(res, 403, { error: 'Coordinates with more than 4 decimals are not allowed.' });
    if (state.mode === 'limited') return sendJson(res, 429, { error: 'Too many requests' });
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html><body>Maintenance</body></html>');
    }
    const headers = { 'last-modified': MET_LAST_MODIFIED, expires: new Date(Date.now() + 30 * 60_000).toUTCString() };
    if (req.headers['if-modified-since'] === MET_LAST_MODIFIED) {
      res.writeHead(304, headers);
      return void res.end();
    }
    sendJson(res, state.mode === 'deprecated' ? 203 : 200, metBody(Number(lat), Number(lon)), headers);
  });
  return {
    ...http,
    get mode() {
      return state.mode;
    },
    set mode(m: FakeMetMode) {
      state.mode = m;
    },
  };
}
