// A small PMTiles v3 writer for tests and the fixture script (the Go `pmtiles` tool is in neither
// Debian 12 nor npm; tilemaker 2.2 writes only MBTiles). One gzip root directory, no leaves: enough
// for the few-tile regions tests use. Layout per the spec (protomaps/PMTiles spec/v3): a 127-byte
// header, the root directory, the JSON metadata, then the tile data, tiles sorted by tile id,
// identical blobs stored once and consecutive ids with the same blob run-length encoded.
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

export interface WriterTile {
  z: number;
  x: number;
  /** XYZ row (top = 0), not the MBTiles TMS row. */
  y: number;
  /** The tile as it is stored (already gzip-compressed when `tileCompression` is gzip). */
  data: Buffer;
}

export interface WriterOptions {
  tiles: WriterTile[];
  metadata: object;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  center?: [number, number, number];
  /** 1 none, 2 gzip (default). */
  tileCompression?: 1 | 2;
  /** 1 MVT (default), 2 PNG. */
  tileType?: 1 | 2;
}

function varint(out: number[], n: number): void {
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

function directory(entries: Entry[]): Buffer {
  const out: number[] = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) varint(out, e.runLength);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    varint(out, i > 0 && prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return gzipSync(Buffer.from(out));
}

/** The whole .pmtiles file for `opts`. */
export function writePmtiles(opts: WriterOptions): Buffer {
  const sorted = opts.tiles.map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), ...t })).sort((a, b) => a.id - b.id);
  const blobs = new Map<string, { offset: number; length: number }>();
  const chunks: Buffer[] = [];
  let dataLength = 0;
  const entries: Entry[] = [];
  for (const t of sorted) {
    const key = t.data.toString('base64');
    let blob = blobs.get(key);
    if (!blob) {
      blob = { offset: dataLength, length: t.data.length };
      blobs.set(key, blob);
      chunks.push(t.data);
      dataLength += t.data.length;
    }
    const prev = entries.at(-1);
    if (prev && prev.offset === blob.offset && prev.tileId + prev.runLength === t.id) prev.runLength++;
    else entries.push({ tileId: t.id, offset: blob.offset, length: blob.length, runLength: 1 });
  }
  const root = directory(entries);
  const metadata = gzipSync(Buffer.from(JSON.stringify(opts.metadata)));
  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const rootOffset = 127;
  const metaOffset = rootOffset + root.length;
  const dataOffset = metaOffset + metadata.length;
  const u64 = (at: number, v: number) => header.writeBigUInt64LE(BigInt(v), at);
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, metaOffset);
  u64(32, metadata.length);
  u64(40, dataOffset);
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, dataLength);
  u64(72, sorted.length);
  u64(80, entries.length);
  u64(88, chunks.length);
  header.writeUInt8(1, 96);
  header.writeUInt8(2, 97);
  header.writeUInt8(opts.tileCompression ?? 2, 98);
  header.writeUInt8(opts.tileType ?? 1, 99);
  const zooms = sorted.map((t) => t.z);
  header.writeUInt8(Math.min(...zooms), 100);
  header.writeUInt8(Math.max(...zooms), 101);
  const [w, s, e, n] = opts.bounds;
  const e7 = (v: number) => Math.round(v * 1e7);
  header.writeInt32LE(e7(w), 102);
  header.writeInt32LE(e7(s), 106);
  header.writeInt32LE(e7(e), 110);
  header.writeInt32LE(e7(n), 114);
  const [clon, clat, cz] = opts.center ?? [(w + e) / 2, (s + n) / 2, Math.max(...zooms)];
  header.writeUInt8(cz, 118);
  header.writeInt32LE(e7(clon), 119);
  header.writeInt32LE(e7(clat), 123);
  return Buffer.concat([header, root, metadata, ...chunks]);
}
