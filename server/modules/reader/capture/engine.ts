// The capture engine: a real headless Chromium (shared, a fresh context per capture) whose every
// request is performed in Node through the SSRF guard and handed back with route.fulfill; then a
// script-free snapshot with local assets, a Readability reader view, a screenshot and the og:image.
// Fallbacks when the browser cannot produce the page: the DOM the user's browser sent, then a
// static fetch (no JavaScript). All DOM work (jsdom, Readability, DOMPurify, challenge detection)
// runs in the parse worker (dom-tasks.ts), never on the server's event loop; this thread does the
// network and file I/O between its phases.
import { setMaxListeners } from 'node:events';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import sharp from 'sharp';
import { createSharedChromium, type SharedChromium } from '../../../adapters/browser/chromium.js';
import type { CaptureBrowserFiles } from '../../../adapters/browser/profiles.js';
import type { Logger } from '../../../platform/logger.js';
import { BlockedUrlError, type SsrfGuard } from '../../../platform/ssrf.js';
import { ParseWorker, WorkerCrashedError, WorkerTimeoutError } from '../../../platform/workers/parse-worker.js';
import { AssetStore, stripHash, type SeenResponse } from './assets.js';
import { CHALLENGE_MESSAGE } from './challenge.js';
import { DOM_TASKS_MODULE, DomTasks } from './dom-tasks.js';
import { guardedGet, guardedHop, isHostFailure, isHtmlType, mimeOf, TooLargeError, USER_AGENT } from './net.js';
import { countWords, readingMinutes, type PageMetadata, type ReaderView } from './readability.js';
import { CaptureError, type CaptureEngine, type CaptureRequest, type CaptureResult } from './types.js';

export interface CaptureEngineDeps {
  guard: SsrfGuard;
  /** config.chromiumPath; unset = Playwright's own Chromium, else the system one. */
  chromiumPath?: string;
  logger?: Logger;
  /** false: no browser at all (client snapshot, then static fetch). Default true. */
  browserEnabled?: boolean;
  /** A shared browser to use instead of creating one (tests, bench). */
  browser?: SharedChromium;
  /** Where the browser's profile is noted and its files go, so a crash of Hearth leaves nothing behind. */
  browserFiles?: CaptureBrowserFiles;
  navigationTimeoutMs?: number;
  /** Per subresource request the page makes (default 15 s; the page itself gets navigationTimeoutMs). */
  subresourceTimeoutMs?: number;
  /** Upper bound of each "wait for network idle". */
  idleTimeoutMs?: number;
  /** Upper bound of the lazy-load scroll. */
  scrollTimeoutMs?: number;
  launchTimeoutMs?: number;
  /** Per resource the page loads (default 25 MB). */
  maxResourceBytes?: number;
  /** All resources of one capture together (default 150 MB). */
  maxTotalBytes?: number;
  /** The static fallback's HTML (default 10 MB). */
  maxHtmlBytes?: number;
  /** og:image (default 10 MB). */
  maxImageBytes?: number;
  /** Width the first-screen screenshot is resized to (default 640; 0 keeps 1280). */
  screenshotWidth?: number;
  /** The worker the DOM work runs in (default: one of the engine's own, closed by close()). */
  parseWorker?: ParseWorker;
  /** Budget of one DOM task in the engine's own worker (default 30 s). */
  parseTaskTimeoutMs?: number;
  /** Heap limit of the engine's own worker (default 512 MB). */
  parseWorkerMaxOldGenerationSizeMb?: number;
}

const VIEWPORT = { width: 1280, height: 800 };
const PASS_THROUGH_ERRORS = new Set(['blocked_url', 'challenge', 'cancelled', 'not_html', 'http_error']);
const DROP_RESPONSE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

interface Rendered {
  finalUrl: string;
  html: string;
  screenshot: Buffer | null;
  seen: Map<string, SeenResponse>;
  /** Hosts that failed at the network level while rendering: the asset pass does not retry them. */
  deadHosts?: Set<string>;
  rendered: boolean;
  method: CaptureResult['method'];
}

const cancelled = () => new CaptureError('cancelled', 'The capture was cancelled.');

