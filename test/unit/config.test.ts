import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, findRootDir, loadConfig } from '../../server/config.js';

describe('loadConfig', () => {
  const home = os.homedir();

  it('uses the defaults of DESIGN.md §2 with an empty environment', () => {
    const c = loadConfig({}, []);
    expect(c.port).toBe(8787);
    expect(c.host).toBe('0.0.0.0');
    expect(c.modelRuntimeUrl).toBe('http://127.0.0.1:11434');
    expect(c.archiveServerPort).toBe(8090);
    expect(c.mediaAccountUrl).toBe('https://plex.tv');
    expect(c.mediaDiscoverUrl).toBe('https://discover.provider.plex.tv');
    expect(c.mediaCodePageUrl).toBe('https://plex.tv/link');
    expect(c.offline).toBe(false);
    expect(c.fetchAllowOrigins).toEqual([]);
    expect(c.logLevel).toBe('info');
    expect(c.pinHashCost).toBe('standard');
    expect(c.imageEngineUrl).toBeUndefined();
    expect(c.webSearchUrl).toBeUndefined();
    expect(c.dataDir).toBe(defaultDataDir({}, process.platform, home));
    const root = findRootDir();
    expect(c.archiveCatalogPath).toBe(path.join(root, 'resources', 'catalog', 'archives.json'));
    expect(c.featureCatalogPath).toBe(path.join(root, 'resources', 'catalog', 'features.json'));
  });

  it('takes the low PIN hash cost only in a test (HEARTH_TEST=1), and says why otherwise', () => {
    expect(() => loadConfig({ PIN_HASH_COST: 'low' }, [])).toThrowError(/pinHashCost: PIN_HASH_COST=low is only for the test suite/);
    expect(() => loadConfig({ PIN_HASH_COST: 'low', HEARTH_TEST: '0' }, [])).toThrowError(/HEARTH_TEST=1/);
    expect(() => loadConfig({ PIN_HASH_COST: 'cheap', HEARTH_TEST: '1' }, [])).toThrowError(/configuration is not valid[\s\S]*pinHashCost/);
    expect(loadConfig({ PIN_HASH_COST: 'low', HEARTH_TEST: '1' }, []).pinHashCost).toBe('low');
    expect(loadConfig({ PIN_HASH_COST: 'standard' }, []).pinHashCost).toBe('standard');
  });

  it('reads the environment', () => {
    const c = loadConfig(
      {
        PORT: '9000',
        HOST: '127.0.0.1',
        DATA_DIR: '/tmp/hearth-data',
        MODEL_RUNTIME_URL: 'http://10.0.0.5:11434',
        IMAGE_ENGINE_URL: 'http://127.0.0.1:8188',
        ARCHIVE_SERVER_PORT: '9090',
        LOG_LEVEL: 'warn',
        ARCHIVE_CATALOG_PATH: '/tmp/catalog.json',
        MEDIA_CODE_PAGE_URL: 'https://plex.example/link',
      },
      [],
    );
    expect(c).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/tmp/hearth-data',
      modelRuntimeUrl: 'http://10.0.0.5:11434',
      imageEngineUrl: 'http://127.0.0.1:8188',
      archiveServerPort: 9090,
      logLevel: 'warn',
      archiveCatalogPath: '/tmp/catalog.json',
      mediaCodePageUrl: 'https://plex.example/link',
    });
  });

  it.each([
    ['1', true],
    ['true', true],
    ['TRUE', true],
    ['yes', true],
    ['on', true],
    ['0', false],
    ['false', false],
    ['no', false],
    ['', false],
    ['  ', false],
  ])('parses OFFLINE_MODE=%j as %s', (value, expected) => {
    expect(loadConfig({ OFFLINE_MODE: value }, []).offline).toBe(expected);
  });

  it('splits FETCH_ALLOW_ORIGINS on commas, trimming and dropping empties', () => {
    const c = loadConfig({ FETCH_ALLOW_ORIGINS: ' http://127.0.0.1:4001, http://127.0.0.1:4002 ,,' }, []);
    expect(c.fetchAllowOrigins).toEqual(['http://127.0.0.1:4001', 'http://127.0.0.1:4002']);
  });

  it('treats empty variables as unset', () => {
    const c = loadConfig({ PORT: '', HOST: ' ', MODEL_RUNTIME_URL: '' }, []);
    expect(c.port).toBe(8787);
    expect(c.host).toBe('0.0.0.0');
    expect(c.modelRuntimeUrl).toBe('http://127.0.0.1:11434');
  });

  it.each(['abc', '70000', '-1', '80.5'])('refuses PORT=%j with a readable error naming the variable', (port) => {
    expect(() => loadConfig({ PORT: port }, [])).toThrowError(/configuration is not valid[\s\S]*port/);
  });

  it('lists every bad setting in one error', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'x', MODEL_RUNTIME_URL: 'ftp://example', LOG_LEVEL: 'loud' }, []);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/port/);
    expect(message).toMatch(/modelRuntimeUrl/);
    expect(message).toMatch(/logLevel/);
    expect(message.split('\n').length).toBeGreaterThanOrEqual(4);
  });

  it('lets flags override the environment', () => {
    const c = loadConfig({ PORT: '9000', HOST: '127.0.0.1', DATA_DIR: '/tmp/env-dir' }, ['--port', '9100', '--host=::1', '--data-dir', '/tmp/flag-dir']);
    expect(c.port).toBe(9100);
    expect(c.host).toBe('::1');
    expect(c.dataDir).toBe('/tmp/flag-dir');
  });

  it('resolves a relative data dir to an absolute path', () => {
    expect(loadConfig({ DATA_DIR: 'rel/data' }, []).dataDir).toBe(path.resolve('rel/data'));
  });

  it('ignores flags it does not know', () => {
    expect(() => loadConfig({}, ['--inspect', '--something=else'])).not.toThrow();
  });
});

describe('defaultDataDir', () => {
  it('uses %APPDATA%\\Hearth on Windows', () => {
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\pat\\AppData\\Roaming' }, 'win32', 'C:\\Users\\pat')).toBe(path.join('C:\\Users\\pat\\AppData\\Roaming', 'Hearth'));
    expect(defaultDataDir({}, 'win32', '/home/pat')).toBe(path.join('/home/pat', 'AppData', 'Roaming', 'Hearth'));
  });

  it('uses ~/Library/Application Support/Hearth on macOS', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/ignored' }, 'darwin', '/Users/pat')).toBe('/Users/pat/Library/Application Support/Hearth');
  });

  it('uses $XDG_CONFIG_HOME/Hearth, else ~/.config/Hearth, on Linux', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/pat')).toBe('/xdg/Hearth');
    expect(defaultDataDir({}, 'linux', '/home/pat')).toBe('/home/pat/.config/Hearth');
  });
});
