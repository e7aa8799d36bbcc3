// Pure helpers of the content proxy: path decoding/encoding per segment, Location handling, and the
// HTML rewrite (absolute archive-server paths onto the view base, a base tag for the final entry,
// the archive server's bar hidden, and the dark-mode payload).

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

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const HIDE_BAR_CSS = 'span.kiwix,#kiwixtoolbar{display:none!important}html body{padding-top:0!important}';

export const DARK_CSS =
  'html{color-scheme:dark}html,body{background:#17130f!important;color:#e8e2da!important}' +
  'a{color:#f0a27a!important}img,video,svg{filter:brightness(.88)}table,th,td,div,section,aside{background-color:transparent!important;border-color:#4a4038!important}' +
  'pre,code{background:#2a241e!important;color:#e8e2da!important}';

// Keeps links that open new windows inside the frame and tells the parent page the article title.
const DARK_SCRIPT = "document.documentElement.dataset.theme='dark';";

export interface RewriteOptions {
  /** The book's content base on the archive server, e.g. "/fixturepedia_en_all_maxi_2024-05". */
  bookHref: string;
  /** The proxy's base for this book, e.g. "/api/archives/view/wikipedia/". */
  viewBase: string;
  /** The final entry's encoded path inside the book (after redirects). */
  finalPath: string;
  dark: boolean;
  /** Nonce for the injected inline script (the page's CSP allows it). */
  nonce?: string;
}

export function rewriteHtml(html: string, o: RewriteOptions): string {
  const book = escapeRegExp(o.bookHref);
  let out = html
    // kiwix's own root marker
    .replace(/<link[^>]*type=["']root["'][^>]*>/gi, '')
    // absolute book paths in attributes: href="/<book>/A/x" -> href="<viewBase>A/x"
    .replace(new RegExp(`(\\s(?:href|src|action|poster|data)\\s*=\\s*["'])${book}/`, 'gi'), `$1${o.viewBase}`)
    // ... and in CSS url(): url(/<book>/I/x.png), url("/<book>/...")
    .replace(new RegExp(`url\\((\\s*["']?)${book}/`, 'gi'), `url($1${o.viewBase}`)
    // kiwix's search page pager and its random link
    .replace(/(\s(?:href|action)\s*=\s*["'])\/search\?/gi, `$1${o.viewBase}search?`)
    .replace(/(\s(?:href|action)\s*=\s*["'])\/random\?content=[^"']*/gi, `$1${o.viewBase}random`);
  const inject =
    `<base href="${escapeAttr(o.viewBase + o.finalPath)}">` +
    `<style>${HIDE_BAR_CSS}</style>` +
    (o.dark ? `<style>${DARK_CSS}</style><script${o.nonce ? ` nonce="${o.nonce}"` : ''}>${DARK_SCRIPT}</script>` : '');
  const head = /<head(\s[^>]*)?>/i.exec(out);
  if (head) out = out.slice(0, head.index + head[0].length) + inject + out.slice(head.index + head[0].length);
  else out = inject + out;
  return out;
}

export function friendlyPage(opts: { title: string; message: string; retrySeconds?: number; dark?: boolean }): string {
  const refresh = opts.retrySeconds ? `<meta http-equiv="refresh" content="${opts.retrySeconds}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
<title>${escapeAttr(opts.title)}</title><style>body{font:17px/1.5 system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;padding:1rem;text-align:center;background:${opts.dark ? '#17130f;color:#e8e2da' : '#fbf7f1;color:#2b2118'}}main{max-width:26rem}h1{font-size:1.3rem}</style></head>
<body><main><h1>${escapeAttr(opts.title)}</h1><p>${escapeAttr(opts.message)}</p>${opts.retrySeconds ? '<p><small>This page will try again by itself.</small></p>' : ''}</main></body></html>`;
}
