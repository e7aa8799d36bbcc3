// What every browser test shares: Debian's Chromium (or CHROMIUM_PATH) with the same switches, the
// phone and desktop devices, the built web app check, and the two waits the tests read by.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const DESKTOP = { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' as const };

const WEB_INDEX = path.resolve(import.meta.dirname, '../../dist/web/index.html');

/** Fails fast, before a server starts, when the web app has not been built. */
export function requireBuiltWebApp(): void {
  if (!existsSync(WEB_INDEX)) throw new Error('dist/web is missing: run `npm run build:web` before the e2e tests.');
}

/** Debian's Chromium with the shared switches, plus any a test needs (e.g. --host-resolver-rules). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export const shown = (l: Locator, timeout = 15_000) => l.waitFor({ state: 'visible', timeout });
export const gone = (l: Locator, timeout = 15_000) => l.waitFor({ state: 'hidden', timeout });
