// MET Norway's Locationforecast 2.0 "compact" (reference/briefing.md §3.2), the admin's alternative
// to Open-Meteo: GET {MET_BASE}/weatherapi/locationforecast/2.0/compact?lat=&lon= (coordinates at 2
// decimals), GeoJSON with a `timeseries` of UTC times, each with instant details (air_temperature in
// °C, wind_speed in m/s, relative_humidity) and a symbol for the next 1/6/12 hours. It has no daily
// figures and no geocoder: the days are aggregated here (min/max of the instants per local day, the
// symbol near midday), the town search stays Open-Meteo's. Symbols become WMO codes so the web app
// words them the same way. The fetcher's identifying User-Agent is what MET's terms ask for.
import { withLocalOffset } from '../../platform/clock.js';
import type { Forecast, UnitSystem } from './schema.js';
import { describeWeatherCode } from './weather-codes.js';

/** MET's symbol (without _day/_night/_polartwilight) → the nearest WMO weather code. */
const SYMBOL_CODES: Record<string, number> = {
  clearsky: 0,
  fair: 1,
  partlycloudy: 2,
  cloudy: 3,
  fog: 45,
  lightrain: 61,
  rain: 63,
  heavyrain: 65,
  lightsleet: 66,
  sleet: 66,
  heavysleet: 67,
  lightsnow: 71,
  snow: 73,
  heavysnow: 75,
  lightrainshowers: 80,
  rainshowers: 81,
  heavyrainshowers: 82,
  lightsleetshowers: 80,
  sleetshowers: 81,
  heavysleetshowers: 82,
  lightsnowshowers: 85,
  snowshowers: 85,
  heavysnowshowers: 86,
};

export function symbolToCode(symbol: string | null): { code: number | null; isDay: boolean } {
  if (!symbol) return { code: null, isDay: true };
  const isDay = !symbol.endsWith('_night');
  const base = symbol.replace(/_(day|night|polartwilight)$/, '');
  if (base.includes('thunder')) return { code: 95, isDay };
  return { code: SYMBOL_CODES[base] ?? null, isDay };
}

type Entry = {
  time?: unknown;
  data?: {
    instant?: { details?: Record<string, unknown> };
    next_1_hours?: { summary?: { symbol_code?: unknown } };
    next_6_hours?: { summary?: { symbol_code?: unknown } };
    next_12_hours?: { summary?: { symbol_code?: unknown } };
  };
};

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

/** The household's local date and hour of a UTC time (in its locale's zone), as the forecast's local times are written (no offset). */
function localTime(iso: string, timeZone?: string): string {
  return withLocalOffset(new Date(iso), timeZone).slice(0, 16);
}

/** MET's answer → the Forecast Hearth keeps, in the household's units. Throws when it is not a forecast. */
export function parseMetNorway(body: Buffer, units: UnitSystem, timeZone?: string): Forecast {
  const raw = JSON.parse(body.toString('utf8')) as { properties?: { timeseries?: unknown } };
  const series = raw?.properties?.timeseries;
  if (!Array.isArray(series) || series.length === 0) throw new Error('not a forecast');
  const entries = (series as Entry[]).filter((e) => typeof e.time === 'string' && !Number.isNaN(Date.parse(e.time)) && e.data?.instant?.details);
  if (entries.length === 0) throw new Error('not a forecast');
  const temp = (c: number | null) => (c === null ? null : units === 'imperial' ? round1((c * 9) / 5 + 32) : round1(c));
  const wind = (ms: number | null) => (ms === null ? null : units === 'imperial' ? round1(ms * 2.236936) : round1(ms * 3.6));
  const symbolOf = (e: Entry) => {
    const s = e.data?.next_1_hours?.summary?.symbol_code ?? e.data?.next_6_hours?.summary?.symbol_code ?? e.data?.next_12_hours?.summary?.symbol_code;
    return typeof s === 'string' ? s : null;
  };
  const now = entries[0]!;
  const details = now.data!.instant!.details!;
  const { code, isDay } = symbolToCode(symbolOf(now));
  // the days: min/max of the instants of each local day, the symbol nearest midday
  const days = new Map<string, { min: number; max: number; midday: Entry; distance: number }>();
  for (const e of entries) {
    const t = num(e.data!.instant!.details!.air_temperature);
    if (t === null) continue;
    const local = localTime(e.time as string, timeZone);
    const date = local.slice(0, 10);
    const distance = Math.abs(Number(local.slice(11, 13)) - 12);
    const d = days.get(date);
    if (!d) days.set(date, { min: t, max: t, midday: e, distance });
    else {
      d.min = Math.min(d.min, t);
      d.max = Math.max(d.max, t);
      if (distance < d.distance && symbolOf(e)) Object.assign(d, { midday: e, distance });
    }
  }
  return {
    timezone: null,
    units: { temperature: units === 'imperial' ? '°F' : '°C', windSpeed: units === 'imperial' ? 'mph' : 'km/h' },
    current: {
      time: localTime(now.time as string, timeZone),
      temperature: temp(num(details.air_temperature)),
      // MET's compact product has no "feels like"
      apparentTemperature: null,
      weatherCode: code,
      description: describeWeatherCode(code, isDay),
      windSpeed: wind(num(details.wind_speed)),
      humidity: num(details.relative_humidity),
      isDay,
    },
    hourly: entries.slice(0, 24).map((e) => ({
      time: localTime(e.time as string, timeZone),
      temperature: temp(num(e.data!.instant!.details!.air_temperature)),
      weatherCode: symbolToCode(symbolOf(e)).code,
      precipitationProbability: null,
    })),
    daily: [...days.entries()].slice(0, 7).map(([date, d]) => {
      const c = symbolToCode(symbolOf(d.midday)).code;
      return { date, min: temp(d.min), max: temp(d.max), weatherCode: c, description: describeWeatherCode(c), precipitationProbability: null, sunrise: null, sunset: null };
    }),
  };
}
