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
