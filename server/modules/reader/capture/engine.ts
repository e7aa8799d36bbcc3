// The capture engine: a real headless Chromium (shared, a fresh context per capture) whose every
// request is performed in Node through the SSRF guard and handed back with route.fulfill; then a
// script-free snapshot with local assets, a Readability reader view, a screenshot and the og:image.
// Fallbacks when the browser cannot produce the page: the DOM the user's browser sent, then a
// static fetch (no JavaScript). All DOM work (jsdom, Readability, DOMPurify, challenge detection)
// runs in the parse worker (dom-tasks.ts), never on the server's event loop; this thread does the
// network and file I/O between its phases. Loading the page (browser or static fetch) is load.ts;
// this file picks the fallback and writes what was loaded.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { createSharedChromium, type SharedChromium } from '../../../adapters/browser/chromium.js';
import type { CaptureBrowserFiles } from '../../../adapters/browser/profiles.js';
import { withoutUrls, type Logger } from '../../../platform/logger.js';
import type { SsrfGuard } from '../../../platform/ssrf.js';
import { ParseWorker, WorkerCrashedError, WorkerTimeoutError } from '../../../platform/workers/parse-worker.js';
import { AssetStore, stripHash, type SeenResponse } from './assets.js';
import { CHALLENGE_MESSAGE } from './challenge.js';
import { DOM_TASKS_MODULE, DomTasks } from './dom-tasks.js';
import { cancelled, createPageLoader, toCaptureError, VIEWPORT, type Rendered } from './load.js';
import { guardedGet } from './net.js';
import { countWords, readingMinutes, type PageMetadata, type ReaderView } from './readability.js';
import { CaptureError, phaseClock, type CaptureEngine, type CaptureRequest, type CaptureResult } from './types.js';

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

const PASS_THROUGH_ERRORS = new Set(['blocked_url', 'challenge', 'cancelled', 'not_html', 'http_error']);

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

async function emptyDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(dir)) await rm(path.join(dir, name), { recursive: true, force: true });
}

