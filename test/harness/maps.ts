// The test region "Fixtureton" (test/fixtures/maps, made by make-test-region.ts) as a map catalog
// entry served by a FakeFileServer, and the catalog file Hearth reads (MAP_CATALOG_PATH): the API
// test, the browser test and bench/maps.ts install the same region the same way.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sha256, type FakeFileServer } from '../fakes/file-server.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/maps');
export const FIXTURETON_BBOX: [number, number, number, number] = [0.3, 52.19, 0.3168, 52.2005];
export const FIXTURETON_TILES_PATH = path.join(FIXTURES, 'town.pmtiles');
export const fixturetonTiles = (): Buffer => readFileSync(FIXTURETON_TILES_PATH);
export const fixturetonRoads = (): Buffer => readFileSync(path.join(FIXTURES, 'town.osm.pbf'));

export interface CatalogRegion {
  id: string;
  name: string;
  bbox: number[];
  minzoom: number;
  maxzoom: number;
  bytes: number;
  sha256: string;
  url: string;
  routing?: { url: string; bytes: number; sha256: string };
}

/** A catalog entry whose file `data` is served by `files` as `file` (its checksum `sum`, by default the right one). */
export function catalogRegion(files: FakeFileServer, id: string, name: string, file: string, data: Buffer, sum = sha256(data)): CatalogRegion {
  return { id, name, bbox: FIXTURETON_BBOX, minzoom: 0, maxzoom: 14, bytes: data.length, sha256: sum, url: files.addBuffer(file, data) };
}

/** Fixtureton with its tiles and its roads (for directions), served by `files`. */
export function fixturetonRegion(files: FakeFileServer): CatalogRegion {
  const roads = fixturetonRoads();
  return { ...catalogRegion(files, 'fixtureton', 'Fixtureton', 'town.pmtiles', fixturetonTiles()), routing: { url: files.addBuffer('town.osm.pbf', roads), bytes: roads.length, sha256: sha256(roads) } };
}

/** Writes the catalog file into `dir`; its path. */
export function writeMapCatalog(dir: string, regions: CatalogRegion[]): string {
  const file = path.join(dir, 'maps.json');
  writeFileSync(file, JSON.stringify({ regions }));
  return file;
}
