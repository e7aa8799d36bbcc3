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

/** Folders of the operating system itself: nothing of the household's is written into them. */
const SYSTEM_FOLDERS_POSIX = ['/etc', '/bin', '/sbin', '/usr', '/lib', '/lib32', '/lib64', '/libx32', '/var', '/proc', '/sys', '/dev', '/boot', '/root', '/run', '/System', '/Library', '/Applications', '/private/etc', '/private/var', '/cores'];
const SYSTEM_FOLDERS_WINDOWS = ['Windows', 'Program Files', 'Program Files (x86)', 'ProgramData', '$Recycle.Bin', 'System Volume Information'];

/** The real path of a folder that may not exist yet: its nearest existing ancestor's real path, plus the rest. */
function realPathOfNearest(p: string, pathApi: path.PlatformPath): string {
  let at = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return pathApi.join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = pathApi.dirname(at);
      if (parent === at) return p;
      rest.push(pathApi.basename(at));
      at = parent;
    }
  }
}

export interface SensitiveFolder {
  kind: 'data' | 'system';
  /** The protected folder it is (or lies in). */
  folder: string;
}

/**
 * Whether an absolute folder is, or resolves (`..`, symlinks, on its real path) into, Hearth's own
 * data folder or a folder of the operating system (/etc, /usr, C:\Windows …). Null when it is
 * neither. Storage locations and any other folder an admin names go through it before anything is
 * made or written there.
 */
export function sensitiveFolderOf(folder: string, opts: { dataDir: string; platform?: NodeJS.Platform }): SensitiveFolder | null {
  const platform = opts.platform ?? process.platform;
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  // macOS and Windows disks ignore case by default: /system is /System there
  const fold = platform === 'win32' || platform === 'darwin' ? (s: string) => s.toLowerCase() : (s: string) => s;
  const within = (p: string, root: string) => {
    const a = fold(p);
    const b = fold(root).replace(/[\\/]+$/, '');
    return a === b || a.startsWith(b + pathApi.sep);
  };
  const lexical = pathApi.resolve(folder);
  const candidates = platform === process.platform ? [lexical, realPathOfNearest(lexical, pathApi)] : [lexical];
  const dataRoots = platform === process.platform ? [pathApi.resolve(opts.dataDir), realPathOfNearest(pathApi.resolve(opts.dataDir), pathApi)] : [pathApi.resolve(opts.dataDir)];
  for (const c of candidates) {
    const data = dataRoots.find((d) => within(c, d));
    if (data) return { kind: 'data', folder: dataRoots[0]! };
    if (platform === 'win32') {
      const drive = pathApi.parse(c).root;
      const sys = SYSTEM_FOLDERS_WINDOWS.map((f) => pathApi.join(drive, f)).find((f) => within(c, f));
      if (sys) return { kind: 'system', folder: sys };
    } else {
      const sys = SYSTEM_FOLDERS_POSIX.find((f) => within(c, f));
      if (sys) return { kind: 'system', folder: sys.replace(/^\/private(?=\/)/, '') };
    }
  }
  return null;
}
