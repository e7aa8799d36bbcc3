// Loading the page for a capture: a real headless Chromium (a fresh context per capture) whose
// every request is performed in Node through the SSRF guard and handed back with route.fulfill, or,
// as the last fallback, a static fetch of the HTML (no JavaScript). What comes back (Rendered) is
// written into the snapshot, reader view and images by engine.ts.
import { setMaxListeners } from 'node:events';
import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import type { SharedChromium } from '../../../adapters/browser/chromium.js';
import { withoutUrls, type Logger } from '../../../platform/logger.js';
import { BlockedUrlError, type SsrfGuard } from '../../../platform/ssrf.js';
import { untilAborted } from '../../../platform/until-aborted.js';
import { stripHash, type SeenResponse } from './assets.js';
import { CHALLENGE_MESSAGE } from './challenge.js';
import { guardedGet, guardedHop, isHostFailure, isHtmlType, mimeOf, TooLargeError, USER_AGENT } from './net.js';
import { BROWSER_FAILED, httpErrorMessage, notWebPageMessage, timeoutMessage, unreachableMessage } from './messages.js';
import { CaptureError, phaseClock, type CaptureRequest, type CaptureResult } from './types.js';

export const VIEWPORT = { width: 1280, height: 800 };
const DROP_RESPONSE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** A loaded page: its HTML and what was fetched while loading it. */
export interface Rendered {
  finalUrl: string;
  html: string;
  screenshot: Buffer | null;
  seen: Map<string, SeenResponse>;
  /** Hosts that failed at the network level while rendering: the asset pass does not retry them. */
  deadHosts?: Set<string>;
  rendered: boolean;
  method: CaptureResult['method'];
}

export const cancelled = () => new CaptureError('cancelled', 'The capture was cancelled.');

/**
 * One step of driving the browser in a capture that `signal` may cancel: not started once the
 * capture is cancelled, and not waited for past the cancellation. A cancellation closes the
 * capture's context, and Playwright's newPage never settles (neither resolves nor rejects) when
 * its context starts closing just before or while the page is made; a capture waiting on it never
 * ended, and a Hearth shutting down waited for that capture for ever.
 */
function browserStep<T>(signal: AbortSignal | undefined, step: () => Promise<T>): Promise<T> {
  return untilAborted(step, signal, () => cancelled());
}

function httpError(status: number): CaptureError {
  return new CaptureError('http_error', httpErrorMessage(status));
}

function blocked(err: BlockedUrlError): CaptureError {
  return new CaptureError('blocked_url', `Hearth does not fetch this address: ${err.message}`);
}

/** Maps a Node-side fetch failure to a CaptureError. */
export function toCaptureError(err: unknown, signal?: AbortSignal): CaptureError {
  if (err instanceof CaptureError) return err;
  if (signal?.aborted) return cancelled();
  if (err instanceof BlockedUrlError) return blocked(err);
  if (err instanceof TooLargeError) return new CaptureError('not_html', 'The page is too large for Hearth to save. Keep it as a live link instead: it opens the page in a new tab.');
  const code = (err as NodeJS.ErrnoException).code ?? (err as { cause?: NodeJS.ErrnoException }).cause?.code ?? '';
  const name = (err as Error).name ?? '';
  if (name === 'AbortError') return cancelled();
  if (/TIMEOUT|TIMEDOUT/i.test(code) || name === 'TimeoutError') return new CaptureError('timeout', timeoutMessage());
  // the code (ENOTFOUND, ECONNREFUSED…) chooses the sentence; it is never shown itself
  return new CaptureError('unreachable', unreachableMessage(code));
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

// In-page, before the page's own scripts: when its DOM last changed (nodes or text, not attributes:
// a carousel's classes never stop changing), for settle() below.
const DOM_WATCH = `(() => {
  let last = 0;
  new MutationObserver(() => { last = performance.now(); }).observe(document, { childList: true, subtree: true, characterData: true });
  Object.defineProperty(window, '__hearthDomQuietMs', { value: () => performance.now() - last });
})()`;

/** Quiet enough to take the page: no request of its own for NET_QUIET_MS and no change to its DOM for DOM_QUIET_MS. */
const NET_QUIET_MS = 250;
const DOM_QUIET_MS = 500;

/** What the capture's request router knows of the page's network: requests in flight, and when one last started or ended. */
interface NetWatch {
  pending: number;
  lastAt: number;
}

/**
 * Waits until the page has settled, at most `budgetMs`: its load event, then no request in flight
 * and none started or ended for NET_QUIET_MS (the router sees every one), and no change to its DOM
 * for DOM_QUIET_MS (what a script draws after the last answer, e.g. from a timer). Playwright's
 * 'networkidle' asked for 500 ms without a single request, which a page that reports to its server
 * every few hundred milliseconds (most news sites) never gives: every capture of one waited out
 * the whole budget, twice in archive mode.
 */
async function settle(page: Page, net: NetWatch, budgetMs: number): Promise<void> {
  const end = Date.now() + budgetMs;
  await page.waitForLoadState('load', { timeout: budgetMs }).catch(() => undefined);
  while (Date.now() < end) {
    const left = end - Date.now();
    const domQuiet = await Promise.race([
      page.evaluate(() => (window as unknown as { __hearthDomQuietMs?: () => number }).__hearthDomQuietMs?.() ?? Infinity).catch(() => Infinity),
      new Promise<number>((r) => setTimeout(() => r(0), left).unref()),
    ]);
    const netQuiet = net.pending === 0 ? Date.now() - net.lastAt : 0;
    if (netQuiet >= NET_QUIET_MS && domQuiet >= DOM_QUIET_MS) return;
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(50, end - Date.now()))));
  }
}

