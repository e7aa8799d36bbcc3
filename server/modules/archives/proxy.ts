// Pure helpers of the content proxy: path decoding/encoding per segment, Location handling, and the
// HTML rewrite (absolute archive-server paths onto the view base, a base tag for the final entry,
// the archive server's bar hidden, and the dark-mode payload).

/** The first value of a response header (node gives repeated headers as an array). */
export const headerValue = (h: Record<string, string | string[] | undefined>, n: string): string | undefined => {
  const v = h[n];
  return Array.isArray(v) ? v[0] : v;
};

/** Splits a raw (still %-encoded) path into decoded segments; null when it cannot be decoded or tries to climb. */
export function decodeSegments(raw: string): string[] | null {
  const segments = raw.split('/');
  const out: string[] = [];
  for (const s of segments) {
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      return null;
    }
    if (d === '.' || d === '..' || d.includes('\0')) return null;
    out.push(d);
  }
  return out;
}

/** Encodes each segment so characters like ?, #, % and + reach the archive server as path characters. */
export const encodeSegments = (segments: string[]) => segments.map((s) => encodeURIComponent(s)).join('/');

/**
 * The in-book path a redirect points to. kiwix-serve sends a root-relative Location with non-ASCII
 * and % escaped but ? left raw (A/Why?), so the whole remainder is the path, not a query.
 */
export function pathFromLocation(location: string, bookHref: string): string[] | null {
  let loc = location;
  try {
    const u = new URL(location);
    loc = location.slice(u.origin.length);
  } catch {
    // already root-relative
  }
  const prefix = `${bookHref}/`;
  if (!loc.startsWith(prefix)) return null;
  return decodeSegments(loc.slice(prefix.length));
}

/**
 * The policy of every archive-content response. Archive pages are other people's HTML served on
 * Hearth's origin, so they run sandboxed in an opaque origin (no allow-same-origin): their
 * scripts may run (some archives need them) but are not Hearth's origin, so nothing they do
 * carries the household's session or reads the app. Frames and workers are closed too (a frame
 * onto one of the app's own pages was how a script reached /api), as are popups and navigating
 * the app; forms may only target the archive's own pages. Only Hearth's own pages may frame it.
 */
