// What every member reads of the maps: the installed regions, a MapLibre style composed from them,
// and their tiles (semantics of the reference PMTiles server: a tile as stored with its gzip
// encoding and a strong ETag, 204 for a tile the region does not have inside its zoom range, 404
// outside it, 400 for another extension than the region's tile type).
import type { Actor } from '../../actor.js';
import { BadRequestError, NotFoundError } from '../../errors.js';
import { resolveInside } from '../../platform/path-guard.js';
import type { RegionFiles, TileLookup } from './region-files.js';
import { mapStyle } from './style.js';
import type { Region } from './schema.js';
import type { MapsStore, RegionRecord } from './store.js';

export interface MapTilesDeps {
  store: MapsStore;
  files: RegionFiles;
  dataDir: string;
}

export const regionView = (r: RegionRecord): Region => ({ id: r.id, name: r.name, bbox: r.bbox, minzoom: r.minZoom, maxzoom: r.maxZoom, bytes: r.bytes, installedAt: r.installedAt, directions: r.routing, directionsError: r.routingError });

export class MapTilesService {
  constructor(private readonly deps: MapTilesDeps) {}

  async regions(_actor: Actor): Promise<Region[]> {
    return (await this.deps.store.listRegions()).map(regionView);
  }

  /** The style for the installed regions; `origin` is the address the page was loaded from. */
  async style(_actor: Actor, origin: string) {
    return mapStyle(await this.deps.store.listRegions(), origin);
  }

  async tile(_actor: Actor, regionId: string, z: number, x: number, file: string): Promise<Exclude<TileLookup, { kind: 'out_of_range' }>> {
    const region = await this.deps.store.getRegion(regionId);
    if (!region) throw new NotFoundError('There is no such map region installed.');
    const [y, ext] = file.split('.') as [string, string];
    if (ext !== 'mvt' && ext !== 'pbf') throw new BadRequestError('This region has vector tiles: ask for <y>.mvt.');
    // the path guard runs when the region's file is opened (once, not per tile)
    const opened = this.deps.files.getOrOpen(region.id, region.installedAt, () => resolveInside(this.deps.dataDir, region.filePath));
    if (!opened) throw new NotFoundError('There is no such map region installed.');
    const found = await opened.tile(z, x, Number(y));
    if (found.kind === 'out_of_range') throw new NotFoundError(`${region.name} has no tiles at that place and zoom (it has zoom ${region.minZoom} to ${region.maxZoom}).`);
    return found;
  }
}
