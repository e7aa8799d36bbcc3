// map_regions and map_places.
import type { Knex } from 'knex';
import { tableWrites } from '../../db/connection.js';

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
  /** Every tile request names its region: the few rows are kept in memory until map_regions is written. */
  private readonly writes: () => number;
  private cached: { version: number; regions: RegionRecord[] } | null = null;

  constructor(private readonly db: Knex) {
    this.writes = tableWrites(db, ['map_regions']);
  }

  async listRegions(): Promise<RegionRecord[]> {
    const version = this.writes();
    if (this.cached?.version === version) return this.cached.regions;
    const regions = ((await this.db('map_regions').orderBy('name')) as RegionRow[]).map(toRegion);
    this.cached = { version, regions };
    return regions;
  }

  async getRegion(id: string): Promise<RegionRecord | null> {
    return (await this.listRegions()).find((r) => r.id === id) ?? null;
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

export interface PlaceRecord {
  id: string;
  ownerId: string | null;
  name: string;
  note: string;
  lat: number;
  lon: number;
  createdAt: string;
  updatedAt: string;
}

interface PlaceRow {
  id: string;
  user_id: string | null;
  name: string;
  note: string;
  lat: number;
  lon: number;
  created_at: string;
  updated_at: string;
}

const toPlace = (r: PlaceRow): PlaceRecord => ({ id: r.id, ownerId: r.user_id, name: r.name, note: r.note, lat: r.lat, lon: r.lon, createdAt: r.created_at, updatedAt: r.updated_at });

export class PlacesStore {
  constructor(private readonly db: Knex) {}

  /** A member's own places and the household's, household first, then by name. */
  async listFor(userId: string): Promise<PlaceRecord[]> {
    return ((await this.db('map_places').where({ user_id: userId }).orWhereNull('user_id').orderByRaw('user_id IS NOT NULL').orderBy('name')) as PlaceRow[]).map(toPlace);
  }

  async get(id: string): Promise<PlaceRecord | null> {
    const row = (await this.db('map_places').where({ id }).first()) as PlaceRow | undefined;
    return row ? toPlace(row) : null;
  }

  async countOwn(userId: string): Promise<number> {
    const [row] = (await this.db('map_places').where({ user_id: userId }).count({ n: '*' })) as Array<{ n: number }>;
    return Number(row?.n ?? 0);
  }

  async insert(p: PlaceRecord): Promise<void> {
    await this.db('map_places').insert({ id: p.id, user_id: p.ownerId, name: p.name, note: p.note, lat: p.lat, lon: p.lon, created_at: p.createdAt, updated_at: p.updatedAt });
  }

  async update(p: PlaceRecord): Promise<void> {
    await this.db('map_places').where({ id: p.id }).update({ name: p.name, note: p.note, lat: p.lat, lon: p.lon, updated_at: p.updatedAt });
  }

  async delete(id: string): Promise<void> {
    await this.db('map_places').where({ id }).delete();
  }
}
