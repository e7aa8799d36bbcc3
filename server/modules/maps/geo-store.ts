// geo_places (+ its FTS5 index geo_places_fts) and geo_shapes (+ its R*Tree geo_shapes_rtree): the
// offline place search. Rows are written in chunks with ids assigned here, so a chunk is three
// multi-row statements (places, index, shapes) in one transaction, not one statement per row.
import type { Knex } from 'knex';

export interface NewGeoPlace {
  name: string;
  /** Other names it is found by (a city's alternative names). */
  alt: string;
  kind: string;
  lat: number;
  lon: number;
  country: string | null;
  region: string | null;
  population: number;
  source: string;
  /** Segments [lat1, lon1, lat2, lon2] (a point is a segment of length 0). */
  shapes: Array<[number, number, number, number]>;
}

export interface GeoPlaceRow {
  id: number;
  name: string;
  kind: string;
  lat: number;
  lon: number;
  country: string | null;
  region: string | null;
  population: number;
  source: string;
}

export interface NearbyShape extends GeoPlaceRow {
  lat1: number;
  lon1: number;
  lat2: number;
  lon2: number;
}

/** SQLite's limit on bound values per statement is 32,766; rows per multi-row insert stay well under. */
const ROWS_PER_STATEMENT = 400;

const chunks = <T>(xs: T[], n: number): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

export class GeoStore {
  constructor(private readonly db: Knex) {}

  async countSource(source: string): Promise<number> {
    const [row] = (await this.db('geo_places').where({ source }).count({ n: '*' })) as Array<{ n: number }>;
    return Number(row?.n ?? 0);
  }

  /** Adds places (with their index rows and shapes) in one transaction. */
  async insert(places: NewGeoPlace[]): Promise<void> {
    if (places.length === 0) return;
    await this.db.transaction(async (trx) => {
      const [maxPlace] = (await trx('geo_places').max({ id: 'id' })) as Array<{ id: number | null }>;
      const [maxShape] = (await trx('geo_shapes').max({ id: 'id' })) as Array<{ id: number | null }>;
      let placeId = maxPlace?.id ?? 0;
      let shapeId = maxShape?.id ?? 0;
      const rows = places.map((p) => ({ ...p, id: ++placeId }));
      for (const c of chunks(rows, ROWS_PER_STATEMENT)) {
        await trx('geo_places').insert(c.map((p) => ({ id: p.id, name: p.name, kind: p.kind, lat: p.lat, lon: p.lon, country: p.country, region: p.region, population: p.population, source: p.source })));
        await trx.raw(`INSERT INTO geo_places_fts(rowid, name, alt) VALUES ${c.map(() => '(?, ?, ?)').join(', ')}`, c.flatMap((p) => [p.id, p.name, p.alt]));
      }
      const shapes = rows.flatMap((p) => p.shapes.map(([lat1, lon1, lat2, lon2]) => ({ id: ++shapeId, place_id: p.id, lat1, lon1, lat2, lon2 })));
      for (const c of chunks(shapes, ROWS_PER_STATEMENT)) {
        await trx('geo_shapes').insert(c);
        await trx.raw(
          `INSERT INTO geo_shapes_rtree(id, min_lat, max_lat, min_lon, max_lon) VALUES ${c.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
          c.flatMap((s) => [s.id, Math.min(s.lat1, s.lat2), Math.max(s.lat1, s.lat2), Math.min(s.lon1, s.lon2), Math.max(s.lon1, s.lon2)]),
        );
      }
    });
  }

  /** Removes every place read from `source` (a region being removed or read again). */
  async removeSource(source: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx.raw('DELETE FROM geo_shapes_rtree WHERE id IN (SELECT s.id FROM geo_shapes s JOIN geo_places p ON p.id = s.place_id WHERE p.source = ?)', [source]);
      await trx.raw('DELETE FROM geo_places_fts WHERE rowid IN (SELECT id FROM geo_places WHERE source = ?)', [source]);
      await trx('geo_places').where({ source }).delete();
    });
  }

  /** Places matching an FTS5 expression, best text match first (at most `limit`). */
  async match(expression: string, limit: number): Promise<Array<GeoPlaceRow & { rank: number }>> {
    return (await this.db.raw(
      `SELECT p.id, p.name, p.kind, p.lat, p.lon, p.country, p.region, p.population, p.source, f.rank AS rank
         FROM (SELECT rowid, bm25(geo_places_fts, 10.0, 1.0) AS rank FROM geo_places_fts WHERE geo_places_fts MATCH ? ORDER BY rank LIMIT ?) f
         JOIN geo_places p ON p.id = f.rowid`,
      [expression, limit],
    )) as Array<GeoPlaceRow & { rank: number }>;
  }

  /** Shapes of the cities, or of the regions' places, whose box meets lat±dLat, lon±dLon, with their place. */
  async near(lat: number, lon: number, dLat: number, dLon: number, of: 'cities' | 'regions'): Promise<NearbyShape[]> {
    return (await this.db.raw(
      `SELECT p.id, p.name, p.kind, p.lat, p.lon, p.country, p.region, p.population, p.source, s.lat1, s.lon1, s.lat2, s.lon2
         FROM geo_shapes_rtree r JOIN geo_shapes s ON s.id = r.id JOIN geo_places p ON p.id = s.place_id
        WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lon >= ? AND r.min_lon <= ? AND p.source ${of === 'cities' ? '=' : '<>'} 'cities'`,
      [lat - dLat, lat + dLat, lon - dLon, lon + dLon],
    )) as NearbyShape[];
  }
}
