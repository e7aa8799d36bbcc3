// Offline maps (issue 36): the region catalog, installed regions, tiles and the style, and the
// admin's downloads. Saved places, place search and directions come with the same module.
import { z } from 'zod';

export const REGION_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Deepest zoom a region may carry (PMTiles goes to 26; basemaps stop at 15). */
export const MAX_ZOOM = 18;
/** Region files are read with a small directory cache each; at most this many stay open. */
export const MAX_OPEN_REGIONS = 16;

const Bbox = z
  .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90), z.number().min(-180).max(180), z.number().min(-90).max(90)])
  .refine(([w, s, e, n]) => w < e && s < n, 'bbox is [west, south, east, north] with west < east and south < north');

const Sha256 = z.string().regex(/^[a-f0-9]{64}$/i);

export const CatalogRegion = z.object({
  id: z.string().regex(REGION_ID),
  name: z.string().min(1).max(200),
  bbox: Bbox,
  minzoom: z.number().int().min(0).max(MAX_ZOOM),
  maxzoom: z.number().int().min(0).max(MAX_ZOOM),
  bytes: z.number().int().positive(),
  sha256: Sha256,
  url: z.string().url(),
  /** The region's roads as an .osm.pbf, for directions. */
  routing: z.object({ url: z.string().url(), bytes: z.number().int().positive(), sha256: Sha256 }).optional(),
});
export type CatalogRegion = z.infer<typeof CatalogRegion>;

export const MapCatalog = z.object({ regions: z.array(CatalogRegion) });
export type MapCatalog = z.infer<typeof MapCatalog>;

