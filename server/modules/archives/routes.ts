import { parse as parseCookie } from 'cookie';
import type { ErrorRequestHandler, Request, Response } from 'express';
import { NotFoundError } from '../../errors.js';
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, events } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import { ARCHIVE_CONTENT_HEADERS, friendlyPage } from './proxy.js';
import {
  ArchiveCatalogResponse,
  ArchiveDownloadEvents,
  ArchiveLevelBody,
  ArchiveLevelResponse,
  ArchiveSearchResponse,
  ArchivesStatus,
  CancelDownloadResponse,
  DeleteArchiveResponse,
  DownloadBody,
  InstalledArchivesResponse,
  RuntimeInstallEvents,
  SearchQuery,
  SourceParams,
  VerifyArchivesResponse,
} from './schema.js';
import type { ArchiveContentService } from './content-service.js';
import type { ArchiveDownloadsService } from './downloads-service.js';
import type { ArchiveRuntimeService } from './runtime-service.js';
import type { ArchivesService } from './service.js';

/**
 * Copies an archive-server body to the client with backpressure. A client that goes away ends the
 * copy (and the upstream request); an upstream that breaks cuts the client's response. (Plain
 * pipe: stream/promises' pipeline builds an AbortController and a DOMException per call, which
 * showed in the proxy's profile.)
 */
function streamTo(body: NodeJS.ReadableStream & { destroy(): void; readableEnded: boolean }, res: Response): Promise<void> {
  return new Promise((resolve) => {
    body.once('error', () => {
      res.destroy();
      resolve();
    });
    res.once('close', () => {
      if (!body.readableEnded) body.destroy();
      resolve();
    });
    body.pipe(res);
  });
}

