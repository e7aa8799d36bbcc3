// map_regions and map_places.
import type { Knex } from 'knex';

export interface RegionRecord {
  id: string;
  name: string;
  bbox: [number, number, number, number];
  minZoom: number;
  maxZoom: number;
  bytes: number;
  sha256: string | null;
  filePath: string;
  sourceUrl: string;
  installedAt: string;
  routing: RoutingState;
  routingError: string | null;
}

export type RoutingState = 'none' | 'building' | 'ready' | 'failed';

interface RegionRow {
  id: string;
  name: string;
  bbox: string;
  min_zoom: number;
  max_zoom: number;
  bytes: number;
  sha256: string | null;
  file_path: string;
  source_url: string;
  installed_at: string;
  routing: RoutingState;
  routing_error: string | null;
}

const toRegion = (r: RegionRow): RegionRecord => ({
  id: r.id,
  name: r.name,
  bbox: JSON.parse(r.bbox) as [number, number, number, number],
  minZoom: r.min_zoom,
  maxZoom: r.max_zoom,
  bytes: r.bytes,
  sha256: r.sha256,
  filePath: r.file_path,
  sourceUrl: r.source_url,
  installedAt: r.installed_at,
  routing: r.routing,
  routingError: r.routing_error,
});

export class MapsStore {
  constructor(private readonly db: Knex) {}

  async listRegions(): Promise<RegionRecord[]> {
    return ((await this.db('map_regions').orderBy('name')) as RegionRow[]).map(toRegion);
  }

  async getRegion(id: string): Promise<RegionRecord | null> {
    const row = (await this.db('map_regions').where({ id }).first()) as RegionRow | undefined;
    return row ? toRegion(row) : null;
  }

  async putRegion(r: RegionRecord): Promise<void> {
    const row: RegionRow = {
      id: r.id,
      name: r.name,
      bbox: JSON.stringify(r.bbox),
      min_zoom: r.minZoom,
      max_zoom: r.maxZoom,
      bytes: r.bytes,
      sha256: r.sha256,
      file_path: r.filePath,
      source_url: r.sourceUrl,
      installed_at: r.installedAt,
      routing: r.routing,
      routing_error: r.routingError,
    };
    await this.db('map_regions').insert(row).onConflict('id').merge();
  }

  async setRouting(id: string, routing: RoutingState, error: string | null): Promise<void> {
    await this.db('map_regions').where({ id }).update({ routing, routing_error: error });
  }

  async deleteRegion(id: string): Promise<boolean> {
    return (await this.db('map_regions').where({ id }).delete()) > 0;
  }
}
