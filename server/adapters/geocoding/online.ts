// An online geocoder the household points Hearth at for richer results than its offline index
// (house numbers, shops): Photon (`GET /api?q=&limit=&lat=&lon=`, `GET /reverse?lat=&lon=`, GeoJSON
// features) or Nominatim (`GET /search?q=&format=jsonv2&limit=&addressdetails=1`, `GET
// /reverse?lat=&lon=&format=jsonv2`). The admin gives the base URL (their own on the LAN, or a
// public one within its usage policy: Nominatim's asks for no autocomplete, so Hearth only asks it
// when the member presses Enter). Every request goes through the guard it is handed, with a time
// budget and a size cap; any failure is a GeocoderError with a kind.
import { z } from 'zod';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { fetchCappedJson, type CappedJsonFailure } from '../web/fetch-capped.js';

export type GeocoderProvider = 'photon' | 'nominatim';
export type GeocoderFailure = CappedJsonFailure | 'http_error';

export class GeocoderError extends Error {
  constructor(
    readonly failure: GeocoderFailure,
    message: string,
  ) {
    super(message);
    this.name = 'GeocoderError';
  }
}

export interface OnlineHit {
  name: string;
  kind: string;
  lat: number;
  lon: number;
  country: string | null;
  region: string | null;
}

export interface OnlineGeocoder {
  search(q: string, o: { near?: [number, number] | undefined; limit: number; signal?: AbortSignal }): Promise<OnlineHit[]>;
}

const PhotonFeature = z.object({
  geometry: z.object({ coordinates: z.tuple([z.number(), z.number()]) }),
  properties: z
    .object({
      name: z.string().optional(),
      street: z.string().optional(),
      housenumber: z.string().optional(),
      city: z.string().optional(),
      state: z.string().optional(),
      country: z.string().optional(),
      osm_value: z.string().optional(),
      type: z.string().optional(),
    })
    .passthrough(),
});
const PhotonAnswer = z.object({ features: z.array(z.unknown()) });

const NominatimItem = z.object({
  lat: z.string(),
  lon: z.string(),
  name: z.string().optional(),
  display_name: z.string().optional(),
  type: z.string().optional(),
  addresstype: z.string().optional(),
  address: z.record(z.string(), z.string()).optional(),
});

function photonHit(raw: unknown): OnlineHit | null {
  const f = PhotonFeature.safeParse(raw);
  if (!f.success) return null;
  const p = f.data.properties;
  const street = p.street ? `${p.street}${p.housenumber ? ` ${p.housenumber}` : ''}` : null;
  const name = p.name ?? street;
  if (!name) return null;
  const [lon, lat] = f.data.geometry.coordinates;
  return { name, kind: p.osm_value ?? p.type ?? 'place', lat, lon, country: p.country ?? null, region: p.city ?? p.state ?? null };
}

function nominatimHit(raw: unknown): OnlineHit | null {
  const i = NominatimItem.safeParse(raw);
  if (!i.success) return null;
  const lat = Number(i.data.lat);
  const lon = Number(i.data.lon);
  const a = i.data.address ?? {};
  const name = i.data.name || (a.road ? `${a.road}${a.house_number ? ` ${a.house_number}` : ''}` : i.data.display_name?.split(',')[0]);
  if (!name || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  return { name, kind: i.data.addresstype ?? i.data.type ?? 'place', lat, lon, country: a.country ?? null, region: a.city ?? a.town ?? a.village ?? a.state ?? null };
}

const SENTENCES: Record<CappedJsonFailure, string> = {
  too_large: 'The online place search sent an answer too large to read.',
  timeout: 'The online place search did not answer in time.',
  blocked: 'The online place search address was refused.',
  unreachable: 'The online place search could not be reached.',
  bad_response: 'The online place search did not answer in its own format.',
};

export function createOnlineGeocoder(opts: { provider: GeocoderProvider; baseUrl: string; guard: SsrfGuard; timeoutMs?: number; userAgent: string }): OnlineGeocoder {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const get = (url: URL, signal?: AbortSignal) =>
    fetchCappedJson(opts.guard, url.href, {
      maxBytes: 2 * 1024 * 1024,
      timeoutMs,
      maxRedirects: 2,
      headers: { 'user-agent': opts.userAgent },
      ...(signal ? { signal } : {}),
      checkStatus: (status) => {
        if (status !== 200) throw new GeocoderError('http_error', `The online place search answered ${status}.`);
      },
      fail: (kind) => new GeocoderError(kind, SENTENCES[kind]),
    });
  return {
    async search(q, o) {
      if (opts.provider === 'photon') {
        const url = new URL(`${base}/api`);
        url.searchParams.set('q', q);
        url.searchParams.set('limit', String(o.limit));
        if (o.near) {
          url.searchParams.set('lat', String(o.near[0]));
          url.searchParams.set('lon', String(o.near[1]));
        }
        const parsed = PhotonAnswer.safeParse(await get(url, o.signal));
        if (!parsed.success) throw new GeocoderError('bad_response', SENTENCES.bad_response);
        return parsed.data.features.map(photonHit).filter((h): h is OnlineHit => h !== null);
      }
      const url = new URL(`${base}/search`);
      url.searchParams.set('q', q);
      url.searchParams.set('format', 'jsonv2');
      url.searchParams.set('limit', String(o.limit));
      url.searchParams.set('addressdetails', '1');
      const json = await get(url, o.signal);
      if (!Array.isArray(json)) throw new GeocoderError('bad_response', SENTENCES.bad_response);
      return json.map(nominatimHit).filter((h): h is OnlineHit => h !== null);
    },
  };
}
