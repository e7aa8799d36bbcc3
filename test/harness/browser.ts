// What every browser test shares: Debian's Chromium (or CHROMIUM_PATH) with the same switches, the
// phone and desktop devices, the built web app check, and the two waits the tests read by.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import type { TestServer } from './start-server.js';

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

/**
 * Debian's Chromium with the shared switches, plus any a test needs (e.g. --host-resolver-rules);
 * `env` for one that needs its own HOME (a certificate store of its own, ~/.pki/nssdb).
 */
export function launchChromium(extraArgs: readonly string[] = [], opts: { env?: Record<string, string> } = {}): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], ...(opts.env ? { env: { ...process.env, ...opts.env } as Record<string, string> } : {}) });
}

export const shown = (l: Locator, timeout = 15_000) => l.waitFor({ state: 'visible', timeout });
export const gone = (l: Locator, timeout = 15_000) => l.waitFor({ state: 'hidden', timeout });

/**
 * The shell knows the household's enabled tools: until then its navigation is aria-busy and shows
 * every entry (optimistic). The answer is asked for at start-up, before the shell draws, so the
 * response arriving is not the signal; this is.
 */
export const shellSettled = (page: Page, timeout = 15_000) =>
  page.locator('nav[aria-label="Main"]:not([aria-busy="true"])').waitFor({ state: 'attached', timeout });

/**
 * Waits for a toast saying `text` (ui/Toast: the short news after an action). When `announced` is
 * given (a promise from `announcing` started before the action) it must also have been read out
 * by the polite role=status announcer Radix shows for a moment.
 */
export const toastSays = (page: Page, text: string, timeout = 15_000) => shown(page.getByTestId('toast').getByText(text), timeout);

/** Start before the action: resolves once a role=status announcer holding `text` was in the page. */
export const announcing = (page: Page, text: string, timeout = 15_000) =>
  page.getByRole('status').filter({ hasText: text }).first().waitFor({ state: 'attached', timeout });

/**
 * A browser context signed in with a test client's session cookie (`session=…`), set as the server
 * sets it (HttpOnly, SameSite=Lax); with no cookie, a signed-out one.
 */
export async function signedInContext(browser: Browser, url: string, cookie: string | null | undefined, device: BrowserContextOptions = DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext(device);
  if (cookie) await context.addCookies([{ name: 'session', value: cookie.slice('session='.length), url, httpOnly: true, sameSite: 'Lax' }]);
  return context;
}

/** Opens a page (a tab sharing the context's cookie) at a path, collecting its uncaught errors. */
export async function openTab(context: BrowserContext, url: string, pathname: string, pageErrors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${url}${pathname}`);
  return page;
}

/** The signed-in pages of one file's browser tests (see createPageOpener). */
export interface PageOpener {
  /** A new context signed in as the server's admin or member, on `device`, and a page in it. */
  open(as: 'admin' | 'member', device?: BrowserContextOptions): Promise<Page>;
  /** Every page's uncaught errors, as "<as>: <message>". */
  readonly pageErrors: string[];
  /** Closes every context opened so far; `quietly` ignores a close that fails (afterAll's clean-up). */
  closeAll(opts?: { quietly?: boolean }): Promise<void>;
}

/**
 * Opens signed-in pages for a file whose browser and server are made in beforeAll (hence `target`,
 * read at each open), handing each page to `watch` (a token scan's watchPage) with its label.
 */
export function createPageOpener(target: () => { browser: Browser; server: TestServer }, watch?: (page: Page, as: string) => void): PageOpener {
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  return {
    pageErrors,
    async open(as, device = DESKTOP) {
      const { browser, server } = target();
      const ctx = await signedInContext(browser, server.url, (as === 'admin' ? server.admin : server.member).cookie!, device);
      contexts.push(ctx);
      const page = await ctx.newPage();
      page.on('pageerror', (err) => pageErrors.push(`${as}: ${err.message}`));
      watch?.(page, as);
      return page;
    },
    async closeAll(opts = {}) {
      for (const c of contexts) await (opts.quietly ? c.close().catch(() => undefined) : c.close());
    },
  };
}
