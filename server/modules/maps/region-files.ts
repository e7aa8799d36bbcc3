// Reading tiles from installed region files (.pmtiles, protomaps/PMTiles spec v3) with the npm
// `pmtiles` reader's header and directory cache over a positional file-handle source. Tiles are
// returned as stored (gzip passed through, as the reference server does) so nothing is
// decompressed and compressed again per request; directories and metadata are gunzipped with zlib
// (3-4x faster here than the default DecompressionStream). Files open at their first tile and
// close when the region is removed or the server stops.
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import type * as Pmtiles from 'pmtiles';
import { lazyRequire } from '../../platform/lazy.js';

const loadPmtiles = lazyRequire<typeof Pmtiles>('pmtiles');

/** PMTiles compression codes (spec v3). */
const GZIP = 2;
const NONE = 1;
/** PMTiles tile types that are vector tiles (1 MVT). */
const MVT = 1;

const asArrayBuffer = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

function decompress(buf: ArrayBuffer, compression: number): Promise<ArrayBuffer> {
  if (compression === NONE || compression === 0) return Promise.resolve(buf);
  if (compression === GZIP) return Promise.resolve(asArrayBuffer(gunzipSync(Buffer.from(buf))));
  return Promise.reject(new Error(`compression ${compression} is not supported`));
}

export interface RegionFileInfo {
  minZoom: number;
  maxZoom: number;
  bounds: [number, number, number, number];
  center: [number, number, number];
  vectorTiles: boolean;
  tileCompression: 'gzip' | 'none' | 'other';
}

export type TileLookup = { kind: 'tile'; data: Buffer; gzip: boolean; etag: string } | { kind: 'empty' } | { kind: 'out_of_range' };

class RegionFile {
  private handle: Promise<FileHandle> | null = null;
  private readonly cache: Pmtiles.Cache;
  private readonly source: Pmtiles.Source;

  constructor(
    readonly key: string,
    private readonly filePath: string,
  ) {
    const { SharedPromiseCache } = loadPmtiles();
    this.cache = new SharedPromiseCache(64, false, decompress);
    this.source = {
      getKey: () => key,
      getBytes: async (offset: number, length: number) => {
        const fh = await this.fh();
        const buf = Buffer.alloc(length);
        const { bytesRead } = await fh.read(buf, 0, length, offset);
        return { data: asArrayBuffer(buf.subarray(0, bytesRead)) };
      },
    };
  }

  private fh(): Promise<FileHandle> {
    this.handle ??= open(this.filePath, 'r');
    return this.handle;
  }

  async info(): Promise<RegionFileInfo> {
    const h = await this.cache.getHeader(this.source);
    return {
      minZoom: h.minZoom,
      maxZoom: h.maxZoom,
      bounds: [h.minLon, h.minLat, h.maxLon, h.maxLat],
      center: [h.centerLon, h.centerLat, h.centerZoom],
      vectorTiles: h.tileType === MVT,
      tileCompression: h.tileCompression === GZIP ? 'gzip' : h.tileCompression === NONE ? 'none' : 'other',
    };
  }

  async metadata(): Promise<Record<string, unknown>> {
    const h = await this.cache.getHeader(this.source);
    const raw = await this.source.getBytes(h.jsonMetadataOffset, h.jsonMetadataLength);
    const json = JSON.parse(new TextDecoder().decode(await decompress(raw.data, h.internalCompression))) as unknown;
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  }

  async tile(z: number, x: number, y: number): Promise<TileLookup> {
    const { findTile, zxyToTileId } = loadPmtiles();
    const h = await this.cache.getHeader(this.source);
    if (z < h.minZoom || z > h.maxZoom || x >= 2 ** z || y >= 2 ** z) return { kind: 'out_of_range' };
    const id = zxyToTileId(z, x, y);
    let offset = h.rootDirectoryOffset;
    let length = h.rootDirectoryLength;
    for (let depth = 0; depth <= 3; depth++) {
      const entry = findTile(await this.cache.getDirectory(this.source, offset, length, h), id);
      if (!entry) return { kind: 'empty' };
      if (entry.runLength > 0) {
        const bytes = await this.source.getBytes(h.tileDataOffset + entry.offset, entry.length);
        // a stored blob's place in the file names its bytes: tiles that share a blob share an ETag
        return { kind: 'tile', data: Buffer.from(bytes.data), gzip: h.tileCompression === GZIP, etag: `"${this.key.replace('@', '-')}-${entry.offset.toString(36)}-${entry.length.toString(36)}"` };
      }
      offset = h.leafDirectoryOffset + entry.offset;
      length = entry.length;
    }
    throw new Error('The region file nests its directories deeper than PMTiles allows.');
  }

