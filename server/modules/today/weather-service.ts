// The household's weather from Open-Meteo (keyless; reference/briefing.md §3): current conditions,
// the next 24 hours and 7 days for the location the admin saved. Coordinates leave the house rounded
// to 2 decimals; the town search asks the geocoder only when the admin searches. The forecast is one
// cached source (SourceFetcher), fresh for 30 minutes and served stale when a refresh fails.
import { assertAdmin, SYSTEM_ACTOR, type Actor } from '../../actor.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { ServiceUnavailableError, UpstreamError } from '../../errors.js';
import { FetchFailure, type FetchOutcome, type Freshness, type SourceSpec, type SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { parseMetNorway } from './met-norway.js';
import type { TodayPorts } from './ports.js';
import { Forecast, KEY_LOCATION, KEY_WEATHER_SOURCE, Location, round2, WEATHER_SOURCES, type PlaceResult, type UnitSystem, type WeatherResponse, type WeatherSource } from './schema.js';
import { describeWeatherCode } from './weather-codes.js';

export const WEATHER_TTL_MS = 30 * 60_000;
const CURRENT = 'temperature_2m,apparent_temperature,relative_humidity_2m,weather_code,wind_speed_10m,is_day';
const HOURLY = 'temperature_2m,precipitation_probability,weather_code';
const DAILY = 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max,sunrise,sunset';

type Columns = Record<string, unknown[] | undefined>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => {
  const n = num(v);
  return n === null ? null : Math.round(n);
};

/** Open-Meteo's columnar answer → the Forecast Hearth keeps. Throws when it is not a forecast. */
export function parseOpenMeteo(body: Buffer): Forecast {
  const raw = JSON.parse(body.toString('utf8')) as {
    timezone?: unknown;
    current?: Record<string, unknown>;
    current_units?: Record<string, unknown>;
    hourly?: Columns;
    daily?: Columns;
  };
  const current = raw.current;
  if (!current || typeof current.time !== 'string' || !raw.hourly?.time || !raw.daily?.time) throw new Error('not a forecast');
  const isDay = current.is_day !== 0;
  const code = int(current.weather_code);
  const hourTimes = raw.hourly.time.map(String);
  const from = Math.max(0, hourTimes.findIndex((t) => t >= (current.time as string).slice(0, 13)));
  const h = raw.hourly;
  const d = raw.daily;
  return {
    timezone: str(raw.timezone),
    units: { temperature: str(raw.current_units?.temperature_2m) ?? '°C', windSpeed: str(raw.current_units?.wind_speed_10m) ?? 'km/h' },
    current: {
      time: current.time,
      temperature: num(current.temperature_2m),
      apparentTemperature: num(current.apparent_temperature),
      weatherCode: code,
      description: describeWeatherCode(code, isDay),
      windSpeed: num(current.wind_speed_10m),
      humidity: num(current.relative_humidity_2m),
      isDay,
    },
    hourly: hourTimes.slice(from, from + 24).map((time, j) => ({
      time,
      temperature: num(h.temperature_2m?.[from + j]),
      weatherCode: int(h.weather_code?.[from + j]),
      precipitationProbability: num(h.precipitation_probability?.[from + j]),
    })),
    daily: (d.time ?? []).slice(0, 7).map((date, i) => ({
      date: String(date),
      min: num(d.temperature_2m_min?.[i]),
      max: num(d.temperature_2m_max?.[i]),
      weatherCode: int(d.weather_code?.[i]),
      description: describeWeatherCode(int(d.weather_code?.[i])),
      precipitationProbability: num(d.precipitation_probability_max?.[i]),
      sunrise: str(d.sunrise?.[i]),
      sunset: str(d.sunset?.[i]),
    })),
  };
}

export interface WeatherDeps {
  fetcher: SourceFetcher;
  settings: AppSettingsStore;
  forecastUrl: string;
  geocodeUrl: string;
  /** MET Norway's base (api.met.no or MET_BASE). */
  metUrl: string;
  /** The household's locale: the units each member reads the forecast in, the zone MET's times are written in. */
  locale: TodayPorts['locale'];
}

const CREDITS: Record<WeatherSource, string> = { 'open-meteo': 'Weather data by Open-Meteo.com (CC BY 4.0)', 'met-norway': 'Weather data by MET Norway (CC BY 4.0)' };

export class WeatherService {
  constructor(private readonly deps: WeatherDeps) {}

  async location(): Promise<Location | null> {
    const parsed = Location.safeParse(await this.deps.settings.get(KEY_LOCATION));
    return parsed.success ? parsed.data : null;
  }

  /** The units the forecast is asked in for `actor`: their own (a member's override), else the household's locale. */
  units(actor: Actor = SYSTEM_ACTOR): Promise<UnitSystem> {
    return this.deps.locale.unitsFor(actor);
  }

  /** Where the forecast comes from: Open-Meteo unless the admin chose MET Norway. */
  async source(): Promise<WeatherSource> {
    const v = await this.deps.settings.get<string>(KEY_WEATHER_SOURCE);
    return (WEATHER_SOURCES as readonly string[]).includes(v ?? '') ? (v as WeatherSource) : 'open-meteo';
  }

  async setSource(actor: Actor, source: WeatherSource): Promise<{ source: WeatherSource }> {
    assertAdmin(actor);
    await this.deps.settings.set(KEY_WEATHER_SOURCE, source);
    return { source };
  }

  /** The host the forecast is asked of now (the admin's status and what leaves the house). */
  async host(): Promise<string> {
    return new URL((await this.source()) === 'met-norway' ? this.deps.metUrl : this.deps.forecastUrl).host;
  }

  /** The source's spec for the household's place, in `units` (the household's unless given) and from the chosen source. */
  private async current(loc: Location, units?: UnitSystem): Promise<{ spec: SourceSpec<Forecast>; source: WeatherSource }> {
    const [u, source, timeZone] = await Promise.all([units ?? this.units(), this.source(), this.deps.locale.timeZone()]);
    return { spec: source === 'met-norway' ? this.metSpec(loc, u, timeZone) : this.spec(loc, u), source };
  }

  metSpec(loc: Location, units: UnitSystem, timeZone?: string): SourceSpec<Forecast> {
    const url = new URL('/weatherapi/locationforecast/2.0/compact', this.deps.metUrl);
    url.searchParams.set('lat', String(round2(loc.lat)));
    url.searchParams.set('lon', String(round2(loc.lon)));
    // MET answers in °C and m/s: the units are applied when reading, so each system has its own copy
    return { key: `weather:met:${units === 'imperial' ? 'f:' : ''}${round2(loc.lat)},${round2(loc.lon)}`, source: 'weather', url: url.href, ttlMs: WEATHER_TTL_MS, accept: 'application/json', parse: (body) => parseMetNorway(body, units, timeZone) };
  }

  /** The older route's way to set the household's units: it sets them in the household's locale (the one place they are kept). */
  async setUnits(actor: Actor, units: UnitSystem): Promise<{ units: UnitSystem }> {
    assertAdmin(actor);
    await this.deps.locale.set(actor, { units });
    return { units };
  }

  spec(loc: Location, units: UnitSystem = 'metric'): SourceSpec<Forecast> {
    const url = new URL('/v1/forecast', this.deps.forecastUrl);
    const q = url.searchParams;
    q.set('latitude', String(round2(loc.lat)));
    q.set('longitude', String(round2(loc.lon)));
    q.set('current', CURRENT);
    q.set('hourly', HOURLY);
    q.set('daily', DAILY);
    q.set('timezone', 'auto');
    q.set('forecast_days', '7');
    if (units === 'imperial') {
      q.set('temperature_unit', 'fahrenheit');
      q.set('wind_speed_unit', 'mph');
    }
    return { key: `weather:open-meteo:${units === 'imperial' ? 'f:' : ''}${round2(loc.lat)},${round2(loc.lon)}`, source: 'weather', url: url.href, ttlMs: WEATHER_TTL_MS, accept: 'application/json', parse: parseOpenMeteo };
  }

  /** Any member: the forecast for the household, or `configured: false` before an admin saved a place. */
  async get(actor: Actor): Promise<WeatherResponse> {
    const loc = await this.location();
    if (!loc) return { configured: false };
    const { spec, source } = await this.current(loc, await this.units(actor));
    const { payload, freshness } = await this.deps.fetcher.read(spec, 'The forecast could not be fetched yet and no earlier copy is kept. It is tried again every few minutes.');
    return { configured: true, location: loc, credit: CREDITS[source], ...Forecast.parse(payload), ...freshness };
  }

  /** The cached forecast only (no fetch), in `units` (the household's unless given): null before a place is saved or a first copy. */
  async cached(units?: UnitSystem): Promise<(Forecast & { location: Location; freshness: Freshness }) | null> {
    const loc = await this.location();
    if (!loc) return null;
    const hit = await this.deps.fetcher.peek<Forecast>((await this.current(loc, units)).spec);
    return hit ? { ...Forecast.parse(hit.payload), location: loc, freshness: hit.freshness } : null;
  }

  /** Refreshes the forecast now (the admin's button, the 30-minute task); null when no place is saved. */
  async refresh(opts: { force?: boolean } = {}): Promise<FetchOutcome | null> {
    const loc = await this.location();
    return loc ? this.deps.fetcher.refresh((await this.current(loc)).spec, opts) : null;
  }

  /** The admin's town search: the geocoder is asked now, nothing is cached. */
  async search(actor: Actor, q: string): Promise<PlaceResult[]> {
    assertAdmin(actor);
    const url = new URL('/v1/search', this.deps.geocodeUrl);
    url.searchParams.set('name', q);
    url.searchParams.set('count', '10');
    url.searchParams.set('language', 'en');
    url.searchParams.set('format', 'json');
    let body: Buffer;
    try {
      body = (await this.deps.fetcher.fetchOnce(url.href)).body;
    } catch (err) {
      const message = err instanceof FetchFailure ? err.message : 'The town search could not be reached.';
      throw new ServiceUnavailableError('source_unavailable', `The town search is not available right now: ${message} You can still type the coordinates.`);
    }
    let raw: { results?: unknown };
    try {
      raw = JSON.parse(body.toString('utf8')) as { results?: unknown };
    } catch {
      throw new UpstreamError('source_bad_response', 'The town search sent an answer Hearth cannot read. Try again later.');
    }
    const results = Array.isArray(raw.results) ? (raw.results as Array<Record<string, unknown>>) : [];
    return results.flatMap((r) => {
      const lat = num(r.latitude);
      const lon = num(r.longitude);
      const name = str(r.name);
      if (lat === null || lon === null || !name) return [];
      return [{ name, region: str(r.admin1), country: str(r.country), lat: round2(lat), lon: round2(lon), timezone: str(r.timezone) }];
    });
  }

  /** The admin saves a place; its coordinates are kept rounded to 2 decimals (about 1 km). */
  async setLocation(actor: Actor, loc: Location): Promise<Location> {
    assertAdmin(actor);
    const saved = { name: loc.name, lat: round2(loc.lat), lon: round2(loc.lon) };
    await this.deps.settings.set(KEY_LOCATION, saved);
    return saved;
  }
}
