// Where the desktop app finds the server, preload, resources and data, in development and packaged.
import { describe, expect, it } from 'vitest';
import { resolvePaths, trayIconFile } from '../../main/paths.js';

describe('desktop paths', () => {
  it('uses the repository in development', () => {
    const p = resolvePaths({ isPackaged: false, appPath: '/home/ana/hearth', resourcesPath: '/home/ana/hearth/node_modules/electron/dist/resources', appDataDir: '/home/ana/.config', platform: 'linux', arch: 'x64' });
    expect(p).toEqual({
      serverEntry: '/home/ana/hearth/dist/server/entry.js',
      preload: '/home/ana/hearth/dist/main/preload.cjs',
      resourcesDir: '/home/ana/hearth/resources',
      binDir: '/home/ana/hearth/resources/bin/linux-x64',
      iconsDir: '/home/ana/hearth/resources/icons',
      defaultDataDir: '/home/ana/.config/Hearth',
      desktopDir: '/home/ana/.config/Hearth Desktop',
      settingsFile: '/home/ana/.config/Hearth Desktop/settings.json',
    });
  });

  it('reads code from app.asar and resources from beside it on a packaged Mac', () => {
    const res = '/Applications/Hearth.app/Contents/Resources';
    const p = resolvePaths({ isPackaged: true, appPath: `${res}/app.asar`, resourcesPath: res, appDataDir: '/Users/ana/Library/Application Support', platform: 'darwin', arch: 'arm64' });
    expect(p.serverEntry).toBe(`${res}/app.asar/dist/server/entry.js`);
    expect(p.preload).toBe(`${res}/app.asar/dist/main/preload.cjs`);
    expect(p.resourcesDir).toBe(`${res}/resources`);
    expect(p.binDir).toBe(`${res}/resources/bin/darwin-arm64`);
    expect(p.defaultDataDir).toBe('/Users/ana/Library/Application Support/Hearth');
    expect(trayIconFile(p.iconsDir, 'darwin')).toBe(`${res}/resources/icons/trayTemplate.png`);
  });

  it('uses Windows paths on Windows', () => {
    const res = 'C:\\Program Files\\Hearth\\resources';
    const p = resolvePaths({ isPackaged: true, appPath: `${res}\\app.asar`, resourcesPath: res, appDataDir: 'C:\\Users\\Ana\\AppData\\Roaming', platform: 'win32', arch: 'x64' });
    expect(p.serverEntry).toBe(`${res}\\app.asar\\dist\\server\\entry.js`);
    expect(p.binDir).toBe(`${res}\\resources\\bin\\win32-x64`);
    expect(p.defaultDataDir).toBe('C:\\Users\\Ana\\AppData\\Roaming\\Hearth');
    expect(p.settingsFile).toBe('C:\\Users\\Ana\\AppData\\Roaming\\Hearth Desktop\\settings.json');
    expect(trayIconFile(p.iconsDir, 'win32')).toBe(`${res}\\resources\\icons\\tray.png`);
  });

  it('keeps the default data folder where the headless server puts it, and Electron\'s profile outside it', () => {
    const p = resolvePaths({ isPackaged: true, appPath: '/opt/Hearth/resources/app.asar', resourcesPath: '/opt/Hearth/resources', appDataDir: '/home/ana/.config', platform: 'linux', arch: 'arm64' });
    expect(p.defaultDataDir).toBe('/home/ana/.config/Hearth');
    expect(p.desktopDir.startsWith(`${p.defaultDataDir}/`)).toBe(false);
    expect(p.binDir).toBe('/opt/Hearth/resources/resources/bin/linux-arm64');
  });
});
