// The one path guard: every route that maps a request onto the file system goes through
// resolveInside(). It refuses NUL bytes, absolute paths, backslash tricks, anything that resolves
// outside the root and symlinks that lead out of it. Callers answer 404 on null.
import { realpathSync } from 'node:fs';
import path from 'node:path';

export function resolveInside(root: string, relative: string): string | null {
  if (relative.includes('\0')) return null;
  // Treat backslashes as separators everywhere so "..\\..\\x" cannot slip past on Windows.
  const cleaned = relative.replace(/\\/g, '/');
  if (path.isAbsolute(cleaned) || /^[a-zA-Z]:/.test(cleaned)) return null;
  const base = path.resolve(root);
  const target = path.resolve(base, cleaned);
  if (target !== base && !target.startsWith(base + path.sep)) return null;
  try {
    const real = realpathSync(target);
    const realBase = realpathSync(base);
    if (real !== realBase && !real.startsWith(realBase + path.sep)) return null;
  } catch {
    // does not exist (yet): the lexical check above is what we can do
  }
  return target;
}

/**
 * resolveInside for a path that must lie in one of the named folders under the root (for
 * example the download folders of DATA_DIR): its first segment names the folder, and the rest
 * must be a file inside that folder, so neither the root's own files (the database) nor a folder
 * itself is ever a target. Null when it is not.
 */
export function resolveInsideFolders(root: string, folders: readonly string[], relative: string): string | null {
  const cleaned = relative.replace(/\\/g, '/');
  const at = cleaned.indexOf('/');
  const folder = at < 0 ? '' : cleaned.slice(0, at);
  if (!folders.includes(folder)) return null;
  const folderRoot = resolveInside(root, folder);
  if (!folderRoot) return null;
  const target = resolveInside(folderRoot, cleaned.slice(at + 1));
  return target && target !== folderRoot ? target : null;
}