export const Region = z.object({
  id: z.string(),
  name: z.string(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  minzoom: z.number().int(),
  maxzoom: z.number().int(),
  bytes: z.number().int(),
  installedAt: z.string(),
  /** Directions inside this region: ready, being built, failed (with `directionsError`), or none listed. */
  directions: z.enum(['none', 'building', 'ready', 'failed']),
  directionsError: z.string().nullable(),
});
export type Region = z.infer<typeof Region>;

export const RegionsResponse = z.object({ regions: z.array(Region) });

export const AdminCatalogRegion = CatalogRegion.omit({ url: true, sha256: true, routing: true }).extend({
  hasRouting: z.boolean(),
  installed: z.boolean(),
  downloading: z.boolean(),
});
export const AdminCatalogResponse = z.object({ regions: z.array(AdminCatalogRegion), freeBytes: z.number().nullable() });
export type AdminCatalogResponse = z.infer<typeof AdminCatalogResponse>;

export const RegionIdParams = z.object({ regionId: z.string().regex(REGION_ID, 'That is not a map region id.') });

export const TileParams = z.object({
  regionId: z.string().regex(REGION_ID, 'That is not a map region id.'),
  z: z.coerce.number().int().min(0).max(26),
  x: z.coerce.number().int().min(0),
  /** `<y>.mvt` */
  file: z.string().regex(/^\d{1,8}\.[a-z]{3,4}$/, 'A tile is asked for as <y>.mvt.'),
});

/** A MapLibre style (v8); its layers are Hearth's own, for the OpenMapTiles schema the regions carry. */
export const StyleResponse = z.object({
  version: z.literal(8),
  name: z.string(),
  center: z.tuple([z.number(), z.number()]).optional(),
  zoom: z.number().optional(),
  sources: z.record(z.string(), z.object({ type: z.literal('vector'), tiles: z.array(z.string()), minzoom: z.number(), maxzoom: z.number(), bounds: z.array(z.number()), attribution: z.string() })),
  layers: z.array(z.record(z.string(), z.unknown())),
});

export const MapDownloadEvents = z.object({
  progress: z.object({ state: z.enum(['waiting', 'downloading', 'retrying', 'installing', 'directions']), bytesDone: z.number(), bytesTotal: z.number().nullable(), message: z.string().nullable() }),
  done: z.object({ region: Region }),
});
export type MapDownloadEventMap = z.infer<typeof MapDownloadEvents>;

export const GeoResult = z.object({
  id: z.string(),
  name: z.string(),
  /** city, street, town, school, cafe… */
  kind: z.string(),
  lat: z.number(),
  lon: z.number(),
  country: z.string().nullable(),
  /** The map region (or a city's state or county code). */
  region: z.string().nullable(),
  /** Where it was found: the world cities list or an installed region. */
  source: z.enum(['cities', 'region', 'online']),
});
export type GeoResult = z.infer<typeof GeoResult>;

const LatLon = z
  .string()
  .regex(/^-?\d{1,3}(\.\d+)?,-?\d{1,3}(\.\d+)?$/, 'A place is given as lat,lon (for example 52.2,0.31).')
  .transform((s) => s.split(',').map(Number) as [number, number])
  .refine(([lat, lon]) => Math.abs(lat) <= 90 && Math.abs(lon) <= 180, 'Latitude is between -90 and 90, longitude between -180 and 180.');

export const GeocodeQuery = z.object({
  q: z.string().trim().min(1, 'Type a few letters of a place.').max(200),
  near: LatLon.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(10),
  /** Also ask the online geocoder an admin set (the page asks on Enter, not as you type). */
  online: z.enum(['0', '1']).default('0').transform((v) => v === '1'),
});
export const GeocodeResponse = z.object({
  results: z.array(GeoResult),
  /** Set when the online search was asked and failed: the results are the offline ones. */
  notice: z.string().nullable(),
});

export const OnlineGeocoderConfig = z.object({ provider: z.enum(['photon', 'nominatim']).nullable(), url: z.string().nullable() });
export type OnlineGeocoderConfig = z.infer<typeof OnlineGeocoderConfig>;
export const OnlineGeocoderBody = z.object({
  provider: z.enum(['photon', 'nominatim']),
  url: z
    .string()
    .url('The geocoder address is a full URL, like http://192.168.1.20:2322.')
    .max(500)
    .refine((u) => /^https?:$/.test(new URL(u).protocol), 'The geocoder address starts with http:// or https://.')
    .refine((u) => !new URL(u).username && !new URL(u).password, 'Leave the user name and password out of the address.'),
});

export const ReverseQuery = z.object({ lat: z.coerce.number().min(-90).max(90), lon: z.coerce.number().min(-180).max(180) });
export const ReverseResponse = z.object({ place: GeoResult.nullable() });

export const RouteQuery = z.object({
  from: LatLon,
  to: LatLon,
  mode: z.enum(['car', 'bike', 'foot']).default('car'),
});
export const RouteResponse = z.object({
  /** metres */
  distance: z.number(),
  /** seconds */
  duration: z.number(),
  geometry: z.object({ type: z.literal('LineString'), coordinates: z.array(z.tuple([z.number(), z.number()])) }),
  steps: z.array(z.object({ instruction: z.string(), name: z.string(), distance: z.number(), duration: z.number(), location: z.tuple([z.number(), z.number()]) })),
  regionId: z.string(),
});
export type RouteResponse = z.infer<typeof RouteResponse>;

export const MAX_PLACES_PER_MEMBER = 500;
export const Place = z.object({
  id: z.string(),
  name: z.string(),
  note: z.string(),
  lat: z.number(),
  lon: z.number(),
  /** A household place (home, school) every member sees; only admins change those. */
  household: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Place = z.infer<typeof Place>;
export const PlacesResponse = z.object({ places: z.array(Place) });
export const PlaceResponse = z.object({ place: Place });
const placeFields = {
  name: z.string().trim().min(1, 'Give the place a name.').max(100),
  note: z.string().trim().max(1000),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
};
export const PlaceBody = z.object({ ...placeFields, note: placeFields.note.default('') });
/** Only the fields sent change (no defaults: a rename keeps the note). */
export const PlacePatch = z
  .object(placeFields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, 'Say what to change: name, note, lat or lon.');
export const PlaceIdParams = z.object({ id: z.string().uuid('That is not a saved place.') });
