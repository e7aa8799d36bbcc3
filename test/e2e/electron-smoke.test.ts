// The desktop app end to end, where an Electron binary exists: launch with a temporary data
// folder and profile, the window shows the web app from the server it started, the tray exists,
// the preload bridge answers, and quitting stops the server. Machines installed with
// ELECTRON_SKIP_BINARY_DOWNLOAD=1 have no binary, and the test skips saying so.
// Needs `npm run build` (server, web app and main). On Linux without a display, run under xvfb-run.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../harness/temp-dir.js';
import { alive } from '../harness/processes.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILT = ['dist/main/index.js', 'dist/main/preload.cjs', 'dist/server/entry.js', 'dist/web/index.html'];

/** The path require('electron') gives, if the binary behind it was downloaded. */
function electronBinary(): string | null {
  try {
    const bin = createRequire(import.meta.url)('electron') as unknown;
    return typeof bin === 'string' && existsSync(bin) ? bin : null;
  } catch {
    return null; // the electron package throws when its binary was never installed
  }
}

const binary = electronBinary();

interface DesktopState {
  tray: boolean;
  server: { state: string; port: number | null; pid: number | null };
  dataDir: string;
}


describe('Electron desktop app', () => {
  if (!binary) {
    it('skipped: no Electron binary (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1)', (ctx) => ctx.skip('no Electron binary'));
    return;
  }

  const tmp = makeTempDir('hearth-electron-');
  let app: ElectronApplication | null = null;
  afterAll(async () => {
    await app?.close().catch(() => {});
    tmp.remove();
  });

  it('opens the web app from its own server, has a tray, and stops the server on quit', async () => {
    const missing = BUILT.filter((f) => !existsSync(path.join(ROOT, f)));
    expect(missing, 'run `npm run build` first').toEqual([]);

    app = await _electron.launch({
      executablePath: binary,
      args: [ROOT, `--data-dir=${path.join(tmp.dir, 'data')}`, `--user-data-dir=${path.join(tmp.dir, 'profile')}`, '--port=0', ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
      // the server keeps to loopback in tests; it reads HOST from its environment
      env: { ...(process.env as Record<string, string>), HOST: '127.0.0.1', LOG_LEVEL: 'warn', OFFLINE_MODE: '1' },
      timeout: 60_000,
    });
    const win = await app.firstWindow();
    await win.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\//, { timeout: 60_000 });
    await win.waitForSelector('#root > *', { timeout: 30_000 });

    const state = (await app.evaluate(() => (globalThis as unknown as { hearthDesktopState(): unknown }).hearthDesktopState())) as DesktopState;
    expect(state.tray).toBe(true);
    expect(state.server.state).toBe('running');
    expect(state.dataDir).toBe(path.join(tmp.dir, 'data'));
    const { port, pid } = state.server as { port: number; pid: number };
    expect(new URL(win.url()).port).toBe(String(port));

    const info = (await win.evaluate(() => (window as unknown as { hearthDesktop: { info(): Promise<unknown> } }).hearthDesktop.info())) as { lanUrls: string[] };
    expect(info.lanUrls).toEqual([`http://127.0.0.1:${port}`]);
    // the window is locked down: no Node in the page
    expect(await win.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');

    const res = await fetch(`http://127.0.0.1:${port}/api/setup/ollama-status`);
    expect(res.status).toBe(200);

    await app.close();
    app = null;
    await expect(fetch(`http://127.0.0.1:${port}/api/setup/ollama-status`)).rejects.toThrow();
    expect(alive(pid)).toBe(false);
  });
});