/** The still-encoded path after /view/:sourceId/ (express decodes params; the proxy needs the raw form). */
function rawViewPath(req: Request, sourceId: string): string {
  const url = req.originalUrl.split('?')[0]!;
  const marker = `/view/${encodeURIComponent(sourceId)}`;
  const at = url.indexOf(marker);
  return at < 0 ? '' : url.slice(at + marker.length).replace(/^\//, '');
}

/** PUT /api/admin/content/archives/:sourceId (the content group's admin routes; the level lives on the archive's row). */
export function createArchiveLevelRoutes(archives: ArchivesService) {
  return defineRoutes((r) => {
    r.put('/:sourceId', { access: 'admin', response: ArchiveLevelResponse }, (req) =>
      archives.setContentLevel(actorOf(req), parse(SourceParams, req.params).sourceId, parse(ArchiveLevelBody, req.body).level),
    );
  });
}

export function createArchiveRoutes(archives: ArchivesService) {
  return defineRoutes((r) => {
    r.get('/installed', { access: 'user', response: InstalledArchivesResponse }, (req) => archives.installedView(actorOf(req)));
    r.get('/status', { access: 'user', response: ArchivesStatus }, () => archives.statusView());
    r.get('/search', { access: 'user', response: ArchiveSearchResponse }, (req) => {
      const { q, sources, limit } = parse(SearchQuery, req.query);
      return archives.search(actorOf(req), q, sources, limit);
    });

    r.get('/favicon/:sourceId', { access: 'user', response: bytes('the archive\'s icon (image/png or as the archive stores it); 404 JSON without one') }, async (req, res) => {
      const icon = await archives.favicon(parse(SourceParams, req.params).sourceId);
      if (!icon) throw new NotFoundError('This archive has no icon.');
      res.set({ 'Content-Type': icon.type, 'Cache-Control': 'private, max-age=86400' }).send(icon.body);
    });
  });
}

/**
 * The content proxy, mounted at /api/archives/view ahead of the session lookup: the content is the
 * same for everyone (no auth by design, spec), so the session cookie the reader's iframe carries
 * is not resolved for every page and image.
 */
export function createArchiveContentRoutes(content: ArchiveContentService) {
  /** An archive's entry as the archive server has it (a rewritten page, an image, a range), or a friendly HTML page. */
  const VIEW = bytes('text/html for pages and the friendly pages; any type an archive entry has');
  const routes = defineRoutes((r) => {
    // Unauthenticated by design (spec): static archive content, kept same-origin for the reader's
    // iframe. It reaches only that book's pages, search and random.
    const view = async (req: Request, res: Response) => {
      res.set(ARCHIVE_CONTENT_HEADERS);
      const params = SourceParams.safeParse(req.params);
      const theme = parseCookie(req.headers.cookie ?? '')['ld-theme'];
      const dark = theme === 'dark';
      if (!params.success) {
        res.status(404).set('Cache-Control', 'no-store').type('html').send(friendlyPage({ title: 'This archive is not installed', message: 'Check the address.', dark }));
        return;
      }
      const sourceId = params.data.sourceId;
      const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
      const out = await content.view(sourceId, rawViewPath(req, sourceId), query, { dark, followDevice: theme === undefined, range: req.get('range') });
      if (out.kind === 'stream') {
        res.status(out.status).set(out.headers);
        await streamTo(out.body, res);
        return;
      }
      if (out.kind === 'body') {
        res.status(out.status).set(out.headers);
        if (!Array.isArray(out.body)) {
          res.end(out.body);
          return;
        }
        // the parts leave in one write (writev), without being copied into one buffer first
        res.cork();
        for (const part of out.body) res.write(part);
        res.end();
        res.uncork();
        return;
      }
      res.status(out.status).set({ 'Cache-Control': 'no-store', ...out.headers }).type('html').send(out.html);
    };
    r.get('/:sourceId', { access: 'none', response: VIEW }, view);
    r.get('/:sourceId/*rest', { access: 'none', response: VIEW }, view);
  });
  // A path the router cannot decode (a bad escape such as %c0%ae) is a traversal attempt like any
  // other: the friendly 404 page, not the router's 400 (DESIGN: path traversal anywhere is 404).
  const onBadPath: ErrorRequestHandler = (err, req, res, next) => {
    if (!(err instanceof URIError) || res.headersSent) return next(err);
    res.set(ARCHIVE_CONTENT_HEADERS);
    const dark = parseCookie(req.headers.cookie ?? '')['ld-theme'] === 'dark';
    res.status(404).set('Cache-Control', 'no-store').type('html').send(friendlyPage({ title: 'Page not found', message: 'That address is not valid.', dark }));
  };
  routes.router.use(onBadPath);
  return routes;
}

export function createArchiveAdminRoutes(archives: ArchivesService, downloads: ArchiveDownloadsService, runtime: ArchiveRuntimeService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/catalog', { access: 'admin', response: ArchiveCatalogResponse }, async (req) => ({ sources: await downloads.catalogView(actorOf(req)), status: archives.status() }));

    // A download starts only on a POST (a GET must change nothing: a cross-site link followed with
    // the admin's Lax cookie would start a 100 GB download). The stream is the starter's: when it
    // goes away the download stops, and its partial file stays for a resume.
    r.post('/download/:sourceId', { access: 'admin', response: events(ArchiveDownloadEvents) }, async (req, res) => {
      const { sourceId } = parse(SourceParams, req.params);
      const { variantKey } = parse(DownloadBody, req.body ?? {});
      await sse.run(req, res, async (open) => {
        downloads.prepareDownload(actorOf(req), sourceId, variantKey); // refusals are plain HTTP errors
        await downloads.download(actorOf(req), sourceId, variantKey, open());
      });
    });

    // The spec's GET stream only watches a running download: its last status and progress, then
    // the live events until it ends. Nothing runs that was not started.
    r.get('/download/:sourceId', { access: 'admin', response: events(ArchiveDownloadEvents) }, async (req, res) => {
      const { sourceId } = parse(SourceParams, req.params);
      await sse.run(req, res, async (open) => {
        downloads.prepareWatch(actorOf(req), sourceId); // 404 when nothing is downloading
        await downloads.watchDownload(actorOf(req), sourceId, open());
      });
    });

    r.post('/install-kiwix', { access: 'admin', response: events(RuntimeInstallEvents) }, async (req, res) => {
      await sse.run(req, res, async (open) => {
        runtime.prepareInstallRuntime(actorOf(req)); // refusals (offline, macOS without Homebrew's kiwix-serve) are plain HTTP errors
        await runtime.installRuntime(actorOf(req), open());
      });
    });

    r.post('/cancel/:sourceId', { access: 'admin', response: CancelDownloadResponse }, (req) => downloads.cancel(actorOf(req), parse(SourceParams, req.params).sourceId));
    r.post('/verify', { access: 'admin', response: VerifyArchivesResponse }, (req) => archives.verify(actorOf(req)));
    r.delete('/:sourceId', { access: 'admin', response: DeleteArchiveResponse }, (req) => archives.remove(actorOf(req), parse(SourceParams, req.params).sourceId));
  });
}
