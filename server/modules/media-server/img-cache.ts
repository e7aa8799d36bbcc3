// The image proxy's disk cache: resized library pictures under DATA_DIR, one file per picture and
// size and format, bounded in bytes, the least recently used dropped first. What was used when is
// kept in memory (a Map in use order) and on disk as each file's modification time, so a restart
// starts from the order the files were last used in. Every file name goes through the path guard.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';

const NAME = /^[0-9a-f]{64}\.(webp|jpg)$/;

export class ImageDiskCache {
  /** name -> bytes, oldest use first. */
  private readonly entries = new Map<string, number>();
  private total = 0;
  private loaded: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
    private readonly logger?: Logger,
  ) {}

  /** The file name of one picture at one size and format. */
  static nameOf(parts: { path: string; w: number; h: number; format: 'webp' | 'jpeg' }): string {
    const hash = createHash('sha256').update(`${parts.path}\n${parts.w}x${parts.h}\n${parts.format}`).digest('hex');
    return `${hash}.${parts.format === 'webp' ? 'webp' : 'jpg'}`;
  }

  /** Bytes and files held now. */
  usage(): { bytes: number; files: number } {
    return { bytes: this.total, files: this.entries.size };
  }

  private fileOf(name: string): string | null {
    return NAME.test(name) ? resolveInside(this.dir, name) : null;
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      const found: Array<{ name: string; size: number; at: number }> = [];
      for (const name of await readdir(this.dir)) {
        const file = this.fileOf(name);
        if (!file) continue;
        try {
          const s = await stat(file);
          if (s.isFile()) found.push({ name, size: s.size, at: s.mtimeMs });
        } catch {
          // gone meanwhile
        }
      }
      found.sort((a, b) => a.at - b.at);
      for (const f of found) {
        this.entries.set(f.name, f.size);
        this.total += f.size;
      }
      await this.evict();
    })();
    return this.loaded;
  }

  async get(name: string): Promise<Buffer | null> {
    await this.load();
    const size = this.entries.get(name);
    const file = this.fileOf(name);
    if (size === undefined || !file) return null;
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      this.drop(name);
      return null;
    }
    // most recently used: to the end of the order, and on disk for the next start
    this.entries.delete(name);
    this.entries.set(name, size);
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    return bytes;
  }

  async put(name: string, bytes: Buffer): Promise<void> {
    await this.load();
    const file = this.fileOf(name);
    if (!file || bytes.length > this.maxBytes) return;
    const tmp = resolveInside(this.dir, `.${randomBytes(6).toString('hex')}.tmp`);
    if (!tmp) return;
    try {
      await writeFile(tmp, bytes);
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      this.logger?.warn({ err }, 'Could not keep a media picture in the cache');
      return;
    }
    this.drop(name);
    this.entries.set(name, bytes.length);
    this.total += bytes.length;
    await this.evict();
  }

  private drop(name: string): void {
    const size = this.entries.get(name);
    if (size === undefined) return;
    this.entries.delete(name);
    this.total -= size;
  }

  private async evict(): Promise<void> {
    while (this.total > this.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
      const file = this.fileOf(oldest);
      if (file) await rm(file, { force: true }).catch(() => undefined);
    }
  }
}
