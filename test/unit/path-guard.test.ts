import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveInside, resolveInsideFolders, sensitiveFolderOf } from '../../server/platform/path-guard.js';

describe('resolveInside', () => {
  let tmp: string;
  let root: string;
  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'hearth-guard-'));
    root = path.join(tmp, 'root');
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    mkdirSync(path.join(tmp, 'outside'));
    writeFileSync(path.join(root, 'sub', 'page.md'), 'inside');
    writeFileSync(path.join(tmp, 'outside', 'secret.txt'), 'secret');
    writeFileSync(path.join(tmp, 'root-sibling.txt'), 'sibling');
    symlinkSync(path.join(tmp, 'outside'), path.join(root, 'link-out'));
    symlinkSync(path.join(tmp, 'outside', 'secret.txt'), path.join(root, 'file-link-out'));
    symlinkSync(path.join(root, 'sub'), path.join(root, 'link-in'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('resolves paths inside the root', () => {
    expect(resolveInside(root, 'sub/page.md')).toBe(path.join(root, 'sub', 'page.md'));
    expect(resolveInside(root, 'sub/../sub/page.md')).toBe(path.join(root, 'sub', 'page.md'));
    expect(resolveInside(root, 'not-yet/created.txt')).toBe(path.join(root, 'not-yet', 'created.txt'));
    expect(resolveInside(root, '')).toBe(root);
    expect(resolveInside(root, 'sub\\page.md')).toBe(path.join(root, 'sub', 'page.md'));
  });

  it.each(['..', '../outside/secret.txt', 'sub/../../outside/secret.txt', '../root-sibling.txt', '../root/../outside', 'sub/../..'])('refuses %j', (p) => {
    expect(resolveInside(root, p)).toBeNull();
  });

  it('refuses a sibling folder whose name starts like the root', () => {
    mkdirSync(`${root}-evil`, { recursive: true });
    expect(resolveInside(root, '../root-evil/x')).toBeNull();
  });

  it.each(['..\\outside\\secret.txt', 'sub\\..\\..\\outside', '..\\\\..\\\\etc\\\\passwd'])('treats backslashes as separators: refuses %j', (p) => {
    expect(resolveInside(root, p)).toBeNull();
  });

  it.each(['/etc/passwd', '//server/share', 'C:\\Windows\\win.ini', 'c:/Windows', 'C:', '\\\\server\\share'])('refuses the absolute path %j', (p) => {
    expect(resolveInside(root, p)).toBeNull();
  });

  it('refuses NUL bytes', () => {
    expect(resolveInside(root, 'sub/page.md\0.png')).toBeNull();
    expect(resolveInside(root, '\0')).toBeNull();
  });

  it('takes percent-escapes literally (callers decode once, before the guard)', () => {
    // "%2e%2e%2f" is a file name here, not a parent reference
    expect(resolveInside(root, '%2e%2e%2foutside')).toBe(path.join(root, '%2e%2e%2foutside'));
    expect(resolveInside(root, decodeURIComponent('%2e%2e%2foutside'))).toBeNull();
    expect(resolveInside(root, decodeURIComponent('..%5coutside'))).toBeNull();
  });

  it('refuses symlinks that lead out of the root', () => {
    expect(resolveInside(root, 'link-out/secret.txt')).toBeNull();
    expect(resolveInside(root, 'link-out')).toBeNull();
    expect(resolveInside(root, 'file-link-out')).toBeNull();
  });

  it('allows symlinks that stay inside', () => {
    expect(resolveInside(root, 'link-in/page.md')).toBe(path.join(root, 'link-in', 'page.md'));
  });
});