  /** Every tile stored at zoom `z`, decompressed (for reading a region's place names). */
  async *tilesAt(z: number): AsyncGenerator<{ x: number; y: number; data: Buffer }> {
    const { tileIdToZxy, zxyToTileId } = loadPmtiles();
    const h = await this.cache.getHeader(this.source);
    // the ids of zoom z are one range: a run of repeated tiles (ocean, say) is only walked inside it
    const first = zxyToTileId(z, 0, 0);
    const end = zxyToTileId(z + 1, 0, 0);
    const walk = async function* (self: RegionFile, offset: number, length: number, depth: number): AsyncGenerator<Pmtiles.Entry> {
      if (depth > 3) throw new Error('The region file nests its directories deeper than PMTiles allows.');
      for (const e of await self.cache.getDirectory(self.source, offset, length, h)) {
        if (e.runLength === 0) yield* walk(self, h.leafDirectoryOffset + e.offset, e.length, depth + 1);
        else yield e;
      }
    };
    for await (const e of walk(this, h.rootDirectoryOffset, h.rootDirectoryLength, 0)) {
      let data: Buffer | null = null;
      for (let id = Math.max(first, e.tileId); id < Math.min(end, e.tileId + e.runLength); id++) {
        const [, x, y] = tileIdToZxy(id);
        data ??= Buffer.from(await decompress((await this.source.getBytes(h.tileDataOffset + e.offset, e.length)).data, h.tileCompression));
        yield { x, y, data };
      }
    }
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    if (h) await (await h.catch(() => null))?.close();
  }
}

/** The open region files, by region id and file version (a reinstalled region opens afresh). */
export class RegionFiles {
  private readonly open = new Map<string, RegionFile>();

  constructor(private readonly maxOpen: number) {}

  get(regionId: string, version: string, filePath: string): RegionFile {
    return this.getOrOpen(regionId, version, () => filePath)!;
  }

  /**
   * The open file of a region's version; when it is not open, `resolvePath` names the file to open
   * (null: none, and nothing is opened). Path checks done there run once per opening, not per tile.
   */
  getOrOpen(regionId: string, version: string, resolvePath: () => string | null): RegionFile | null {
    const key = `${regionId}@${version}`;
    let f = this.open.get(key);
    if (f) {
      // most recently used last
      this.open.delete(key);
      this.open.set(key, f);
      return f;
    }
    const filePath = resolvePath();
    if (filePath === null) return null;
    for (const [k, other] of this.open) if (k.startsWith(`${regionId}@`)) void this.drop(k, other);
    f = new RegionFile(key, filePath);
    this.open.set(key, f);
    while (this.open.size > this.maxOpen) {
      const [oldest, file] = this.open.entries().next().value as [string, RegionFile];
      void this.drop(oldest, file);
    }
    return f;
  }

  /** Reads a file that is not (yet) a region: its header, for the check after a download. */
  async inspect(filePath: string): Promise<RegionFileInfo> {
    const f = new RegionFile(`inspect-${Math.random().toString(36).slice(2)}`, filePath);
    try {
      return await f.info();
    } finally {
      await f.close();
    }
  }

  async closeRegion(regionId: string): Promise<void> {
    await Promise.all([...this.open].filter(([k]) => k.startsWith(`${regionId}@`)).map(([k, f]) => this.drop(k, f)));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open].map(([k, f]) => this.drop(k, f)));
  }

  private async drop(key: string, f: RegionFile): Promise<void> {
    this.open.delete(key);
    await f.close();
  }
}
