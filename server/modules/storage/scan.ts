// Walking a folder without holding the event loop: fs.promises.opendir one directory at a time,
// lstat in small parallel batches (a directory of 100,000 files is never one synchronous call), and a
// setImmediate between batches so requests keep being answered during a long scan. Symbolic links
// are never followed: a link is seen as the small file it is, and a linked folder is not entered.
import { lstat, opendir } from 'node:fs/promises';
import path from 'node:path';

/** One file met by the walk. */
export interface WalkedFile {
  /** Absolute path. */
  path: string;
  bytes: number;
  mtimeMs: number;
  /** False for a symbolic link (counted, never followed, never a clean-up target). */
  regular: boolean;
}

const BATCH = 256;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Calls `onFile` for every file under `dir` (depth first); a missing or unreadable folder is skipped. */
export async function walkFiles(dir: string, onFile: (f: WalkedFile) => void): Promise<void> {
  const pending = [dir];
  while (pending.length > 0) {
    const at = pending.pop()!;
    let names: Array<{ name: string; dirLike: boolean }>;
    try {
      names = [];
      for await (const d of await opendir(at, { bufferSize: 256 })) names.push({ name: d.name, dirLike: d.isDirectory() });
    } catch {
      continue; // gone meanwhile, or not readable: nothing to count
    }
    for (let i = 0; i < names.length; i += BATCH) {
      const batch = names.slice(i, i + BATCH);
      const seen = await Promise.all(batch.map(async (n) => {
        const full = path.join(at, n.name);
        if (n.dirLike) return { full, dir: true as const };
        try {
          return { full, dir: false as const, s: await lstat(full) };
        } catch {
          return null;
        }
      }));
      for (const e of seen) {
        if (!e) continue;
        if (e.dir) pending.push(e.full);
        else onFile({ path: e.full, bytes: e.s.size, mtimeMs: e.s.mtimeMs, regular: e.s.isFile() });
      }
      await yieldToLoop();
    }
  }
}

/** Bytes and files under a folder, or of one file. */
export async function sizeOf(target: string): Promise<{ bytes: number; files: number }> {
  let s;
  try {
    s = await lstat(target);
  } catch {
    return { bytes: 0, files: 0 };
  }
  if (!s.isDirectory()) return { bytes: s.size, files: 1 };
  const total = { bytes: 0, files: 0 };
  await walkFiles(target, (f) => {
    total.bytes += f.bytes;
    total.files += 1;
  });
  return total;
}
