// Finds an executable by name in the given folders (the PATH from config, bundled bin folders).
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export function findProgram(names: string[], dirs: string[], platform: NodeJS.Platform = process.platform): string | null {
  const exts = platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of dirs) {
    for (const name of names) {
      for (const ext of exts) {
        const candidate = path.join(dir, name + ext);
        try {
          if (!statSync(candidate).isFile()) continue;
          accessSync(candidate, constants.X_OK);
          return candidate;
        } catch {
          // not here
        }
      }
    }
  }
  return null;
}
