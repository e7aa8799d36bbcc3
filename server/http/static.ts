// Serves the built web app (with index.html for client routes) and the user docs at /docs.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import { marked } from 'marked';
import { resolveInside } from '../platform/path-guard.js';

const APP_CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "connect-src 'self'",
  // the Reader's embedded view frames a saved live page from its own site (only when that site allows it)
  "frame-src 'self' https: http:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

export function webAppRouter(webDir: string): Router {
  const router = express.Router();
  const indexFile = path.join(webDir, 'index.html');
  router.use(
    express.static(webDir, {
      index: false,
      maxAge: '1y',
      immutable: true,
      setHeaders: (res, file) => {
        // hashed assets cache forever; anything else revalidates
        if (!file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'no-cache');
      },
    }),
  );
  const sendIndex: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!existsSync(indexFile)) {
      res
        .status(503)
        .type('html')
        .send('<!doctype html><meta charset="utf-8"><title>Hearth</title><p>The web app has not been built yet. Run <code>npm run build</code>, then reload.</p>');
      return;
    }
    res.setHeader('Content-Security-Policy', APP_CSP);
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

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** /docs/* — Markdown pages rendered to HTML; other files (images) served as they are. */
export function docsRouter(docsDir: string): Router {
  const router = express.Router();
  router.get(/.*/, (req, res) => {
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
        const html = (marked.parse(md, { async: false }) as string).replace(/href="(?!https?:|\/|#)([^"]+?)\.md(#[^"]*)?"/g, 'href="$1$2"');
        const title = /^#\s+(.+)$/m.exec(md)?.[1] ?? 'Hearth';
        res.setHeader('Content-Security-Policy', "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:");
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
