// Moving the household's data folder (chosen from the tray). The server is stopped while this runs.
// On the same disk the folder is renamed; across disks it is copied with progress, checked by size,
// and only then is the old folder removed. A target without room for the copy is refused up front.
import { createReadStream, createWriteStream, type Stats } from 'node:fs';
import { mkdir, readdir, readlink, rm, rmdir, stat, lstat, rename, statfs, symlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface MovePlan {
  source: string;
  target: string;
  method: 'rename' | 'copy';
  sizeBytes: number;
}

export type MoveCheck = { ok: true; plan: MovePlan } | { ok: false; problem: string };

export interface MoveDeps {
  /** Free bytes on the disk holding `dir` (an existing folder). */
  freeBytes?: (dir: string) => Promise<number>;
  /** The device a path lives on; two paths on one device can be renamed instead of copied. */
  deviceOf?: (dir: string) => Promise<number>;
}

const GB = 1024 ** 3;
/** Headroom left on the target after the copy: the database and logs keep growing. */
export const MIN_HEADROOM_BYTES = 256 * 1024 * 1024;

export async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

async function statOrNull(p: string): Promise<Stats | null> {
  try {
    return await stat(p);
  } catch {
    return null;
  }
}

async function isEmptyDir(p: string): Promise<boolean> {
  return (await readdir(p)).length === 0;
}

/** The nearest folder at or above `p` that exists (where the target will be created). */
export async function existingAncestor(p: string): Promise<string> {
  let dir = path.resolve(p);
  for (;;) {
    if ((await statOrNull(dir))?.isDirectory()) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return dir;
    dir = parent;
  }
}

/** A picked folder that is empty (or new) is used as is; otherwise the data goes into a Hearth folder inside it. */
export async function resolveMoveTarget(picked: string): Promise<string> {
  const s = await statOrNull(picked);
  if (!s || (s.isDirectory() && (await isEmptyDir(picked)))) return path.resolve(picked);
  return path.join(path.resolve(picked), 'Hearth');
}

export async function folderSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await folderSize(p);
    else if (entry.isFile()) total += (await lstat(p)).size;
  }
  return total;
}

const isInside = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

const gb = (bytes: number) => `${(bytes / GB).toFixed(1)} GB`;

export async function planMove(sourceDir: string, targetDir: string, deps: MoveDeps = {}): Promise<MoveCheck> {
  const source = path.resolve(sourceDir);
  const target = path.resolve(targetDir);
  if (source === target) return { ok: false, problem: 'The data is already in that folder.' };
  if (isInside(target, source)) return { ok: false, problem: 'The new folder cannot be inside the current data folder.' };
  const existing = await statOrNull(target);
  if (existing && !existing.isDirectory()) return { ok: false, problem: `${target} is a file, not a folder.` };
  if (existing && !(await isEmptyDir(target))) return { ok: false, problem: `${target} is not empty. Choose an empty folder.` };

  const sizeBytes = (await statOrNull(source)) ? await folderSize(source) : 0;
  const ancestor = await existingAncestor(target);
  const deviceOf = deps.deviceOf ?? (async (dir: string) => (await stat(dir)).dev);
  if ((await statOrNull(source)) && (await deviceOf(source)) === (await deviceOf(ancestor))) {
    return { ok: true, plan: { source, target, method: 'rename', sizeBytes } };
  }
  const free = await (deps.freeBytes ?? freeBytes)(ancestor);
  const needed = sizeBytes + Math.max(MIN_HEADROOM_BYTES, Math.ceil(sizeBytes * 0.05));
  if (free < needed) {
    return { ok: false, problem: `Not enough room: the data needs ${gb(needed)} there and the disk has ${gb(free)} free.` };
  }
  return { ok: true, plan: { source, target, method: 'copy', sizeBytes } };
}

async function copyTree(from: string, to: string, onBytes: (n: number) => void): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) await copyTree(src, dst, onBytes);
    else if (entry.isSymbolicLink()) await symlink(await readlink(src), dst);
    else if (entry.isFile()) {
      // streamed so multi-gigabyte archives report progress as they go
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          onBytes(chunk.length);
          done(null, chunk);
        },
      });
      await pipeline(createReadStream(src), counter, createWriteStream(dst, { flags: 'wx' }));
    }
    // sockets and pipes (none are expected while the server is stopped) are not data
  }
}

/** Carries out a plan from planMove; `onProgress` gets 0–1. The server must be stopped. */
export async function moveDataFolder(plan: MovePlan, onProgress: (fraction: number) => void = () => {}): Promise<void> {
  await mkdir(path.dirname(plan.target), { recursive: true });
  if (!(await statOrNull(plan.source))) {
    await mkdir(plan.target, { recursive: true });
    onProgress(1);
    return;
  }
  if (plan.method === 'rename') {
    if (await statOrNull(plan.target)) await rmdir(plan.target); // empty, checked by planMove
    await rename(plan.source, plan.target);
    onProgress(1);
    return;
  }
  const createdTarget = !(await statOrNull(plan.target));
  // measured again now that the server is stopped: closing the database changes its files
  const sizeBytes = await folderSize(plan.source);
  let copied = 0;
  try {
    await copyTree(plan.source, plan.target, (n) => {
      copied += n;
      onProgress(sizeBytes ? Math.min(0.99, copied / sizeBytes) : 0.99);
    });
    const copiedSize = await folderSize(plan.target);
    if (copiedSize !== sizeBytes) throw new Error(`the copy holds ${copiedSize} bytes, the data folder ${sizeBytes}`);
  } catch (err) {
    // leave the target as it was (absent or empty); the original data is untouched
    if (createdTarget) await rm(plan.target, { recursive: true, force: true });
    else for (const e of await readdir(plan.target)) await rm(path.join(plan.target, e), { recursive: true, force: true });
    throw err;
  }
  await rm(plan.source, { recursive: true, force: true });
  onProgress(1);
}