export interface PageLoaderOptions {
  guard: SsrfGuard;
  browser: SharedChromium;
  log?: Logger;
  navTimeout: number;
  idleTimeout: number;
  subresourceTimeout: number;
  scrollTimeout: number;
  maxResource: number;
  maxTotal: number;
  maxHtml: number;
  /** The challenge check (run in the parse worker): what gave the challenge away, or null. */
  isChallenge: (input: { html: string; text?: string; status?: number }, signal?: AbortSignal) => Promise<string | null>;
}

export function createPageLoader(o: PageLoaderOptions) {
  const { guard, browser, log, navTimeout, idleTimeout, subresourceTimeout, scrollTimeout, maxResource, maxTotal, maxHtml, isChallenge } = o;

  async function renderInBrowser(req: CaptureRequest): Promise<Rendered> {
    const signal = req.signal;
    const topUrl = guard.checkUrl(req.url).href; // a blocked top URL never reaches the browser
    const lap = phaseClock(req.timings);
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
      log?.warn({ item: req.logId, err: withoutUrls((err as Error).message.split('\n')[0] ?? '') }, 'capture: the browser context could not start');
      throw new CaptureError('unreachable', BROWSER_FAILED);
    }
    lap('browser');
    const seen = new Map<string, SeenResponse>();
    const deadHosts = new Set<string>();
    let total = 0;
    const net: NetWatch = { pending: 0, lastAt: Date.now() };
    let topBlocked: BlockedUrlError | null = null;
    let topNotHtml: string | null = null;
    let page: Page | null = null;
    // requests still in flight when the capture ends (or is cancelled) are dropped
    const inflight = new AbortController();
    setMaxListeners(0, inflight.signal); // one listener per request in flight
    const onAbort = () => {
      inflight.abort();
      void ctx.close().catch(() => undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // a capture cancelled while its context was being made: the context is not set up further
      // (onAbort above only runs for a cancellation that comes after it was added)
      await browserStep(signal, () => ctx.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'Hearth captures do not open connections' })));
      await browserStep(signal, () => ctx.addInitScript(NO_PEER_CONNECTIONS));
      await browserStep(signal, () => ctx.addInitScript(DOM_WATCH));
      const isTop = (r: Request) => {
        try {
          return r.isNavigationRequest() && !!page && r.frame() === page.mainFrame();
        } catch {
          return false;
        }
      };
      await browserStep(signal, () => ctx.route('**/*', async (route: Route) => {
        const r = route.request();
        const url = r.url();
        if (!/^https?:/i.test(url)) return route.abort('blockedbyclient').catch(() => undefined);
        const top = isTop(r);
        const host = new URL(url).host;
        if (!top && deadHosts.has(host)) return route.abort('failed').catch(() => undefined);
        net.pending++;
        net.lastAt = Date.now();
        try {
          const res = await guardedHop(guard, url, {
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
            // the refused host (a private or loopback address, by the guard's rules), not the page's URL
            log?.info({ item: req.logId, host: blockedHost(url), top }, 'capture: blocked a request');
            if (top) topBlocked = err;
          }
          await route.abort(err instanceof BlockedUrlError ? 'blockedbyclient' : 'failed').catch(() => undefined);
        } finally {
          net.pending--;
          net.lastAt = Date.now();
        }
      }));
      page = await browserStep(signal, () => ctx.newPage());
      page.setDefaultTimeout(navTimeout);
      lap('browser');
      let status = 0;
      try {
        const resp = await page.goto(topUrl, { waitUntil: 'domcontentloaded', timeout: navTimeout });
        status = resp?.status() ?? 0;
      } catch (err) {
        if (signal?.aborted) throw cancelled();
        if (topBlocked) throw blocked(topBlocked);
        if (topNotHtml !== null) throw new CaptureError('not_html', notWebPageMessage(topNotHtml));
        if ((err as Error).name === 'TimeoutError') {
          // slow third-party scripts can hold DOMContentLoaded back: keep what has rendered if it is a page
          const chars = await page.evaluate(() => document.body?.innerText.length ?? 0).catch(() => 0);
          if (chars < 200) throw new CaptureError('timeout', timeoutMessage());
          log?.info({ item: req.logId, chars }, 'capture: navigation timed out, keeping what rendered');
          status = 200;
        } else throw new CaptureError('unreachable', unreachableMessage(/net::(ERR_\w+)/.exec((err as Error).message)?.[1]));
      }
      if (status === 0 && !page.url().startsWith('http')) {
        throw new CaptureError('unreachable', unreachableMessage());
      }
      lap('navigate');
      await settle(page, net, idleTimeout);
      lap('settle');
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
      lap('challenge');
      if (req.mode === 'archive') {
        // scroll a screen at a time so loading=lazy and IntersectionObserver images load: each
        // position is held for two frames (the observers run in the frame after a scroll)
        await page
          .evaluate(async (budgetMs) => {
            const end = Date.now() + budgetMs;
            const step = Math.max(200, window.innerHeight);
            for (let y = 0; Date.now() < end; y += step) {
              window.scrollTo(0, y);
              await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
              const h = Math.max(document.body?.scrollHeight ?? 0, document.documentElement.scrollHeight);
              if (y + window.innerHeight >= h) break;
            }
          }, scrollTimeout)
          .catch(() => undefined);
        await settle(page, net, Math.min(idleTimeout, 3_000));
        await page.evaluate(() => window.scrollTo(0, 0)).catch(() => undefined);
        lap('scroll');
      }
      if (signal?.aborted) throw cancelled();
      await page.evaluate(IN_PAGE_CONSENT).catch(() => undefined);
      let screenshot: Buffer | null = null;
      try {
        screenshot = await page.screenshot({ type: 'png', timeout: 10_000 });
      } catch (err) {
        if (signal?.aborted) throw cancelled();
        log?.warn({ item: req.logId, err: withoutUrls((err as Error).message) }, 'capture: screenshot failed');
      }
      lap('screenshot');
      const html = await page.content();
      lap('serialize');
      return { finalUrl: page.url(), html, screenshot, seen, deadHosts, rendered: true, method: 'browser' };
    } catch (err) {
      if (signal?.aborted) throw cancelled();
      if (err instanceof CaptureError) throw err;
      log?.warn({ item: req.logId, err: withoutUrls((err as Error).message.split('\n')[0] ?? '') }, 'capture: the browser failed');
      throw new CaptureError('unreachable', BROWSER_FAILED);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      inflight.abort();
      await ctx.close().catch(() => undefined);
    }
  }

  async function staticFetch(req: CaptureRequest): Promise<Rendered> {
    const lap = phaseClock(req.timings);
    let res;
    try {
      res = await guardedGet(guard, req.url, { signal: req.signal, maxBytes: maxHtml, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' });
    } catch (err) {
      throw toCaptureError(err, req.signal);
    }
    const mime = mimeOf(res.headers);
    const html = isHtmlType(mime) ? decodeHtml(res.body, res.headers['content-type']) : '';
    if (res.status >= 400) {
      if (await isChallenge({ html, status: res.status }, req.signal)) throw new CaptureError('challenge', CHALLENGE_MESSAGE);
      throw httpError(res.status);
    }
    if (!isHtmlType(mime)) throw new CaptureError('not_html', notWebPageMessage(mime));
    lap('static');
    return { finalUrl: res.url, html, screenshot: null, seen: new Map(), rendered: false, method: 'static' };
  }

  return { renderInBrowser, staticFetch };
}

/** The host a blocked request was for (the page's own address never reaches the log). */
function blockedHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '(not a URL)';
  }
}
