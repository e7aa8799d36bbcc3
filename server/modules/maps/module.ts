// The maps module: offline map regions (PMTiles files from the map catalog, fetched through the
// download queue) served as vector tiles with a MapLibre style.
import { findRoutino } from '../../adapters/routing/routino.js';
import { defineModule, type Platform } from '../module.js';
import { loadMapCatalog } from './catalog.js';
import { createMapsTool } from './chat-tool.js';
import { DirectionsService } from './directions-service.js';
import { mapToolChecks, mapTools } from './extensions.js';
import { GeocoderService } from './geocoder-service.js';
import { GeoStore } from './geo-store.js';
import type { MapsPorts } from './ports.js';
import { RegionFiles } from './region-files.js';
import { MapRegionsService } from './regions-service.js';
import { createMapAdminRoutes, createMapRoutes, createMapTileRoutes } from './routes.js';
import { MAX_OPEN_REGIONS } from './schema.js';
import { PlacesService } from './places-service.js';
import { MapsStore, PlacesStore } from './store.js';
import { MapTilesService } from './tiles-service.js';

export function createMapsModule(p: Platform, ports: MapsPorts) {
  const { config } = p;
  const store = new MapsStore(p.db);
  const files = new RegionFiles(MAX_OPEN_REGIONS);
  const mapTiles = new MapTilesService({ store, files, dataDir: config.dataDir });
  const logger = p.logger.child('maps');
  const geocoder = new GeocoderService({ geo: new GeoStore(p.db), files, logger, settings: p.settings, baseGuard: p.guard });
  // looked for at each use: installing Routino later needs no restart
  const routing = () => findRoutino(config.searchPath);
  const places = new PlacesService({ store: new PlacesStore(p.db), clock: p.clock });
  const directions = new DirectionsService({ store, routing, graphDir: (id) => ports.downloads.destinationPath(`maps/${id}-directions`) });
  const mapRegions = new MapRegionsService({
    store,
    files,
    catalog: loadMapCatalog(config.mapCatalogPath),
    downloads: () => ({
      enqueue: async (actor, job) => (await ports.downloads.enqueue(actor, [job]))[0]!,
      progress: (id) => ports.downloads.progress(id),
      cancel: (actor, id) => ports.downloads.cancel(actor, id),
      destinationPath: (d) => ports.downloads.destinationPath(d),
    }),
    places: geocoder,
    routing,
    disk: p.diskSpace,
    dataDir: config.dataDir,
    clock: p.clock,
    logger,
  });
  return defineModule({
    name: 'maps',
    storageAreas: [{ key: 'maps', label: 'Maps', folders: ['maps'] }],
    routes: [
      { prefix: '/maps/tiles', routes: createMapTileRoutes(mapTiles), first: true },
      { prefix: '/maps', routes: createMapRoutes(mapTiles, geocoder, directions, places) },
      { prefix: '/admin/maps', routes: createMapAdminRoutes(mapRegions, places, geocoder, p.sse) },
    ],
    services: { mapTiles, mapRegions, geocoder, directions, mapPlaces: places },
    // a household with a map has its world cities ready for the first search (loaded once, in chunks)
    start: async () => {
      if ((await store.listRegions()).length > 0) void geocoder.ensureCities().catch((err: unknown) => logger.error({ err }, 'the world cities could not be loaded'));
    },
    listeners: [{ event: 'download.completed', run: (e) => mapRegions.onDownloaded(e) }],
    chatTools: [createMapsTool({ geocoder, directions, places, tiles: mapTiles })],
    extensions: { definitions: mapTools, checks: mapToolChecks({ tiles: mapTiles, chatReadiness: ports.chatReadiness }) },
    close: async () => {
      await geocoder.close();
      await files.closeAll();
    },
  });
}