/** The page processor (parse worker) gave up on this page: the capture fails, no fallback retries it. */
class ProcessingError extends CaptureError {}

/** Runs one DOM task; a worker timeout or death becomes a ProcessingError, a handler error stays a plain Error. */
async function inWorker<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (err) {
    if (err instanceof WorkerTimeoutError) throw new ProcessingError('timeout', `The page took too long to process (over ${Math.round(err.budgetMs / 1000)} s), so nothing was saved.`);
    if (err instanceof WorkerCrashedError) throw new ProcessingError('timeout', 'The page was too large or complex to process, so nothing was saved.');
    throw err;
  }
}

function httpError(status: number): CaptureError {
  return new CaptureError('http_error', `The site answered with an error (HTTP ${status}).`);
}

function blocked(err: BlockedUrlError): CaptureError {
  return new CaptureError('blocked_url', `Hearth does not fetch this address: ${err.message}`);
}

/** Maps a Node-side fetch failure to a CaptureError. */
export function toCaptureError(err: unknown, signal?: AbortSignal): CaptureError {
  if (err instanceof CaptureError) return err;
  if (signal?.aborted) return cancelled();
  if (err instanceof BlockedUrlError) return blocked(err);
  if (err instanceof TooLargeError) return new CaptureError('not_html', 'The page is too large to save.');
  const code = (err as NodeJS.ErrnoException).code ?? (err as { cause?: NodeJS.ErrnoException }).cause?.code ?? '';
  const name = (err as Error).name ?? '';
  if (name === 'AbortError') return cancelled();
  if (/TIMEOUT/i.test(code) || name === 'TimeoutError') return new CaptureError('timeout', 'The site took too long to answer.');
  return new CaptureError('unreachable', `The site could not be reached${code ? ` (${code})` : ''}.`);
}

function decodeHtml(body: Buffer, contentType: string | undefined): string {
  let charset = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1];
  if (!charset) {
    const head = body.subarray(0, 4096).toString('latin1');
    charset = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1];
  }
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

async function emptyDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(dir)) await rm(path.join(dir, name), { recursive: true, force: true });
}

// In-page: consent banners and fixed overlays talking about cookies/consent go before the
// screenshot and the serialization; page scroll unlocked.
const IN_PAGE_CONSENT = `(() => {
  const sels = ['#onetrust-consent-sdk','#onetrust-banner-sdk','#qc-cmp2-container','#CybotCookiebotDialog','#usercentrics-root','#didomi-host','#truste-consent-track','.cc-window','.cookie-consent','#cookie-consent','#cookie-banner','.cookie-banner','.fc-consent-root','[id^="sp_message_container"]','#consent-banner','.consent-banner'];
  let n = 0;
  for (const s of sels) for (const el of document.querySelectorAll(s)) { el.remove(); n++; }
  const vw = innerWidth, vh = innerHeight;
  for (const el of document.querySelectorAll('body *')) {
    if (!el.isConnected) continue;
    const cs = getComputedStyle(el);
    if (cs.position !== 'fixed' && cs.position !== 'sticky') continue;
    const t = (el.textContent || '').replace(/\\s+/g, ' ');
    if (t.length > 3000) continue;
    if (!(/\\b(cookies?|consent|gdpr)\\b/i.test(t) && /\\b(accept|agree|allow|reject|manage|settings|preferences|ok)\\b/i.test(t))) continue;
    el.remove(); n++;
  }
  if (n) for (const r of [document.documentElement, document.body]) { if (r) { r.style.removeProperty('overflow'); if (getComputedStyle(r).overflow === 'hidden') r.style.setProperty('overflow', 'auto', 'important'); } }
  // styles inserted through the CSSOM (CSS-in-JS) are not in the markup: write them out
  for (const st of document.querySelectorAll('style')) {
    try { if (!st.textContent.trim() && st.sheet && st.sheet.cssRules.length) st.textContent = Array.from(st.sheet.cssRules, (r) => r.cssText).join('\\n'); } catch {}
  }
  return n;
})()`;

const NO_PEER_CONNECTIONS = `(() => {
  for (const k of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'WebTransport']) { try { delete window[k]; } catch {} try { Object.defineProperty(window, k, { value: undefined }); } catch {} }
})()`;

