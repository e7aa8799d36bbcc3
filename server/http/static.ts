// Serves the built web app (with index.html for client routes) and the user docs at /docs, and
// the HTML pages of this layer (not built yet, not found, wrong host). Every HTML response gets a
// CSP and frame protection: nothing frames the app or the docs (the app frames only the archive
// view and reader pages, which send their own headers).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { lazyImport } from '../platform/lazy.js';
import { resolveInside } from '../platform/path-guard.js';

/** The web app's CSP; `scripts` are the hashes of the inline scripts its index.html may run. */
const appCsp = (scripts: readonly string[]) => [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  // 'wasm-unsafe-eval': compiling WebAssembly (the wake-word runtime, served by Hearth itself), not eval
  ["script-src 'self' 'wasm-unsafe-eval'", ...scripts.map((h) => `'${h}'`)].join(' '),
  "connect-src 'self'",
  // the Reader's embedded view frames a saved live page from its own site (only when that site allows it)
  "frame-src 'self' https: http:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const INLINE_SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi;

/**
 * The sha256 sources of the inline scripts in a built index.html: the start-up loader the build
 * writes there (renderer/first-paint.ts) runs by its hash, and no other inline script can. A script
 * with a src, or a data block (type="application/json"), is not hashed: it is not run inline.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attrs = '', body] of html.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = /\stype\s*=\s*"([^"]*)"/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript') continue;
    hashes.push(`sha256-${createHash('sha256').update(body ?? '', 'utf8').digest('base64')}`);
  }
  return hashes;
}

/** The app's CSP for the index.html in `webDir`, read again only when that file changes (a new build). */
function appCspFor(webDir: string): () => string {
  const indexFile = path.join(webDir, 'index.html');
  let seen: { mtimeMs: number; size: number; csp: string } | undefined;
  return () => {
    const stat = statSync(indexFile, { throwIfNoEntry: false });
    if (!stat) return appCsp([]);
    if (seen?.mtimeMs !== stat.mtimeMs || seen.size !== stat.size) {
      seen = { mtimeMs: stat.mtimeMs, size: stat.size, csp: appCsp(inlineScriptHashes(readFileSync(indexFile, 'utf8'))) };
    }
    return seen.csp;
  };
}

/** Pages made here: their own inline style, nothing else. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The CSP and frame protection every HTML response of the app and the docs carries. */
function setHtmlHeaders(res: Response, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Frame-Options', 'DENY');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function plainPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:17px/1.5 system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;padding:1rem;text-align:center;background:#fbf7f1;color:#2b2118}main{max-width:28rem}h1{font-size:1.3rem}a{color:#b4461a;overflow-wrap:anywhere}
@media (prefers-color-scheme:dark){body{background:#17130f;color:#e8e2da}a{color:#f08a5d}}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

function sendPage(res: Response, status: number, title: string, body: string): void {
  setHtmlHeaders(res, PAGE_CSP);
  res.status(status).set('Cache-Control', 'no-store').type('html').send(plainPage(title, body));
}

/** The page for the web app and the docs asked for under a name that is not a home address. */
export function sendWrongHostPage(res: Response, addresses: string[]): void {
  const links = addresses.map((a) => `<a href="${escapeHtml(a)}/">${escapeHtml(a)}</a>`).join(' or ');
  sendPage(
    res,
    403,
    'Open Hearth at its own address',
    `<p>This address is not Hearth’s, so Hearth will not answer here: another website may be trying to reach it through your browser.</p><p>Open Hearth at ${links}, or from the Hearth window on the computer it runs on.</p>`,
  );
}

/** A path that cannot be decoded or tries to climb (../, NUL, backslash) is a 404 everywhere. */
function isBadPath(rawPath: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return true;
  }
  return decoded.includes('\0') || decoded.split(/[\\/]/).some((s) => s === '..' || s === '.');
}

/** What the build compresses (renderer/precompress.ts) and the type each is sent as. */
const COMPRESSIBLE: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Sends the build's .br or .gz twin of a web app file when the browser takes that encoding (the
 * build writes them next to the file, so nothing is compressed per request); the file itself
 * otherwise, through express.static. Same caching as the plain file: hashed assets forever.
 */
function precompressed(webDir: string, csp: (req: Request) => string): RequestHandler {
  return (req, res, next) => {
    const file = resolveInside(webDir, decodeURIComponent(req.path).replace(/^\/+/, ''));
    if (!file || !statSync(file, { throwIfNoEntry: false })?.isFile()) return next();
    if (!sendTwin(req, res, next, file, csp)) next();
  };
}

/** Sends `file`'s .br or .gz twin if it has one the browser takes (false: it has none; send the file itself). */
function sendTwin(req: Request, res: Response, next: NextFunction, file: string, csp: (req: Request) => string): boolean {
  const type = COMPRESSIBLE[path.extname(file)];
  if (!type) return false;
  res.vary('Accept-Encoding');
  const accepts = String(req.headers['accept-encoding'] ?? '');
  const encoding = [
    { name: 'br', ext: '.br' },
    { name: 'gzip', ext: '.gz' },
  ].find((e) => new RegExp(`\\b${e.name}\\b(?!;q=0(\\.0*)?\\b)`).test(accepts) && existsSync(file + e.ext));
  if (!encoding) return false;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Encoding', encoding.name);
  if (file.endsWith('.html')) setHtmlHeaders(res, csp(req));
  res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
  res.sendFile(file + encoding.ext, { cacheControl: false }, (err) => {
    if (err && !res.headersSent) next(err);
  });
  return true;
}

/**
 * `secureOrigin` (issue 31): on the plain address, the HTTPS origin the page may probe (the web app
 * asks it whether this device trusts the household certificate), added to connect-src for that
 * page only; null where there is none (HTTPS off, or the page is on the secure address already).
 */
export function webAppRouter(webDir: string, opts: { secureOrigin?: (req: Request) => string | null } = {}): Router {
  const router = express.Router();
  const indexFile = path.join(webDir, 'index.html');
  const baseCsp = appCspFor(webDir);
  const csp = (req: Request) => {
    const origin = req.secure ? null : (opts.secureOrigin?.(req) ?? null);
    return origin ? baseCsp().replace("connect-src 'self'", `connect-src 'self' ${origin}`) : baseCsp();
  };
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendPage(res, 404, 'Page not found', '<p>There is nothing to send here. <a href="/">Go to Hearth’s home page</a>.</p>');
      return;
    }
    if (isBadPath(req.path)) {
      sendPage(res, 404, 'Page not found', '<p>That address is not valid. <a href="/">Go to Hearth’s home page</a>.</p>');
      return;
    }
    next();
  });
  router.use(precompressed(webDir, csp));
  router.use(
    express.static(webDir, {
      index: false,
      maxAge: '1y',
      immutable: true,
      setHeaders: (res, file) => {
        // hashed assets cache forever; anything else revalidates
        if (!file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'no-cache');
        // /index.html asked for by name is the same page as every client route
        if (file.endsWith('.html')) setHtmlHeaders(res, csp(res.req));
      },
    }),
  );
  const sendIndex: RequestHandler = (req, res, next) => {
    if (!existsSync(indexFile)) {
      sendPage(res, 503, 'Hearth', '<p>The web app has not been built yet. Run <code>npm run build</code>, then reload.</p>');
      return;
    }
    // compressed as /index.html is (with the start-up loader inlined it is 18 KB, 5 KB in gzip)
    if (sendTwin(req, res, next, indexFile, csp)) return;
    setHtmlHeaders(res, csp(req));
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  };
  router.use(sendIndex);
  return router;
}

function docPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Hearth docs</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:1rem 1.25rem 4rem;color:#1f2328}
a{color:#b4461a}pre,code{background:#f4f1ec;border-radius:4px}pre{padding:.75rem;overflow:auto}code{padding:.1rem .3rem}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left}
nav{margin-bottom:1rem;font-size:.9rem}@media (prefers-color-scheme:dark){body{background:#17130f;color:#eee}pre,code{background:#2a241e}a{color:#f08a5d}}</style>
</head><body><nav><a href="/docs/">Hearth docs</a> · <a href="/">Back to Hearth</a></nav><main>${body}</main></body></html>`;
}

const DOCS_CSP = "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'self'; form-action 'none'; frame-ancestors 'none'";

/** /docs/* — Markdown pages rendered to HTML; other files (images) served as they are. */
/** marked, imported at the first docs page (not at start). */
const loadMarked = lazyImport(() => import('marked'));

export function docsRouter(docsDir: string): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    setHtmlHeaders(res, DOCS_CSP);
    next();
  });
  router.get(/.*/, async (req, res) => {
    let rel: string;
    try {
      rel = decodeURIComponent(req.path).replace(/^\/+/, '');
    } catch {
      res.status(404).type('html').send(docPage('Not found', '<h1>Not found</h1>'));
      return;
    }
    if (rel === '' || rel.endsWith('/')) rel += 'index.md';
    const candidates = rel.endsWith('.md') ? [rel] : [rel, `${rel}.md`];
    for (const c of candidates) {
      const file = resolveInside(docsDir, c);
      if (!file || !existsSync(file) || !statSync(file).isFile()) continue;
      if (file.endsWith('.md')) {
        const md = readFileSync(file, 'utf8');
        // Markdown links between docs point at .md files; serve them at the same paths.
        const { marked } = await loadMarked();
        const html = (marked.parse(md, { async: false }) as string).replace(/href="(?!https?:|\/|#)([^"]+?)\.md(#[^"]*)?"/g, 'href="$1$2"');
        const title = /^#\s+(.+)$/m.exec(md)?.[1] ?? 'Hearth';
        res.type('html').send(docPage(escapeHtml(title), html));
        return;
      }
      res.sendFile(file, { dotfiles: 'deny' });
      return;
    }
    res.status(404).type('html').send(docPage('Not found', '<h1>Not found</h1><p>There is no such page in the docs.</p>'));
  });
  return router;
}
