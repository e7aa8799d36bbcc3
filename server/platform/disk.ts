// Free space on the disk holding a folder, and the one check every large write makes before it
// starts (queue downloads, home-video uploads, reader captures, LoRA files, converter outputs):
// what it needs must leave DISK_RESERVE_BYTES free, so the database beside it can always grow.
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';

export type DiskFree = (dir: string) => Promise<number>;

export const diskFree: DiskFree = async (dir) => {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
};

/** Free (what an unprivileged writer may still use) and total bytes of the disk holding a folder. */
export type DiskUsage = (dir: string) => Promise<{ freeBytes: number; totalBytes: number }>;

export const diskUsage: DiskUsage = async (dir) => {
  const s = await statfs(dir);
  return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
};

/** What stays free on a disk whatever is written (the database, logs and the system need room). */
export const DISK_RESERVE_BYTES = 512 * 1024 ** 2;

const GB = 1024 ** 3;
const MB = 1024 ** 2;
/** A size as a person reads it: 8.0 GB, 600 MB, 12 KB. */
export function formatSize(n: number): string {
  if (n >= GB) return `${(n / GB).toFixed(1)} GB`;
  if (n >= 10 * MB) return `${Math.round(n / MB)} MB`;
  if (n >= MB) return `${(n / MB).toFixed(1)} MB`;
  return `${Math.max(0, Math.ceil(n / 1024))} KB`;
}

/** 507: the write would eat into the reserve. */
export class NotEnoughDiskError extends AppError {
  constructor(message: string, details: { neededBytes: number; freeBytes: number }) {
    super(507, 'not_enough_disk', message, details);
  }
}

export interface DiskSpace {
  /** Bytes that may still be written on the disk holding `dir` (free space less the reserve, at least 0); null when unknown. */
  available(dir: string): Promise<number | null>;
  /**
   * Throws NotEnoughDiskError (507, a sentence) when writing `bytes` more on the disk holding `dir`
   * would leave less than the reserve free. A disk whose free space cannot be read is not refused.
   * `what` starts the sentence ("This download needs …"); `where` names the disk.
   */
  ensureRoom(dir: string, bytes: number, opts?: { what?: string; where?: string }): Promise<void>;
}

export function createDiskSpace(free: DiskFree, reserveBytes = DISK_RESERVE_BYTES): DiskSpace {
  /** statfs of the folder, or of its nearest existing parent (a folder made by the write itself). */
  const freeOf = async (dir: string): Promise<number | null> => {
    let at = path.resolve(dir);
    for (;;) {
      try {
        return await free(at);
      } catch (err) {
        const parent = path.dirname(at);
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) return null;
        at = parent;
      }
    }
  };
  return {
    async available(dir) {
      const f = await freeOf(dir);
      return f === null ? null : Math.max(0, f - reserveBytes);
    },
    async ensureRoom(dir, bytes, opts = {}) {
      const f = await freeOf(dir);
      if (f === null || bytes + reserveBytes <= f) return;
      const what = opts.what ?? 'This';
      throw new NotEnoughDiskError(`${what} needs ${formatSize(bytes)} but only ${formatSize(Math.max(0, f - reserveBytes))} is free on ${opts.where ?? 'the data disk'}. Free some space and try again.`, {
        neededBytes: bytes,
        freeBytes: f,
      });
    },
  };
}