export function createCaptureEngine(deps: CaptureEngineDeps): CaptureEngine {
  const log = deps.logger?.child('capture');
  const ownBrowser = !deps.browser;
  const browser = deps.browser ?? createSharedChromium({ executablePath: deps.chromiumPath, logger: log, launchTimeoutMs: deps.launchTimeoutMs, files: deps.browserFiles });
  const navTimeout = deps.navigationTimeoutMs ?? 30_000;
  const idleTimeout = deps.idleTimeoutMs ?? 5_000;
  const subresourceTimeout = deps.subresourceTimeoutMs ?? 15_000;
  const scrollTimeout = deps.scrollTimeoutMs ?? 8_000;
  const maxResource = deps.maxResourceBytes ?? 25_000_000;
  const maxTotal = deps.maxTotalBytes ?? 150_000_000;
  const maxHtml = deps.maxHtmlBytes ?? 10_000_000;
  const maxImage = deps.maxImageBytes ?? 10_000_000;
  const shotWidth = deps.screenshotWidth ?? 640;
  const ownWorker = !deps.parseWorker;
  const worker =
    deps.parseWorker ??
    new ParseWorker({ handlers: DOM_TASKS_MODULE, taskTimeoutMs: deps.parseTaskTimeoutMs ?? 30_000, maxOldGenerationSizeMb: deps.parseWorkerMaxOldGenerationSizeMb ?? 512, logger: log });
  const dom = new DomTasks(worker);
  const isChallenge = (input: { html: string; text?: string; status?: number }, signal?: AbortSignal) => inWorker(() => dom.challenge(input, { signal }));

  async function renderInBrowser(req: CaptureRequest): Promise<Rendered> {
    const signal = req.signal;
    const topUrl = deps.guard.checkUrl(req.url).href; // a blocked top URL never reaches the browser
    let ctx: BrowserContext;
    try {
      ctx = await browser.newContext({
        serviceWorkers: 'block',
        viewport: VIEWPORT,
        userAgent: USER_AGENT,
        javaScriptEnabled: true,
        acceptDownloads: false,
        locale: 'en-US',
      });
    } catch (err) {
      throw new CaptureError('unreachable', `The capture browser could not start: ${(err as Error).message.split('\n')[0]}`);
    }
    const seen = new Map<string, SeenResponse>();
    const deadHosts = new Set<string>();
    let total = 0;
    let topBlocked: BlockedUrlError | null = null;
    let topNotHtml: string | null = null;
    let page: Page | null = null;
    const t0 = Date.now();
    const phases: Record<string, number> = {};
    const mark = (name: string) => (phases[name] = Date.now() - t0);
    // requests still in flight when the capture ends (or is cancelled) are dropped
    const inflight = new AbortController();
    setMaxListeners(0, inflight.signal); // one listener per request in flight
    const onAbort = () => {
      inflight.abort();
      void ctx.close().catch(() => undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await ctx.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'Hearth captures do not open connections' }));
      await ctx.addInitScript(NO_PEER_CONNECTIONS);
      const isTop = (r: Request) => {
        try {
          return r.isNavigationRequest() && !!page && r.frame() === page.mainFrame();
        } catch {
          return false;
        }
      };
      await ctx.route('**/*', async (route: Route) => {
        const r = route.request();
        const url = r.url();
        if (!/^https?:/i.test(url)) return route.abort('blockedbyclient').catch(() => undefined);
        const top = isTop(r);
        const host = new URL(url).host;
        if (!top && deadHosts.has(host)) return route.abort('failed').catch(() => undefined);
        try {
          const res = await guardedHop(deps.guard, url, {
            method: r.method(),
            headers: await r.allHeaders(),
            body: r.postDataBuffer(),
            signal: inflight.signal,
            maxBytes: maxResource,
            timeoutMs: top ? navTimeout : subresourceTimeout,
          });
          total += res.body.length;
          if (total > maxTotal) throw new TooLargeError(maxTotal);
          const mime = mimeOf(res.headers);
          if (top && (res.status < 300 || res.status >= 400) && !isHtmlType(mime)) {
            topNotHtml = mime;
            return await route.abort('blockedbyclient');
          }
          if (r.method() === 'GET' && res.status >= 200 && res.status < 300) seen.set(stripHash(url), { status: res.status, contentType: mime, body: res.body });
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (!DROP_RESPONSE_HEADERS.has(k)) headers[k] = v;
          await route.fulfill({ status: res.status, headers, body: res.body });
        } catch (err) {
          if (isHostFailure(err)) deadHosts.add(host);
          if (err instanceof BlockedUrlError) {
            log?.info({ url, top }, 'capture: blocked a request');
            if (top) topBlocked = err;
          }
          await route.abort(err instanceof BlockedUrlError ? 'blockedbyclient' : 'failed').catch(() => undefined);
        }
      });
      page = await ctx.newPage();
      page.setDefaultTimeout(navTimeout);
      let status = 0;
      try {
        const resp = await page.goto(topUrl, { waitUntil: 'domcontentloaded', timeout: navTimeout });
        status = resp?.status() ?? 0;
        mark('domcontentloaded');
      } catch (err) {
        if (signal?.aborted) throw cancelled();
        if (topBlocked) throw blocked(topBlocked);
        if (topNotHtml !== null) throw new CaptureError('not_html', `That address is not a web page (${topNotHtml || 'unknown type'}).`);
        if ((err as Error).name === 'TimeoutError') {
          // slow third-party scripts can hold DOMContentLoaded back: keep what has rendered if it is a page
          const chars = await page.evaluate(() => document.body?.innerText.length ?? 0).catch(() => 0);
          if (chars < 200) throw new CaptureError('timeout', 'The page took too long to load.');
          log?.info({ url: req.url, chars }, 'capture: navigation timed out, keeping what rendered');
          status = 200;
        } else throw new CaptureError('unreachable', `The page could not be loaded: ${(err as Error).message.split('\n')[0]}`);
      }
      if (status === 0 && !page.url().startsWith('http')) {
        throw new CaptureError('unreachable', 'The page could not be loaded.');
      }
      await page.waitForLoadState('networkidle', { timeout: idleTimeout }).catch(() => undefined);
      mark('idle');
      if (signal?.aborted) throw cancelled();
      if (status >= 400) {
        const html = await page.content().catch(() => '');
        if (await isChallenge({ html, status }, signal)) throw new CaptureError('challenge', CHALLENGE_MESSAGE);
        throw httpError(status);
      }
      {
        const html = await page.content();
        const text = await page.evaluate(() => document.body?.innerText ?? '').catch(() => '');
        if (await isChallenge({ html, text, status }, signal)) throw new CaptureError('challenge', CHALLENGE_MESSAGE);
      }
      if (req.mode === 'archive') {
        // scroll in steps so loading=lazy and IntersectionObserver images load
        await page
          .evaluate(async (budgetMs) => {
            const end = Date.now() + budgetMs;
            const step = Math.max(200, Math.floor(window.innerHeight * 0.8));
            for (let y = 0; Date.now() < end; y += step) {
              window.scrollTo(0, y);
              await new Promise((r) => setTimeout(r, 80));
              const h = Math.max(document.body?.scrollHeight ?? 0, document.documentElement.scrollHeight);
              if (y + window.innerHeight >= h) break;
            }
          }, scrollTimeout)
          .catch(() => undefined);
        await page.waitForLoadState('networkidle', { timeout: Math.min(idleTimeout, 3_000) }).catch(() => undefined);
        await page.evaluate(() => window.scrollTo(0, 0)).catch(() => undefined);
        mark('scrolled');
      }
      if (signal?.aborted) throw cancelled();
      await page.evaluate(IN_PAGE_CONSENT).catch(() => undefined);
      let screenshot: Buffer | null = null;
      try {
        screenshot = await page.screenshot({ type: 'png', timeout: 10_000 });
      } catch (err) {
        if (signal?.aborted) throw cancelled();
        log?.warn({ url: req.url, err: (err as Error).message }, 'capture: screenshot failed');
      }
      const html = await page.content();
      mark('serialized');
      log?.debug({ url: req.url, phases, requests: seen.size, deadHosts: deadHosts.size }, 'capture: browser phases (ms)');
      return { finalUrl: page.url(), html, screenshot, seen, deadHosts, rendered: true, method: 'browser' };
    } catch (err) {
      if (signal?.aborted) throw cancelled();
      if (err instanceof CaptureError) throw err;
      throw new CaptureError('unreachable', `The capture browser failed: ${(err as Error).message.split('\n')[0]}`);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      inflight.abort();
      await ctx.close().catch(() => undefined);
    }
  }

  async function staticFetch(req: CaptureRequest): Promise<Rendered> {
    let res;
    try {
      res = await guardedGet(deps.guard, req.url, { signal: req.signal, maxBytes: maxHtml, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' });
    } catch (err) {
      throw toCaptureError(err, req.signal);
    }
    const mime = mimeOf(res.headers);
    const html = isHtmlType(mime) ? decodeHtml(res.body, res.headers['content-type']) : '';
    if (res.status >= 400) {
      if (await isChallenge({ html, status: res.status }, req.signal)) throw new CaptureError('challenge', CHALLENGE_MESSAGE);
      throw httpError(res.status);
    }
    if (!isHtmlType(mime)) throw new CaptureError('not_html', `That address is not a web page (${mime}).`);
    return { finalUrl: res.url, html, screenshot: null, seen: new Map(), rendered: false, method: 'static' };
  }

  async function saveOgImage(meta: PageMetadata, seen: Map<string, SeenResponse>, outDir: string, signal?: AbortSignal): Promise<string | null> {
    if (!meta.ogImageUrl) return null;
    try {
      let body = seen.get(stripHash(meta.ogImageUrl))?.body;
      if (!body) {
        const res = await guardedGet(deps.guard, meta.ogImageUrl, { signal, maxBytes: maxImage, accept: 'image/*', timeoutMs: 20_000 });
        if (res.status < 200 || res.status >= 300) return null;
        body = res.body;
      }
      if (body.length > maxImage) return null;
      const info = await sharp(body).metadata();
      const ext = ({ jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif', avif: 'avif' } as Record<string, string>)[info.format ?? ''];
      if (!ext) return null;
      const name = `og-image.${ext}`;
      await writeFile(path.join(outDir, name), body);
      return name;
    } catch (err) {
      log?.info({ url: meta.ogImageUrl, err: (err as Error).message }, 'capture: og:image not saved');
      return null;
    }
  }

  async function saveScreenshot(png: Buffer | null, outDir: string): Promise<string | null> {
    if (!png) return null;
    try {
      const out = shotWidth > 0 && shotWidth < VIEWPORT.width ? await sharp(png).resize({ width: shotWidth }).png({ compressionLevel: 8 }).toBuffer() : png;
      await writeFile(path.join(outDir, 'screenshot.png'), out);
      return 'screenshot.png';
    } catch (err) {
      log?.warn({ err: (err as Error).message }, 'capture: screenshot not saved');
      return null;
    }
  }

  /** Everything after the HTML is in hand: challenge check, snapshot, reader view, images. */
  async function finish(req: CaptureRequest, r: Rendered): Promise<CaptureResult> {
    const signal = req.signal;
    if (signal?.aborted) throw cancelled();
    if (r.method !== 'browser' && (await isChallenge({ html: r.html }, signal))) throw new CaptureError('challenge', CHALLENGE_MESSAGE);
    await emptyDir(req.outDir);
    const base: Omit<CaptureResult, keyof ReaderView | 'snapshotPath' | 'screenshotPath' | 'ogImagePath'> = { finalUrl: r.finalUrl, method: r.method };
    if (req.mode === 'thumbnail') {
      const meta = await inWorker(() => dom.meta(r.html, r.finalUrl, { signal }));
      const [screenshotPath, ogImagePath] = await Promise.all([saveScreenshot(r.screenshot, req.outDir), saveOgImage(meta, r.seen, req.outDir, signal)]);
      const { ogImageUrl: _og, ...rest } = meta;
      return { ...base, ...rest, contentHtml: null, contentText: '', wordCount: 0, readingMins: 0, snapshotPath: null, screenshotPath, ogImagePath };
    }
    // phase 1 (worker): parse, neutralize, Readability + DOMPurify; the asset URLs both documents need
    const page = await inWorker(() => dom.prepare({ html: r.html, url: r.finalUrl, rendered: r.rendered, removeConsent: true }, { signal }));
    let reader: ReaderView;
    let consumed = false;
    try {
      // phase 2 (here): the assets, through the guard (the snapshot's first, then the reader view's, as before)
      let failed: CaptureError | null = null;
      const sanitizeSvg = (svg: string) =>
        inWorker(() => dom.sanitizeSvg(svg, { signal })).catch((err: unknown) => {
          if (err instanceof ProcessingError) failed ??= err;
          throw err;
        });
      const assets = new AssetStore({ guard: deps.guard, outDir: req.outDir, seen: r.seen, deadHosts: r.deadHosts, signal, maxAssetBytes: maxResource, maxTotalBytes: maxTotal, sanitizeSvg });
      const found = new Map<string, string | null>();
      await Promise.all(page.snapshotUrls.map(async (u) => found.set(u, await assets.localize(u))));
      await Promise.all(page.readerImages.map(async (u) => found.set(u, await assets.localize(u))));
      if (failed) throw failed;
      if (signal?.aborted) throw cancelled();
      // phase 3 (worker): both documents pointed at the local copies and serialized
      consumed = true;
      const out = await inWorker(() => dom.render({ session: page.session, assets: Object.fromEntries(found), publicBase: req.publicBase }, { signal }));
      await writeFile(path.join(req.outDir, 'index.html'), out.snapshot);
      reader = { ...page.view, contentHtml: out.contentHtml };
    } finally {
      if (!consumed) dom.release(page.session);
    }
    if (signal?.aborted) throw cancelled();
    const [screenshotPath, ogImagePath] = await Promise.all([saveScreenshot(r.screenshot, req.outDir), saveOgImage(reader, r.seen, req.outDir, signal)]);
    const { ogImageUrl: _og, ...view } = reader;
    return { ...base, ...view, snapshotPath: 'index.html', screenshotPath, ogImagePath };
  }

  return {
    async capture(req) {
      if (req.signal?.aborted) throw cancelled();
      try {
        deps.guard.checkUrl(req.url);
      } catch (err) {
        throw toCaptureError(err);
      }
      const started = Date.now();
      let firstError: CaptureError | null = null;
      if (deps.browserEnabled !== false) {
        try {
          const result = await finish(req, await renderInBrowser(req));
          log?.info({ url: req.url, method: 'browser', ms: Date.now() - started }, 'capture done');
          return result;
        } catch (err) {
          const e = toCaptureError(err, req.signal);
          if (PASS_THROUGH_ERRORS.has(e.code) || e instanceof ProcessingError) throw e;
          firstError = e;
          log?.warn({ url: req.url, code: e.code, err: e.message }, 'capture: browser failed, falling back');
        }
      }
      if (req.clientSnapshot?.html) {
        try {
          const url = deps.guard.checkUrl(req.clientSnapshot.url || req.url).href;
          const result = await finish(req, { finalUrl: url, html: req.clientSnapshot.html, screenshot: null, seen: new Map(), rendered: true, method: 'client-snapshot' });
          log?.info({ url: req.url, method: 'client-snapshot', ms: Date.now() - started }, 'capture done');
          return result;
        } catch (err) {
          const e = toCaptureError(err, req.signal);
          if (e.code === 'cancelled' || e.code === 'challenge' || e instanceof ProcessingError) throw e;
          log?.warn({ url: req.url, code: e.code, err: e.message }, 'capture: client snapshot failed, falling back');
        }
      }
      try {
        const result = await finish(req, await staticFetch(req));
        log?.info({ url: req.url, method: 'static', ms: Date.now() - started }, 'capture done');
        return result;
      } catch (err) {
        const e = toCaptureError(err, req.signal);
        if (e.code === 'unreachable' && firstError?.code === 'timeout') throw firstError;
        throw e;
      }
    },
    async close() {
      if (ownBrowser) await browser.close();
      if (ownWorker) await worker.close();
    },
  };
}

/** Word count and reading time of a text (exported for the service's change detection). */
export function textStats(text: string): { wordCount: number; readingMins: number } {
  const wordCount = countWords(text);
  return { wordCount, readingMins: readingMinutes(wordCount) };
}
