// The desktop app's own settings (where the data folder is, which port the server uses), kept in
// Electron's profile folder rather than the data folder, because they say where the data folder is.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const DesktopSettings = z.object({
  /** null: the default data folder. */
  dataDir: z.string().min(1).nullable().default(null),
  /** null: the server's default port (8787). */
  port: z.number().int().min(0).max(65535).nullable().default(null),
});
export type DesktopSettings = z.infer<typeof DesktopSettings>;

const DEFAULTS: DesktopSettings = { dataDir: null, port: null };

/** Missing or unreadable settings fall back to the defaults rather than keeping the app from starting. */
export function readSettings(file: string): DesktopSettings {
  try {
    const parsed = DesktopSettings.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : { ...DEFAULTS };
  } catch {
    return { ...DEFAULTS };
  }
}

/** Written through a temporary file so a crash never leaves half a settings file. */
export function writeSettings(file: string, settings: DesktopSettings): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(tmp, file);
}
