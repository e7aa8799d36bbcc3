// One shared headless Chromium through playwright-core, launched on first use, a fresh context per
// capture, relaunched when it dies. The executable is config.chromiumPath, else the Chromium
// Playwright downloaded (if any), else the system's (Debian's /usr/bin/chromium, Chrome or Edge).
//
// Network is closed at the browser level as a second wall behind the caller's request routing:
// every connection Chromium would make itself (anything a route handler does not fulfill, DNS
// prefetch, preconnect) goes to a proxy name that cannot resolve, loopback included.
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import type { CaptureBrowserFiles } from './profiles.js';

export interface ChromiumLogger {
  info(msg: string | Record<string, unknown>, m?: string): void;
  warn(msg: string | Record<string, unknown>, m?: string): void;
}

export interface SharedChromium {
  /** A new isolated context on the shared browser (launching or relaunching it when needed). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** The executable in use (resolved lazily). */
  executablePath(): string;
  /** How many times a browser was launched. */
  launches(): number;
  close(): Promise<void>;
}

export interface SharedChromiumOptions {
  executablePath?: string;
  logger?: ChromiumLogger;
  launchTimeoutMs?: number;
  /** Extra command-line switches. */
  args?: string[];
  /** Leave the browser's own network open (only for tools that do not route requests). Default false. */
  openNetwork?: boolean;
  /** Where Playwright's files go and how a launched profile is noted, so a crash leaves nothing behind (profiles.ts). */
  files?: CaptureBrowserFiles;
}

const SYSTEM_CANDIDATES: Record<string, string[]> = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/usr/bin/microsoft-edge', '/snap/bin/chromium'],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
    'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe',
  ],
};

/** config.chromiumPath, else Playwright's own download, else the first system browser found, else /usr/bin/chromium. */
export function resolveChromiumPath(configured?: string, platform: NodeJS.Platform = process.platform): string {
  if (configured) return configured;
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // no bundled browser
  }
  for (const candidate of SYSTEM_CANDIDATES[platform] ?? []) if (existsSync(candidate)) return candidate;
  return '/usr/bin/chromium';
}

export const CLOSED_NETWORK_ARGS = [
  // A proxy that cannot resolve, for loopback too (Chromium bypasses proxies for loopback by default).
  '--proxy-server=http://hearth-no-network.invalid:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--dns-prefetch-disable',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  '--no-pings',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export function createSharedChromium(opts: SharedChromiumOptions = {}): SharedChromium {
  let resolved: string | null = null;
  let browser: Browser | null = null;
  let launching: Promise<Browser> | null = null;
  let launchCount = 0;
  let closed = false;
  const exe = () => (resolved ??= resolveChromiumPath(opts.executablePath));

  const launch = async (): Promise<Browser> => {
    const files = opts.files;
    if (files) mkdirSync(files.artifactsDir, { recursive: true });
    const b = await chromium.launch({
      executablePath: exe(),
      headless: true,
      timeout: opts.launchTimeoutMs ?? 30_000,
      args: [...(opts.openNetwork ? [] : CLOSED_NETWORK_ARGS), '--disable-dev-shm-usage', '--mute-audio', ...(opts.args ?? [])],
      ...(files ? { artifactsDir: files.artifactsDir } : {}),
    });
    launchCount++;
    files?.noteLaunched();
    b.on('disconnected', () => {
      // Playwright removes the profile once the browser is gone, closed or crashed
      files?.forgetClosed();
      if (browser === b) browser = null;
      if (!closed) opts.logger?.warn({ executablePath: exe() }, 'capture browser disconnected; the next capture relaunches it');
    });
    opts.logger?.info({ executablePath: exe(), version: b.version() }, 'capture browser launched');
    return b;
  };

  const get = async (): Promise<Browser> => {
    if (browser?.isConnected()) return browser;
    browser = null;
    launching ??= launch().finally(() => (launching = null));
    const b = await launching;
    if (closed) {
      await b.close().catch(() => undefined);
      throw new Error('The capture browser was closed.');
    }
    browser = b;
    return b;
  };

  return {
    async newContext(options) {
      closed = false;
      const b = await get();
      try {
        return await b.newContext(options);
      } catch (err) {
        // died between the check and the call: relaunch once
        if (b.isConnected()) throw err;
        if (browser === b) browser = null;
        return (await get()).newContext(options);
      }
    },
    executablePath: exe,
    launches: () => launchCount,
    async close() {
      closed = true;
      const b = browser ?? (launching ? await launching.catch(() => null) : null);
      browser = null;
      await b?.close().catch(() => undefined);
    },
  };
}