export function createCaptureEngine(deps: CaptureEngineDeps): CaptureEngine {
  const log = deps.logger?.child('capture');
  const ownBrowser = !deps.browser;
  const browser = deps.browser ?? createSharedChromium({ executablePath: deps.chromiumPath, logger: log, launchTimeoutMs: deps.launchTimeoutMs, files: deps.browserFiles });
  const maxResource = deps.maxResourceBytes ?? 25_000_000;
  const maxTotal = deps.maxTotalBytes ?? 150_000_000;
  const maxImage = deps.maxImageBytes ?? 10_000_000;
  const shotWidth = deps.screenshotWidth ?? 640;
  const ownWorker = !deps.parseWorker;
  const worker =
    deps.parseWorker ??
    new ParseWorker({ handlers: DOM_TASKS_MODULE, taskTimeoutMs: deps.parseTaskTimeoutMs ?? 30_000, maxOldGenerationSizeMb: deps.parseWorkerMaxOldGenerationSizeMb ?? 512, logger: log });
  const dom = new DomTasks(worker);
  const isChallenge = (input: { html: string; text?: string; status?: number }, signal?: AbortSignal) => inWorker(() => dom.challenge(input, { signal }));
  const { renderInBrowser, staticFetch } = createPageLoader({
    guard: deps.guard,
    browser,
    log,
    navTimeout: deps.navigationTimeoutMs ?? 30_000,
    idleTimeout: deps.idleTimeoutMs ?? 5_000,
    subresourceTimeout: deps.subresourceTimeoutMs ?? 15_000,
    scrollTimeout: deps.scrollTimeoutMs ?? 8_000,
    maxResource,
    maxTotal,
    maxHtml: deps.maxHtmlBytes ?? 10_000_000,
    isChallenge,
  });

  async function saveOgImage(meta: PageMetadata, seen: Map<string, SeenResponse>, outDir: string, signal: AbortSignal | undefined, logId: string | undefined): Promise<string | null> {
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
      log?.info({ item: logId, err: withoutUrls((err as Error).message) }, 'capture: og:image not saved');
      return null;
    }
  }

  async function saveScreenshot(png: Buffer | null, outDir: string, logId: string | undefined): Promise<string | null> {
    if (!png) return null;
    try {
      const out = shotWidth > 0 && shotWidth < VIEWPORT.width ? await sharp(png).resize({ width: shotWidth }).png({ compressionLevel: 8 }).toBuffer() : png;
      await writeFile(path.join(outDir, 'screenshot.png'), out);
      return 'screenshot.png';
    } catch (err) {
      log?.warn({ item: logId, err: withoutUrls((err as Error).message) }, 'capture: screenshot not saved');
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
      const [screenshotPath, ogImagePath] = await Promise.all([saveScreenshot(r.screenshot, req.outDir, req.logId), saveOgImage(meta, r.seen, req.outDir, signal, req.logId)]);
      const { ogImageUrl: _og, ...rest } = meta;
      return { ...base, ...rest, contentHtml: null, contentText: '', wordCount: 0, readingMins: 0, snapshotPath: null, screenshotPath, ogImagePath };
    }
    const lap = phaseClock(req.timings);
    // the screenshot is resized and written beside the DOM work (a failed capture waits for it, so
    // nothing of it lands in the folder a fallback starts again in)
    const shot = saveScreenshot(r.screenshot, req.outDir, req.logId);
    try {
      return await finishArchive(req, r, base, shot, lap);
    } catch (err) {
      await shot;
      throw err;
    }
  }

  async function finishArchive(
    req: CaptureRequest,
    r: Rendered,
    base: Omit<CaptureResult, keyof ReaderView | 'snapshotPath' | 'screenshotPath' | 'ogImagePath'>,
    shot: Promise<string | null>,
    lap: (name: string) => void,
  ): Promise<CaptureResult> {
    const signal = req.signal;
    // phase 1 (worker): parse, neutralize, Readability + DOMPurify; the asset URLs both documents need
    const page = await inWorker(() => dom.prepare({ html: r.html, url: r.finalUrl, rendered: r.rendered, removeConsent: true }, { signal }));
    lap('prepare');
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
      lap('assets');
      // phase 3 (worker): both documents pointed at the local copies and serialized
      consumed = true;
      const out = await inWorker(() => dom.render({ session: page.session, assets: Object.fromEntries(found), sizes: Object.fromEntries(assets.imageSizes), publicBase: req.publicBase }, { signal }));
      await writeFile(path.join(req.outDir, 'index.html'), out.snapshot);
      reader = { ...page.view, contentHtml: out.contentHtml };
      lap('render');
    } finally {
      if (!consumed) dom.release(page.session);
    }
    if (signal?.aborted) throw cancelled();
    const [screenshotPath, ogImagePath] = await Promise.all([shot, saveOgImage(reader, r.seen, req.outDir, signal, req.logId)]);
    lap('images');
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
      // the DOM work's thread loads jsdom while the page loads, not after it
      worker.warm();
      let firstError: CaptureError | null = null;
      if (deps.browserEnabled !== false) {
        try {
          const result = await finish(req, await renderInBrowser(req));
          log?.info({ item: req.logId, method: 'browser', ms: Date.now() - started }, 'capture done');
          return result;
        } catch (err) {
          const e = toCaptureError(err, req.signal);
          if (PASS_THROUGH_ERRORS.has(e.code) || e instanceof ProcessingError) throw e;
          firstError = e;
          log?.warn({ item: req.logId, code: e.code, err: withoutUrls(e.message) }, 'capture: browser failed, falling back');
        }
      }
      if (req.clientSnapshot?.html) {
        try {
          const url = deps.guard.checkUrl(req.clientSnapshot.url || req.url).href;
          const result = await finish(req, { finalUrl: url, html: req.clientSnapshot.html, screenshot: null, seen: new Map(), rendered: true, method: 'client-snapshot' });
          log?.info({ item: req.logId, method: 'client-snapshot', ms: Date.now() - started }, 'capture done');
          return result;
        } catch (err) {
          const e = toCaptureError(err, req.signal);
          if (e.code === 'cancelled' || e.code === 'challenge' || e instanceof ProcessingError) throw e;
          log?.warn({ item: req.logId, code: e.code, err: withoutUrls(e.message) }, 'capture: client snapshot failed, falling back');
        }
      }
      try {
        const result = await finish(req, await staticFetch(req));
        log?.info({ item: req.logId, method: 'static', ms: Date.now() - started }, 'capture done');
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
