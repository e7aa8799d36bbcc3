// The desktop's small file-backed pieces: settings, the rotating log and the Linux autostart entry.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RotatingLog } from '../../main/log-file.js';
import { createLoginItem, linuxAutostartEntry } from '../../main/login-item.js';
import { readSettings, writeSettings } from '../../main/settings.js';
import { makeTempDir } from '../harness/temp-dir.js';

const temps: Array<{ remove(): void }> = [];
const temp = () => {
  const t = makeTempDir('hearth-desktop-');
  temps.push(t);
  return t.dir;
};
afterEach(() => {
  for (const t of temps.splice(0)) t.remove();
});

describe('desktop settings', () => {
  it('round-trips and falls back to defaults when missing or corrupt', () => {
    const file = path.join(temp(), 'nested', 'settings.json');
    expect(readSettings(file)).toEqual({ dataDir: null, port: null });
    writeSettings(file, { dataDir: '/mnt/big/Hearth', port: 9000 });
    expect(readSettings(file)).toEqual({ dataDir: '/mnt/big/Hearth', port: 9000 });
    writeFileSync(file, '{"dataDir": 12');
    expect(readSettings(file)).toEqual({ dataDir: null, port: null });
    writeFileSync(file, '{"port": 70000}');
    expect(readSettings(file)).toEqual({ dataDir: null, port: null });
  });
});

describe('rotating log', () => {
  it('rotates by size and keeps the configured number of old files', () => {
    const file = path.join(temp(), 'logs', 'server.log');
    const log = new RotatingLog(file, { maxBytes: 100, keep: 2 });
    for (let i = 0; i < 7; i++) log.write(`${String(i).repeat(59)}\n`); // 60 bytes each: one line per file
    log.close();
    expect(readFileSync(file, 'utf8')).toBe(`${'6'.repeat(59)}\n`);
    expect(readFileSync(`${file}.1`, 'utf8')).toBe(`${'5'.repeat(59)}\n`);
    expect(readFileSync(`${file}.2`, 'utf8')).toBe(`${'4'.repeat(59)}\n`);
    expect(existsSync(`${file}.3`)).toBe(false);
  });

  it('appends to an existing log across restarts and never throws', () => {
    const dir = temp();
    const file = path.join(dir, 'server.log');
    new RotatingLog(file).write('one\n');
    const log = new RotatingLog(file);
    log.write('two\n');
    log.close();
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    writeFileSync(path.join(dir, 'blocker'), '');
    expect(() => new RotatingLog(path.join(dir, 'blocker', 'server.log')).write('x')).not.toThrow();
  });
});

describe('start at login', () => {
  it('writes and removes an XDG autostart entry on Linux, quoting the AppImage path', () => {
    const dir = path.join(temp(), 'autostart');
    const item = createLoginItem({ api: { getLoginItemSettings: () => ({ openAtLogin: false }), setLoginItemSettings: () => {} }, platform: 'linux', isPackaged: true, autostartDir: dir, executable: '/home/ana/Apps/Hearth "new".AppImage' });
    expect(item.supported).toBe(true);
    expect(item.isEnabled()).toBe(false);
    item.setEnabled(true);
    expect(item.isEnabled()).toBe(true);
    expect(readFileSync(path.join(dir, 'hearth.desktop'), 'utf8')).toBe(linuxAutostartEntry('/home/ana/Apps/Hearth "new".AppImage'));
    expect(linuxAutostartEntry('/home/ana/Apps/Hearth "new".AppImage')).toContain('Exec="/home/ana/Apps/Hearth \\"new\\".AppImage" --hidden');
    item.setEnabled(false);
    expect(item.isEnabled()).toBe(false);
  });

  it('uses Electron login items on macOS and Windows, starting hidden', () => {
    const calls: unknown[] = [];
    let on = false;
    const api = { getLoginItemSettings: () => ({ openAtLogin: on }), setLoginItemSettings: (s: { openAtLogin: boolean }) => void (calls.push(s), (on = s.openAtLogin)) };
    const item = createLoginItem({ api, platform: 'win32', isPackaged: true, autostartDir: '', executable: '' });
    item.setEnabled(true);
    expect(item.isEnabled()).toBe(true);
    expect(calls).toEqual([{ openAtLogin: true, args: ['--hidden'] }]);
  });

  it('is not offered in development, where the executable is a bare Electron', () => {
    const item = createLoginItem({ api: { getLoginItemSettings: () => ({ openAtLogin: true }), setLoginItemSettings: () => {} }, platform: 'darwin', isPackaged: false, autostartDir: '', executable: '' });
    expect(item.supported).toBe(false);
    expect(item.isEnabled()).toBe(false);
  });
});