export function archiveContentCsp(nonce?: string): string {
  return [
    'sandbox allow-scripts allow-forms',
    "default-src 'self' data: blob:",
    `script-src 'self' 'unsafe-inline'${nonce ? ` 'nonce-${nonce}'` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "frame-ancestors 'self'",
    "form-action 'self'",
    "base-uri 'self'",
  ].join('; ');
}

/** The headers every archive-content response carries (a page's CSP adds its nonce). */
export const ARCHIVE_CONTENT_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': archiveContentCsp(),
  'X-Frame-Options': 'SAMEORIGIN',
};

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const HIDE_BAR_CSS = 'span.kiwix,#kiwixtoolbar{display:none!important}html body{padding-top:0!important}';

export const DARK_CSS =
  'html{color-scheme:dark}html,body{background:#17130f!important;color:#e8e2da!important}' +
  'a{color:#f0a27a!important}img,video,svg{filter:brightness(.88)}table,th,td,div,section,aside{background-color:transparent!important;border-color:#4a4038!important}' +
  'pre,code{background:#2a241e!important;color:#e8e2da!important}';

const DARK_SCRIPT = "document.documentElement.dataset.theme='dark';";
const DEVICE_DARK_SCRIPT = "if(matchMedia('(prefers-color-scheme: dark)').matches)document.documentElement.dataset.theme='dark';";

export interface RewriteOptions {
  /** The book's content base on the archive server, e.g. "/fixturepedia_en_all_maxi_2024-05". */
  bookHref: string;
  /** The proxy's base for this book, e.g. "/api/archives/view/wikipedia/". */
  viewBase: string;
  /** The final entry's encoded path inside the book (after redirects). */
  finalPath: string;
  dark: boolean;
  /**
   * No theme cookie came with the request: dark follows the device's colour scheme, as the app's
   * own dark mode does. Links followed inside an archive page carry no cookies at all (it runs in
   * an opaque origin, so its navigations are cross-site), and must stay in the reader's theme.
   */
  followDevice?: boolean;
  /** Nonce for the injected inline script (the page's CSP allows it). */
  nonce?: string;
}

const ROOT_MARKER = '<link type="root" href="">';

// The patterns per book are built once (a page view must not compile regular expressions).
const bookPatterns = new Map<string, { attr: RegExp; cssUrl: RegExp }>();
function patternsFor(bookHref: string) {
  let p = bookPatterns.get(bookHref);
  if (!p) {
    const book = escapeRegExp(bookHref);
    p = {
      attr: new RegExp(`(\\s(?:href|src|action|poster|data)\\s*=\\s*["'])${book}/`, 'gi'),
      cssUrl: new RegExp(`url\\((\\s*["']?)${book}/`, 'gi'),
    };
    bookPatterns.set(bookHref, p);
  }
  return p;
}

/** What a page's rewrite depends on apart from the theme and nonce (fixed for one cached entry). */
export type PageOptions = Pick<RewriteOptions, 'bookHref' | 'viewBase' | 'finalPath'>;

/**
 * Everything but the injection. Each rewrite runs only when a cheap substring test finds something
 * to rewrite: ZIM content links are relative, so on most pages nothing changes here.
 */
function rewriteLinks(html: string, o: PageOptions): string {
  let out = html;
  // kiwix's own root marker (with -n the only thing it injects; exactly this string on 3.3)
  const marker = out.indexOf(ROOT_MARKER);
  if (marker >= 0) out = out.slice(0, marker) + out.slice(marker + ROOT_MARKER.length);
  if (/type=["']?root/i.test(out)) out = out.replace(/<link[^>]*type=["']root["'][^>]*>/gi, '');
  if (out.includes(`${o.bookHref}/`)) {
    const p = patternsFor(o.bookHref);
    // absolute book paths in attributes: href="/<book>/A/x" -> href="<viewBase>A/x"
    out = out.replace(p.attr, `$1${o.viewBase}`);
    // ... and in CSS url(): url(/<book>/I/x.png), url("/<book>/...")
    out = out.replace(p.cssUrl, `url($1${o.viewBase}`);
  }
  // kiwix's search page pager and its random link
  if (out.includes('/search?')) out = out.replace(/(\s(?:href|action)\s*=\s*["'])\/search\?/gi, `$1${o.viewBase}search?`);
  if (out.includes('/random?')) out = out.replace(/(\s(?:href|action)\s*=\s*["'])\/random\?content=[^"']*/gi, `$1${o.viewBase}random`);
  return out;
}

/** Where the injection goes in rewritten text: right after <head ...>, else at the very start. */
function injectionPoint(html: string): number {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  return head ? head.index + head[0].length : 0;
}

export function rewriteHtml(html: string, o: RewriteOptions): string {
  const out = rewriteLinks(html, o);
  const at = injectionPoint(out);
  return out.slice(0, at) + injection(o) + out.slice(at);
}

/** What goes first in <head>: the base tag for the final entry, the bar hidden, the dark payload. */
export function injection(o: RewriteOptions): string {
  return (
    `<base href="${escapeAttr(o.viewBase + o.finalPath)}">` +
    `<style>${HIDE_BAR_CSS}</style>` +
    (o.dark
      ? `<style>${DARK_CSS}</style><script${o.nonce ? ` nonce="${o.nonce}"` : ''}>${DARK_SCRIPT}</script>`
      : o.followDevice
        ? `<style>@media (prefers-color-scheme:dark){${DARK_CSS}}</style><script${o.nonce ? ` nonce="${o.nonce}"` : ''}>${DEVICE_DARK_SCRIPT}</script>`
        : '')
  );
}

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x0c;

/** Where the content of <head ...> starts (after its '>'), or -1: the rule of the regex in injectionPoint. */
function headEnd(page: Buffer): number {
  for (let at = page.indexOf(0x3c); at >= 0 && at + 5 < page.length; at = page.indexOf(0x3c, at + 1)) {
    // "<head" in any letter case (| 0x20 lower-cases ASCII letters), then ">" or a space: not <header>
    if ((page[at + 1]! | 0x20) !== 0x68 || (page[at + 2]! | 0x20) !== 0x65 || (page[at + 3]! | 0x20) !== 0x61 || (page[at + 4]! | 0x20) !== 0x64) continue;
    const next = page[at + 5];
    if (next === 0x3e) return at + 6;
    if (isSpace(next)) {
      const close = page.indexOf(0x3e, at + 5);
      return close < 0 ? -1 : close + 1;
    }
  }
  return -1;
}

/** A page rewritten once: the response is `before`, then the per-request injection, then `after`. */
export interface PreparedPage {
  before: Buffer;
  after: Buffer;
}

/**
 * The rewrite of a page's bytes up to the injection, done once per entry (the proxy's cache keeps
 * it), so a page view only builds the small injection with its nonce and theme. kiwix-serve leaves
 * content as the scraper wrote it (relative links; an archive cannot know the URL segment kiwix
 * derives from the file name), and with -n it adds only its root marker before </head>. So a
 * content page is only searched for the book's absolute prefix and gets the marker removed, with
 * no decoding and re-encoding of the whole page. Anything unexpected goes through the text rewrite,
 * and so must kiwix's own pages (search results with their pager): the caller knows which those are.
 */
export function preparePage(page: Buffer, o: PageOptions): PreparedPage {
  const headClose = page.indexOf('</head>');
  const headPart = headClose < 0 ? page : page.subarray(0, headClose);
  let body = page;
  const marker = headPart.indexOf(ROOT_MARKER);
  if (marker >= 0) body = Buffer.concat([page.subarray(0, marker), page.subarray(marker + ROOT_MARKER.length)]);
  const headText = headPart.toString('latin1');
  const otherMarker = /type=["']?root/i.test(marker >= 0 ? headText.replace(ROOT_MARKER, '') : headText);
  if (otherMarker || body.includes(`${o.bookHref}/`)) {
    const text = rewriteLinks(body.toString('utf8'), o);
    const at = injectionPoint(text);
    return { before: Buffer.from(text.slice(0, at)), after: Buffer.from(text.slice(at)) };
  }
  const at = Math.max(0, headEnd(body));
  return { before: body.subarray(0, at), after: body.subarray(at) };
}

export function friendlyPage(opts: { title: string; message: string; retrySeconds?: number; dark?: boolean }): string {
  const refresh = opts.retrySeconds ? `<meta http-equiv="refresh" content="${opts.retrySeconds}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
<title>${escapeAttr(opts.title)}</title><style>body{font:17px/1.5 system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;padding:1rem;text-align:center;background:${opts.dark ? '#17130f;color:#e8e2da' : '#fbf7f1;color:#2b2118'}}main{max-width:26rem}h1{font-size:1.3rem}</style></head>
<body><main><h1>${escapeAttr(opts.title)}</h1><p>${escapeAttr(opts.message)}</p>${opts.retrySeconds ? '<p><small>This page will try again by itself.</small></p>' : ''}</main></body></html>`;
}
