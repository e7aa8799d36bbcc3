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
