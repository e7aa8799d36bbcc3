// Where the desktop app finds its pieces, in development (`electron .` from the repository) and
// when packaged by electron-builder (code in app.asar, `resources/` copied beside it as
// extraResources). Pure: index.ts passes what Electron reports, tests pass both layouts.
import path from 'node:path';

export interface PathInputs {
  isPackaged: boolean;
  /** app.getAppPath(): the repository in development, …/resources/app.asar when packaged. */
  appPath: string;
  /** process.resourcesPath: the folder holding app.asar and the extraResources. */
  resourcesPath: string;
  /** app.getPath('appData'): %APPDATA%, ~/Library/Application Support, $XDG_CONFIG_HOME or ~/.config. */
  appDataDir: string;
  platform: NodeJS.Platform;
  arch: string;
}

export interface DesktopPaths {
  /** The server's process entry, forked in a utilityProcess. */
  serverEntry: string;
  /** The sandboxed preload (CommonJS: sandboxed preloads cannot be ES modules). */
  preload: string;
  /** Passed to the server as --resources-dir: catalogs, default data, icons and bundled binaries. */
  resourcesDir: string;
  /** Bundled sidecar binaries for this platform; the server looks here before the PATH. */
  binDir: string;
  iconsDir: string;
  /** The household's data folder unless the tray moved it: the same default as the headless server. */
  defaultDataDir: string;
  /** Electron's own profile (cookies, cache) and the desktop settings; never inside the data folder, which can move. */
  desktopDir: string;
  settingsFile: string;
}

export function resolvePaths(i: PathInputs): DesktopPaths {
  const p = i.platform === 'win32' ? path.win32 : path.posix;
  const resourcesDir = i.isPackaged ? p.join(i.resourcesPath, 'resources') : p.join(i.appPath, 'resources');
  const desktopDir = p.join(i.appDataDir, 'Hearth Desktop');
  return {
    serverEntry: p.join(i.appPath, 'dist', 'server', 'entry.js'),
    preload: p.join(i.appPath, 'dist', 'main', 'preload.cjs'),
    resourcesDir,
    binDir: p.join(resourcesDir, 'bin', `${i.platform}-${i.arch}`),
    iconsDir: p.join(resourcesDir, 'icons'),
    defaultDataDir: p.join(i.appDataDir, 'Hearth'),
    desktopDir,
    settingsFile: p.join(desktopDir, 'settings.json'),
  };
}

/** macOS wants a black "template" image it tints for light and dark menu bars; elsewhere the colour icon. */
export function trayIconFile(iconsDir: string, platform: NodeJS.Platform): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  return p.join(iconsDir, platform === 'darwin' ? 'trayTemplate.png' : 'tray.png');
}
