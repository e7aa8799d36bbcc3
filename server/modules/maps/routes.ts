// /api/maps (members: installed regions, the style, tiles) and /api/admin/maps (the catalog,
// downloads that follow the durable queue, removal).
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, events, NO_CONTENT } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import { clientGone } from '../../http/client-gone.js';
import type { DirectionsService } from './directions-service.js';
import type { GeocoderService } from './geocoder-service.js';
import type { PlacesService } from './places-service.js';
import type { MapRegionsService } from './regions-service.js';
import { OnlineGeocoderBody, OnlineGeocoderConfig, PlaceBody, PlaceIdParams, PlacePatch, PlaceResponse, PlacesResponse, AdminCatalogResponse, GeocodeQuery, GeocodeResponse, MapDownloadEvents, RegionIdParams, RegionsResponse, ReverseQuery, ReverseResponse, RouteQuery, RouteResponse, StyleResponse, TileParams } from './schema.js';
import type { MapTilesService } from './tiles-service.js';

/** Tiles of an installed region do not change until it is installed again (a new ETag then). */
const TILE_CACHE = 'private, max-age=86400';

/** Saved places: a member's own under /api/maps/places, the household's under /api/admin/maps/places. */
function placeRoutes(r: Parameters<Parameters<typeof defineRoutes>[0]>[0], places: PlacesService, household: boolean) {
  const access = household ? 'admin' : 'user';
  r.post('/places', { access, response: PlaceResponse }, async (req, res) => {
    const place = await places.add(actorOf(req), parse(PlaceBody, req.body), { household });
    res.status(201);
    return { place };
  });
  r.patch('/places/:id', { access, response: PlaceResponse }, async (req) => ({
    place: await places.change(actorOf(req), parse(PlaceIdParams, req.params).id, parse(PlacePatch, req.body), { household }),
  }));
  r.delete('/places/:id', { access, response: NO_CONTENT }, async (req, res) => {
    await places.remove(actorOf(req), parse(PlaceIdParams, req.params).id, { household });
    res.status(204);
  });
}

export function createMapRoutes(tiles: MapTilesService, geocoder: GeocoderService, directions: DirectionsService, places: PlacesService) {
  return defineRoutes((r) => {
    r.get('/places', { access: 'user', response: PlacesResponse }, async (req) => ({ places: await places.list(actorOf(req)) }));
    placeRoutes(r, places, false);

    r.get('/route', { access: 'user', response: RouteResponse }, (req, res) => {
      const q = parse(RouteQuery, req.query);
      return directions.route(actorOf(req), q.from, q.to, q.mode, clientGone(req, res));
    });

    r.get('/geocode', { access: 'user', response: GeocodeResponse }, async (req, res) => {
      const q = parse(GeocodeQuery, req.query);
      return geocoder.searchWithOnline(actorOf(req), q.q, { near: q.near, limit: q.limit, online: q.online, signal: clientGone(req, res) });
    });

    r.get('/reverse', { access: 'user', response: ReverseResponse }, async (req) => {
      const q = parse(ReverseQuery, req.query);
      return { place: await geocoder.reverse(actorOf(req), q.lat, q.lon) };
    });

    r.get('/regions', { access: 'user', response: RegionsResponse }, async (req) => ({ regions: await tiles.regions(actorOf(req)) }));

    r.get('/style.json', { access: 'user', response: StyleResponse }, (req) => tiles.style(actorOf(req), `${req.protocol}://${req.get('host') ?? 'localhost'}`));
  });
}

/** GET /api/maps/tiles/…: mounted ahead of the other modules' routes (a map asks for dozens a second). */
export function createMapTileRoutes(tiles: MapTilesService) {
  return defineRoutes((r) => {
    r.get('/:regionId/:z/:x/:file', { access: 'user', response: bytes('application/vnd.mapbox-vector-tile (gzip-encoded as stored), 204 for an empty tile') }, async (req, res) => {
      const p = parse(TileParams, req.params);
      const found = await tiles.tile(actorOf(req), p.regionId, p.z, p.x, p.file);
      // one writeHead with every header (a map asks for dozens of tiles a second: express's
      // per-header helpers cost more than the tile's read)
      if (found.kind === 'empty') {
        res.writeHead(204, { 'Cache-Control': TILE_CACHE }).end();
        return;
      }
      if (req.headers['if-none-match'] === found.etag) {
        res.writeHead(304, { ETag: found.etag, 'Cache-Control': TILE_CACHE }).end();
        return;
      }
      res
        .writeHead(200, {
          ETag: found.etag,
          'Cache-Control': TILE_CACHE,
          'Content-Type': 'application/vnd.mapbox-vector-tile',
          'Content-Length': found.data.length,
          ...(found.gzip ? { 'Content-Encoding': 'gzip' } : {}),
        })
        .end(found.data);
    });
  });
}

export function createMapAdminRoutes(regions: MapRegionsService, places: PlacesService, geocoder: GeocoderService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/geocoder', { access: 'admin', response: OnlineGeocoderConfig }, (req) => geocoder.onlineConfig(actorOf(req)));
    r.put('/geocoder', { access: 'admin', response: OnlineGeocoderConfig }, (req) => geocoder.setOnline(actorOf(req), parse(OnlineGeocoderBody, req.body)));
    r.delete('/geocoder', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await geocoder.setOnline(actorOf(req), null);
      res.status(204);
    });

    placeRoutes(r, places, true);

    r.get('/catalog', { access: 'admin', response: AdminCatalogResponse }, (req) => regions.catalogView(actorOf(req)));

    r.post('/download/:regionId', { access: 'admin', response: events(MapDownloadEvents) }, (req, res) =>
      sse.run(req, res, async (open) => {
        const { regionId } = parse(RegionIdParams, req.params);
        const started = await regions.startDownload(actorOf(req), regionId);
        const stream = open();
        await regions.follow(started, { send: (event, data) => stream.send(event, data), signal: stream.signal });
      }),
    );

    r.delete('/:regionId', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await regions.remove(actorOf(req), parse(RegionIdParams, req.params).regionId);
      res.status(204);
    });
  });
}
