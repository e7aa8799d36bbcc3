// The inventory's files on disk: DATA_DIR/home-inventory/<deviceId>/<fileId>.<ext> (photos with a
// .thumb.webp beside them, manuals, receipts), always reached through the one path guard. Images are
// checked by their first bytes and read by sharp: EXIF orientation is applied to the stored copy
// and a thumbnail is made. A format sharp cannot read (HEIC on this build, a broken file) is 415.
// sharp is loaded on the first image, not at start (test/unit/startup-imports.test.ts).
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Metadata, default as Sharp } from 'sharp';
import { AppError, BadRequestError, UnsupportedMediaError } from '../../errors.js';
import { resolveInside } from '../../platform/path-guard.js';
import { THUMB_PX } from './schema.js';

export { UnsupportedMediaError };

export type SniffedType = { contentType: string; ext: string; kind: 'image' | 'pdf' | 'heic' | 'other' };

/** What the first bytes say a file is (never the name or the client's Content-Type). */
export function sniff(head: Buffer): SniffedType {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { contentType: 'image/png', ext: 'png', kind: 'image' };
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { contentType: 'image/jpeg', ext: 'jpg', kind: 'image' };
  const latin = head.subarray(0, 16).toString('latin1');
  if (latin.startsWith('GIF87a') || latin.startsWith('GIF89a')) return { contentType: 'image/gif', ext: 'gif', kind: 'image' };
  if (latin.startsWith('RIFF') && latin.slice(8, 12) === 'WEBP') return { contentType: 'image/webp', ext: 'webp', kind: 'image' };
  if (latin.slice(4, 8) === 'ftyp' && /^(heic|heix|hevc|heim|heis|mif1|msf1|avif)/.test(latin.slice(8, 12))) return { contentType: 'image/heic', ext: 'heic', kind: 'heic' };
  if (latin.startsWith('%PDF-')) return { contentType: 'application/pdf', ext: 'pdf', kind: 'pdf' };
  return { contentType: 'application/octet-stream', ext: 'bin', kind: 'other' };
}

/** sharp, loaded once on first use (every inventory part that reads pictures takes it from here). */
let sharpModule: Promise<typeof Sharp> | null = null;
export const loadSharp = (): Promise<typeof Sharp> => (sharpModule ??= import('sharp').then((m) => m.default));

export interface StoredImage {
  /** Relative to the inventory root. */
  filePath: string;
  thumbPath: string;
  contentType: string;
  bytes: number;
}

export class InventoryFiles {
  constructor(private readonly dataDir: string) {}

  get root(): string {
    return path.join(this.dataDir, 'home-inventory');
  }

  /** The absolute path of a stored relative path, or null when it leads outside the root. */
  resolve(relative: string): string | null {
    return resolveInside(this.root, relative);
  }

  /** Relative path of a new file of the device. */
  relativeFor(deviceId: string, name: string): string {
    return path.posix.join(deviceId, name);
  }

  async ensureDeviceDir(deviceId: string): Promise<string> {
    const dir = this.resolve(deviceId);
    if (!dir || dir === this.root) throw new BadRequestError('That device cannot keep files.');
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /**
   * Stores an image (bytes already in memory, or a file already on disk): EXIF orientation applied,
   * re-encoded in its own format, plus a THUMB_PX webp thumbnail. 415 when sharp cannot read it.
   */
  async storeImage(deviceId: string, fileId: string, input: Buffer | { path: string }): Promise<StoredImage> {
    await this.ensureDeviceDir(deviceId);
    const source = Buffer.isBuffer(input) ? input : input.path;
    const sharp = await loadSharp();
    let meta: Metadata;
    try {
      meta = await sharp(source).metadata();
    } catch {
      throw new UnsupportedMediaError('Hearth cannot read that picture. Send a JPEG, PNG or WebP photo (on an iPhone, set Camera › Formats to Most Compatible).');
    }
    const format = meta.format === 'png' ? 'png' : meta.format === 'webp' ? 'webp' : 'jpeg';
    const ext = format === 'jpeg' ? 'jpg' : format;
    const filePath = this.relativeFor(deviceId, `${fileId}.${ext}`);
    const thumbPath = this.relativeFor(deviceId, `${fileId}.thumb.webp`);
    const target = this.resolve(filePath);
    const thumb = this.resolve(thumbPath);
    if (!target || !thumb) throw new BadRequestError('That picture cannot be stored.');
    try {
      // .rotate() with no angle applies the EXIF orientation; the stored copy has none left
      const upright = sharp(source, { failOn: 'error' }).rotate();
      const bytes = await (format === 'png' ? upright.png() : format === 'webp' ? upright.webp({ quality: 90 }) : upright.jpeg({ quality: 90 })).toBuffer();
      await writeFile(target, bytes);
      await sharp(bytes).resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 75 }).toFile(thumb);
      return { filePath, thumbPath, contentType: `image/${format}`, bytes: bytes.length };
    } catch (err) {
      await rm(target, { force: true });
      await rm(thumb, { force: true });
      if (err instanceof AppError) throw err;
      throw new UnsupportedMediaError('Hearth cannot read that picture: the file may be damaged. Try taking the photo again.');
    }
  }

  async size(relative: string): Promise<number | null> {
    const p = this.resolve(relative);
    if (!p) return null;
    try {
      return (await stat(p)).size;
    } catch {
      return null;
    }
  }

  /** A read stream for a stored file, or null when it is gone or its path leads outside. */
  async open(relative: string): Promise<{ stream: NodeJS.ReadableStream & { destroy(): void }; size: number } | null> {
    const p = this.resolve(relative);
    if (!p) return null;
    const size = await this.size(relative);
    if (size === null) return null;
    return { stream: createReadStream(p), size };
  }

  async remove(relative: string | null): Promise<void> {
    if (!relative) return;
    const p = this.resolve(relative);
    if (p && p !== this.root) await rm(p, { force: true });
  }

  async removeDevice(deviceId: string): Promise<void> {
    const dir = this.resolve(deviceId);
    if (dir && dir !== this.root) await rm(dir, { recursive: true, force: true });
  }

  /** Moves a stored file to another relative path (an upload's temp file to its final name). */
  async move(fromRelative: string, toRelative: string): Promise<void> {
    const from = this.resolve(fromRelative);
    const to = this.resolve(toRelative);
    if (!from || !to || from === this.root || to === this.root) throw new BadRequestError('That file cannot be stored.');
    await rename(from, to);
  }

  /** Removes a device's folder when nothing is in it (after a failed first upload). */
  async removeDeviceDirIfEmpty(deviceId: string): Promise<void> {
    const dir = this.resolve(deviceId);
    if (!dir || dir === this.root) return;
    await rmdir(dir).catch(() => undefined);
  }
}
