// The contract between the reader module and its capture engine. The service decides *when* to
// capture (archive jobs, thumbnails, the change poller) and where the artifacts live; the engine
// decides *how* (shared headless Chromium, fallbacks) and never touches the database.

export type CaptureMode =
  /** Offline article: full-page snapshot with every asset localized, reader view, screenshot, og:image. */
  | 'archive'
  /** Live link: screenshot, og:image, favicon and metadata only (the "thumbnail job"). */
  | 'thumbnail';

export interface CaptureRequest {
  url: string;
  /** What the logs name this capture by (its Reader item's id): never the URL, which is the member's own reading. */
  logId?: string;
  mode: CaptureMode;
  /** An empty directory the engine owns for this capture; the service swaps it into place on success. */
  outDir: string;
  /**
   * The URL prefix under which outDir will be served (e.g. `/api/reader/<id>/archive/`), used to
   * point the reader view's images at their local copies. Snapshot files reference assets relatively.
   */
  publicBase: string;
  /** DOM the user's browser rendered (POST /:id/snapshot, URLs already de-proxied); the first fallback. */
  clientSnapshot?: { html: string; url: string } | null;
  signal?: AbortSignal;
  /** Filled in as the capture goes: the milliseconds each of its phases took (phaseClock). */
  timings?: CaptureTimings;
}

/**
 * Milliseconds per phase of one capture, by name: in the browser `browser` (a context, launching
 * Chromium when it is not running), `navigate` (to DOMContentLoaded), `settle` (until the page's
 * own requests have ended), `challenge`, `scroll` (archive mode: lazy pictures), `screenshot`,
 * `serialize`; then `prepare` (parse, Readability, DOMPurify in the parse worker), `assets`
 * (local copies through the guard), `render` (both documents written), `images` (screenshot and
 * og:image still being written when the rest was done); the queue adds `icon` (the site's icon,
 * still being fetched when the capture was done). `static` is the static fetch. A phase that runs
 * more than once (a fallback) adds up.
 */
export type CaptureTimings = Record<string, number>;

/** A lap timer over `timings`: each call adds the time since the previous one (or since it was made) to `name`. */
export function phaseClock(timings: CaptureTimings | undefined): (name: string) => void {
  let last = performance.now();
  return (name) => {
    const now = performance.now();
    if (timings) timings[name] = Math.round((timings[name] ?? 0) + now - last);
    last = now;
  };
}

export interface CaptureResult {
  /** The URL after redirects. */
  finalUrl: string;
  /** Which path produced the content. */
  method: 'browser' | 'client-snapshot' | 'static';
  title: string | null;
  byline: string | null;
  siteName: string | null;
  excerpt: string | null;
  /** Absolute http(s) URL of the page's declared icon, else /favicon.ico on its origin; null for a non-http page. */
  faviconUrl: string | null;
  lang: string | null;
  publishedTime: string | null;
  /** Sanitized reader view (Readability + DOMPurify); images point at `${publicBase}assets/...`. null in thumbnail mode. */
  contentHtml: string | null;
  /** Plain text of the reader view; drives search, summaries and change detection. '' in thumbnail mode. */
  contentText: string;
  wordCount: number;
  readingMins: number;
  /** Paths relative to outDir, or null when that artifact could not be produced. */
  snapshotPath: string | null; // 'index.html' (scripts removed, assets under assets/)
  screenshotPath: string | null; // 'screenshot.png'
  ogImagePath: string | null; // 'og-image.<ext>'
}

export type CaptureErrorCode =
  | 'blocked_url' // the SSRF guard refused the address (top URL or a redirect hop)
  | 'challenge' // a bot wall / captcha interstitial: never indexed, summarized or counted as a change
  | 'unreachable' // DNS, connection refused, reset
  | 'http_error' // the site answered 4xx/5xx
  | 'timeout'
  | 'not_html' // a PDF, image or other non-page response
  | 'disk_full' // the data disk cannot hold a capture beside its reserve
  | 'cancelled';

/** A failed capture; `message` is written to archiveError and shown to the household as is. */
export class CaptureError extends Error {
  constructor(
    readonly code: CaptureErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CaptureError';
  }
}

export interface CaptureEngine {
  capture(req: CaptureRequest): Promise<CaptureResult>;
  /** Closes the shared browser; further captures reopen it. */
  close(): Promise<void>;
}
