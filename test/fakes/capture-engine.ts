// A stand-in for the browser capture engine (server/modules/reader/capture/types.ts): writes the
// artifacts a real capture writes (index.html, an extensionless asset, screenshot.png, og-image)
// into outDir and answers a plausible CaptureResult. Tests set per-URL pages, make a URL fail with
// any CaptureError code (e.g. 'challenge'), or hold captures at a gate to delete or stop mid-capture.
// A page has no icon unless the test gives it one (faviconUrl): Hearth fetches the icon for real,
// so the default must not send it to a name on the internet.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CaptureError, type CaptureEngine, type CaptureErrorCode, type CaptureRequest, type CaptureResult } from '../../server/modules/reader/capture/types.js';

export const PNG_1PX = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

export interface FakePage {
  title?: string | null;
  text?: string;
  byline?: string | null;
  siteName?: string | null;
  excerpt?: string | null;
  /** What the engine reports as the page's icon (a real engine: the declared one, else /favicon.ico). */
  faviconUrl?: string | null;
}

export class FakeCaptureEngine implements CaptureEngine {
  readonly calls: CaptureRequest[] = [];
  private readonly pages = new Map<string, FakePage>();
  private readonly failures = new Map<string, { code: CaptureErrorCode; message: string }>();
  private gate: { promise: Promise<void>; release: () => void } | null = null;
  private startedWaiters: Array<(r: CaptureRequest) => void> = [];
  closed = 0;

  setPage(url: string, page: FakePage): void {
    this.pages.set(url, page);
  }

  /** Every capture of this URL throws CaptureError(code) until cleared. */
  fail(url: string, code: CaptureErrorCode = 'challenge', message = 'The site showed a bot check ("Just a moment...") instead of the page.'): void {
    this.failures.set(url, { code, message });
  }

  clearFailure(url: string): void {
    this.failures.delete(url);
  }

  /** Captures wait until release() (or their abort signal). */
  hold(): void {
    let release!: () => void;
    const promise = new Promise<void>((r) => (release = r));
    this.gate = { promise, release };
  }

  release(): void {
    this.gate?.release();
    this.gate = null;
  }

  /** Resolves when the next capture starts (or at once with the last one if `already`). */
  nextStart(): Promise<CaptureRequest> {
    return new Promise((resolve) => this.startedWaiters.push(resolve));
  }

  async capture(req: CaptureRequest): Promise<CaptureResult> {
    this.calls.push(req);
    for (const w of this.startedWaiters.splice(0)) w(req);
    if (this.gate) {
      const gate = this.gate.promise;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(new CaptureError('cancelled', 'The capture was cancelled.'));
        if (req.signal?.aborted) return onAbort();
        req.signal?.addEventListener('abort', onAbort, { once: true });
        void gate.then(() => {
          req.signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    if (req.signal?.aborted) throw new CaptureError('cancelled', 'The capture was cancelled.');
    const failure = this.failures.get(req.url);
    if (failure) throw new CaptureError(failure.code, failure.message);

    const page = this.pages.get(req.url) ?? {};
    const host = new URL(req.url).hostname;
    const title = page.title === undefined ? `Page at ${host}` : page.title;
    const text = req.clientSnapshot ? `Client rendered ${req.clientSnapshot.html.replace(/<[^>]+>/g, ' ')}` : (page.text ?? `An article captured from ${req.url} with some words in it.`);
    const wordCount = text.split(/\s+/).filter(Boolean).length;

    await mkdir(path.join(req.outDir, 'assets'), { recursive: true });
    await writeFile(path.join(req.outDir, 'screenshot.png'), PNG_1PX);
    await writeFile(path.join(req.outDir, 'og-image.png'), PNG_1PX);
    if (req.mode === 'archive') {
      await writeFile(path.join(req.outDir, 'index.html'), `<!doctype html><html><head><title>${title ?? ''}</title></head><body><p>${text}</p><img src="assets/img1"></body></html>`);
      await writeFile(path.join(req.outDir, 'assets', 'img1'), PNG_1PX); // extensionless, typed by magic bytes
    }
    return {
      finalUrl: req.url,
      method: req.clientSnapshot ? 'client-snapshot' : 'browser',
      title,
      byline: page.byline ?? null,
      siteName: page.siteName ?? host,
      excerpt: page.excerpt ?? null,
      faviconUrl: page.faviconUrl ?? null,
      lang: 'en',
      publishedTime: null,
      contentHtml: req.mode === 'archive' ? `<p>${text}</p><img src="${req.publicBase}assets/img1">` : null,
      contentText: req.mode === 'archive' ? text : '',
      wordCount: req.mode === 'archive' ? wordCount : 0,
      readingMins: req.mode === 'archive' ? Math.max(1, Math.round(wordCount / 230)) : 0,
      snapshotPath: req.mode === 'archive' ? 'index.html' : null,
      screenshotPath: 'screenshot.png',
      ogImagePath: 'og-image.png',
    };
  }

  close(): Promise<void> {
    this.closed++;
    return Promise.resolve();
  }
}