describe('resolveInsideFolders', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'hearth-folders-'));
    mkdirSync(path.join(root, 'archives'));
    writeFileSync(path.join(root, 'hearth.db'), 'db');
    symlinkSync(root, path.join(root, 'archives', 'up'));
    symlinkSync(path.join(root, 'hearth.db'), path.join(root, 'archives', 'db.zim'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const FOLDERS = ['archives', 'models'];

  it('resolves a file inside one of the folders', () => {
    expect(resolveInsideFolders(root, FOLDERS, 'archives/a.zim')).toBe(path.join(root, 'archives', 'a.zim'));
    expect(resolveInsideFolders(root, FOLDERS, 'models/sub/m.bin')).toBe(path.join(root, 'models', 'sub', 'm.bin'));
    expect(resolveInsideFolders(root, FOLDERS, 'archives\\b.zim')).toBe(path.join(root, 'archives', 'b.zim'));
  });

  it('refuses the root\'s own files, other folders, the folders themselves, climbs, absolute paths and symlinks out', () => {
    for (const p of [
      'hearth.db', 'logs/x', 'maps/x.map', 'archives', 'archives/', 'archives/.', 'archives/..', 'archives/../hearth.db', 'archives/../models/x',
      '../archives/x', '/archives/x', `${root}/archives/x`, 'C:\\archives\\x', 'archives/up/hearth.db', 'archives/db.zim', 'archives/x\0',
    ]) expect(resolveInsideFolders(root, FOLDERS, p), p).toBeNull();
  });
});

describe('sensitiveFolderOf', () => {
  it('names the data folder for it and anything inside it, lexically and on Windows and macOS with any case', () => {
    const dataDir = '/srv/hearth-data';
    expect(sensitiveFolderOf('/srv/hearth-data', { dataDir, platform: 'linux' })).toEqual({ kind: 'data', folder: dataDir });
    expect(sensitiveFolderOf('/srv/hearth-data/home-inventory', { dataDir, platform: 'linux' })).toEqual({ kind: 'data', folder: dataDir });
    expect(sensitiveFolderOf('/srv/media/../hearth-data/x', { dataDir, platform: 'linux' })?.kind).toBe('data');
    // a sibling that only starts with the same letters, and a parent, are not inside it
    expect(sensitiveFolderOf('/srv/hearth-data-media', { dataDir, platform: 'linux' })).toBeNull();
    expect(sensitiveFolderOf('/srv/media', { dataDir, platform: 'linux' })).toBeNull();
    expect(sensitiveFolderOf('C:\\Users\\Sam\\AppData\\Roaming\\Hearth\\media', { dataDir: 'C:\\Users\\Sam\\AppData\\Roaming\\Hearth', platform: 'win32' })?.kind).toBe('data');
    expect(sensitiveFolderOf('c:\\users\\sam\\appdata\\roaming\\hearth', { dataDir: 'C:\\Users\\Sam\\AppData\\Roaming\\Hearth', platform: 'win32' })?.kind).toBe('data');
    expect(sensitiveFolderOf('/Users/sam/library/application support/hearth/x', { dataDir: '/Users/sam/Library/Application Support/Hearth', platform: 'darwin' })?.kind).toBe('data');
  });

  it('names system folders on each platform, and leaves data disks and home folders alone', () => {
    const dataDir = '/srv/hearth-data';
    for (const p of ['/etc', '/etc/hearth', '/usr/local/media', '/var/lib/x', '/proc/1', '/sys', '/dev/shm', '/boot', '/root/media', '/bin']) {
      expect(sensitiveFolderOf(p, { dataDir, platform: 'linux' })?.kind, p).toBe('system');
    }
    expect(sensitiveFolderOf('/etc/../etc/x', { dataDir, platform: 'linux' })).toEqual({ kind: 'system', folder: '/etc' });
    for (const p of ['/srv/media', '/home/sam/Videos', '/mnt/disk1/hearth', '/media/usb/films', '/etcetera', '/tmp/x']) {
      expect(sensitiveFolderOf(p, { dataDir, platform: 'linux' }), p).toBeNull();
    }
    expect(sensitiveFolderOf('/System/Volumes', { dataDir, platform: 'darwin' })?.kind).toBe('system');
    expect(sensitiveFolderOf('/library/media', { dataDir, platform: 'darwin' })?.kind).toBe('system');
    expect(sensitiveFolderOf('/Users/sam/Movies', { dataDir, platform: 'darwin' })).toBeNull();
    for (const p of ['C:\\Windows', 'c:\\windows\\system32', 'C:\\Program Files\\Plex', 'D:\\ProgramData\\x', 'C:/Windows/Temp']) {
      expect(sensitiveFolderOf(p, { dataDir: 'C:\\Hearth', platform: 'win32' })?.kind, p).toBe('system');
    }
    expect(sensitiveFolderOf('D:\\Media', { dataDir: 'C:\\Hearth', platform: 'win32' })).toBeNull();
  });
});
