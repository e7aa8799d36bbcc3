// /api/reader (members), /api/admin/reader (global items), and the retired aliases /api/bookmarks,
// /api/admin/bookmarks and /api/proxy/:id, thin over the Reader services.
import type { Request, Response } from 'express';
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, events, NO_CONTENT, type RouteBuilder } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import { BadRequestError, NotFoundError } from '../../errors.js';
import {
  AdminCreateBody,
  AdminItemListResponse,
  AdminPatchBody,
  ARCHIVE_CSP,
  AiStatusResponse,
  AskResponse,
  ChangesResponse,
  CollectionIdParams,
  CollectionResponse,
  CollectionsResponse,
  CreateCollectionBody,
  CreateItemBody,
  HiddenResponse,
  ImportEvents,
  ImportQuery,
  ItemIdParams,
  ItemListResponse,
  ItemResponse,
  ListQuery,
  MAX_IMPORT_BYTES,
  MAX_SNAPSHOT_BYTES,
  MAX_THUMBNAIL_BYTES,
  PatchCollectionBody,
  PatchItemBody,
  ProbeQuery,
  ProbeResult,
  SnapshotBody,
  SummarizeResponse,
  TagsResponse,
} from './schema.js';
import { AskBody, type ReaderAiService } from './ai-service.js';
import { pipeToResponse, readRawBody } from '../../http/body.js';
import { sendArchiveFile, sendPieces } from './http-io.js';
import type { ReaderAccess } from './access-service.js';
import type { ReaderArchiveFiles } from './archive-files-service.js';
import type { ReaderCollectionsService } from './collections-service.js';
import type { ReaderItemsService } from './items-service.js';
import type { ReaderProbeService } from './probe-service.js';
import type { ReaderTransferService } from './transfer-service.js';

/** The Reader module's services, as the container wires them (each route calls the one it needs). */
export interface ReaderServices {
  access: ReaderAccess;
  items: ReaderItemsService;
  collections: ReaderCollectionsService;
  files: ReaderArchiveFiles;
  transfer: ReaderTransferService;
  probe: ReaderProbeService;
}

/** The still-encoded path after /:id<marker> (express decodes params; the path guard wants one decoding). */
function rawArchivePath(req: Request, marker: string): string {
  const url = req.originalUrl.split('?')[0]!;
  const rest = url.slice(req.baseUrl.length);
  const at = rest.indexOf(marker, 1);
  return at < 0 ? '' : rest.slice(at + marker.length);
}

/** PATCH and DELETE /:id on a member's own items (shared by /api/reader and /api/bookmarks). */
function ownItemRoutes(r: RouteBuilder, reader: ReaderServices) {
  r.patch('/:id', { access: 'user', response: ItemResponse }, async (req) => ({ item: await reader.items.update(actorOf(req), parse(ItemIdParams, req.params).id, parse(PatchItemBody, req.body)) }));
  r.delete('/:id', { access: 'user', response: NO_CONTENT }, async (req, res) => {
    await reader.items.remove(actorOf(req), parse(ItemIdParams, req.params).id);
    res.status(204).end();
  });
}

/** What a raw upload over its limit answers (413). */
const uploadTooLarge = (max: number) => `The upload is larger than ${Math.round(max / 1024 / 1024)} MB.`;

export function createReaderRoutes(reader: ReaderServices, sse: SseRegistry, ai: ReaderAiService) {
  const routes = defineRoutes((r) => {
    // Registered before /:id so "probe", "collections", "tags" are never taken for item ids.
    r.get('/ai-status', { access: 'user', response: AiStatusResponse }, () => ai.status());
    r.get('/probe', { access: 'user', response: ProbeResult }, (req) => reader.probe.probe(parse(ProbeQuery, req.query).url));

    r.get('/collections', { access: 'user', response: CollectionsResponse }, async (req) => ({ collections: await reader.collections.list(actorOf(req)) }));
    r.post('/collections', { access: 'user', response: CollectionResponse }, async (req, res) => {
      const collection = await reader.collections.create(actorOf(req), parse(CreateCollectionBody, req.body));
      res.status(201);
      return { collection };
    });
    r.patch('/collections/:id', { access: 'user', response: CollectionResponse }, async (req) => ({
      collection: await reader.collections.update(actorOf(req), parse(CollectionIdParams, req.params).id, parse(PatchCollectionBody, req.body)),
    }));
    r.delete('/collections/:id', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      await reader.collections.remove(actorOf(req), parse(CollectionIdParams, req.params).id);
      res.status(204).end();
    });

    r.get('/tags', { access: 'user', response: TagsResponse }, async (req) => ({ tags: await reader.collections.listTags(actorOf(req)) }));

    r.post('/import/html', { access: 'user', jsonLimit: false, response: events(ImportEvents) }, (req, res) =>
      sse.run(req, res, async (open) => {
        const { type } = parse(ImportQuery, req.query);
        const body = await readRawBody(req, MAX_IMPORT_BYTES, uploadTooLarge(MAX_IMPORT_BYTES));
        if (body.length === 0) throw new BadRequestError('Send the bookmarks file as the request body.');
        const stream = open();
        // a failure midway is an ImportFailedError: its error event says how many links were saved
        const done = await reader.transfer.importHtml(actorOf(req), body.toString('utf8'), type, (p) => stream.send('progress', p), stream.signal);
        stream.send('done', done);
      }),
    );
    r.get('/export/html', { access: 'user', response: bytes('text/html (a bookmarks file, as an attachment)') }, async (req, res) => {
      res.set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Disposition': 'attachment; filename="hearth-bookmarks.html"' });
      await sendPieces(res, reader.transfer.exportHtml(actorOf(req)));
    });
    r.get('/export/json', { access: 'user', response: bytes('application/json (the whole library, written out a page at a time, as an attachment)') }, async (req, res) => {
      res.set({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': 'attachment; filename="hearth-reader.json"' });
      await sendPieces(res, reader.transfer.exportJson(actorOf(req)));
    });

    r.put('/hide/:id', { access: 'user', response: HiddenResponse }, (req) => reader.items.hide(actorOf(req), parse(ItemIdParams, req.params).id));
    r.delete('/hide/:id', { access: 'user', response: HiddenResponse }, (req) => reader.items.unhide(actorOf(req), parse(ItemIdParams, req.params).id));

    r.get('/', { access: 'user', response: ItemListResponse }, (req) => reader.items.list(actorOf(req), parse(ListQuery, req.query)));
    r.post('/', { access: 'user', response: ItemResponse }, async (req, res) => {
      const item = await reader.items.create(actorOf(req), parse(CreateItemBody, req.body));
      res.status(201);
      return { item };
    });

    r.get('/:id', { access: 'user', response: ItemResponse }, async (req) => ({ item: await reader.items.get(actorOf(req), parse(ItemIdParams, req.params).id) }));
    ownItemRoutes(r, reader);

    r.post('/:id/rearchive', { access: 'user', response: ItemResponse }, async (req, res) => {
      const item = await reader.items.rearchive(actorOf(req), parse(ItemIdParams, req.params).id);
      res.status(202);
      return { item };
    });
    r.post('/:id/snapshot', { access: 'user', jsonLimit: MAX_SNAPSHOT_BYTES, response: ItemResponse }, async (req, res) => {
      const item = await reader.items.snapshot(actorOf(req), parse(ItemIdParams, req.params).id, parse(SnapshotBody, req.body));
      res.status(202);
      return { item };
    });
    r.post('/:id/thumbnail', { access: 'user', jsonLimit: false, response: ItemResponse }, async (req) => {
      const { id } = parse(ItemIdParams, req.params);
      const actor = actorOf(req);
      await reader.access.ownItem(actor, id);
      return { item: await reader.items.setThumbnail(actor, id, await readRawBody(req, MAX_THUMBNAIL_BYTES, uploadTooLarge(MAX_THUMBNAIL_BYTES))) };
    });

    r.get('/:id/archive/*rest', { access: 'user', response: bytes("a capture's file (its page as a 302 to the token path)") }, async (req, res) => {
      const { id } = parse(ItemIdParams, req.params);
      const rawPath = rawArchivePath(req, '/archive/');
      const opened = await reader.files.open(actorOf(req), id, rawPath);
      if (opened.kind === 'page') res.redirect(302, `${req.baseUrl}/${encodeURIComponent(id)}/archive-t/${opened.token}/${rawPath}`);
      else await sendArchiveFile(res, opened.file, { sameOriginOnly: true });
    });
    // Capability URLs for a snapshot and its assets (see archiveToken): no session, the signed
    // token names the user and expires; the item must still be visible to that user.
    r.get('/:id/archive-t/:token/*rest', { access: 'none', response: bytes("a capture's file: the page (text/html) or an asset, sandboxed") }, async (req, res) => {
      const { id } = parse(ItemIdParams, req.params);
      const token = String(req.params.token ?? '');
      const file = await reader.files.archiveFileByToken(id, token, rawArchivePath(req, `/archive-t/${token}/`));
      res.set('Cache-Control', 'private, max-age=3600');
      await sendArchiveFile(res, file, { sameOriginOnly: false });
    });

    r.get('/:id/favicon', { access: 'user', response: bytes('image/png or image/x-icon (the local copy of the site icon)') }, async (req, res) => {
      const icon = await reader.files.favicon(actorOf(req), parse(ItemIdParams, req.params).id);
      res
        .status(200)
        .set({
          'Content-Type': icon.contentType,
          'Cache-Control': 'private, max-age=86400',
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': ARCHIVE_CSP,
          'Cross-Origin-Resource-Policy': 'same-origin',
        })
        .send(icon.body);
    });

    r.get('/:id/changes', { access: 'user', response: ChangesResponse }, async (req) => ({ changes: await reader.items.changes(actorOf(req), parse(ItemIdParams, req.params).id) }));

    // AI (ai-service.ts): own or global items; summarize persists excerpt + tags on own items only.
    r.post('/:id/summarize', { access: 'user', response: SummarizeResponse }, (req) => ai.summarize(actorOf(req), parse(ItemIdParams, req.params).id));
    r.post('/:id/ask', { access: 'user', response: AskResponse }, (req) => ai.ask(actorOf(req), parse(ItemIdParams, req.params).id, parse(AskBody, req.body).question));
  });
  // The router refuses a path whose escapes do not decode (e.g. overlong "%c0%ae") with a 400
  // before any handler runs; under /archive/ that is a traversal attempt and answers 404 like the others.
  routes.router.use((err: unknown, req: Request, _res: Response, next: (err?: unknown) => void) => {
    if ((err as { status?: number }).status === 400 && /^\/[^/]+\/archive(-t\/[^/]+)?\//.test(req.path)) return next(new NotFoundError('That file is not part of this capture.'));
    next(err);
  });
  return routes;
}

/** /api/admin/reader and its retired alias /api/admin/bookmarks: global items (ownerId null, type live). */
export function createReaderAdminRoutes(reader: ReaderServices) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: AdminItemListResponse }, (req) => reader.items.adminList(actorOf(req)));
    r.post('/', { access: 'admin', response: ItemResponse }, async (req, res) => {
      const item = await reader.items.adminCreate(actorOf(req), parse(AdminCreateBody, req.body));
      res.status(201);
      return { item };
    });
    r.patch('/:id', { access: 'admin', response: ItemResponse }, async (req) => ({ item: await reader.items.adminUpdate(actorOf(req), parse(ItemIdParams, req.params).id, parse(AdminPatchBody, req.body)) }));
    r.delete('/:id', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await reader.items.adminRemove(actorOf(req), parse(ItemIdParams, req.params).id);
      res.status(204).end();
    });
  });
}

/** Retired: /api/bookmarks lists and creates live links; PATCH/DELETE as /api/reader. */
export function createLegacyBookmarkRoutes(reader: ReaderServices) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: ItemListResponse }, (req) => reader.items.list(actorOf(req), parse(ListQuery, { ...req.query, type: 'live' })));
    r.post('/', { access: 'user', response: ItemResponse }, async (req, res) => {
      const body = parse(CreateItemBody, req.body && typeof req.body === 'object' ? { ...(req.body as object), type: 'live' } : req.body);
      const item = await reader.items.create(actorOf(req), body);
      res.status(201);
      return { item };
    });
    ownItemRoutes(r, reader);
  });
}

/** Retired: /api/proxy/:id streams a live item's page (SSRF-guarded, size-capped, sandboxed, no cookies). */
export function createLegacyProxyRoutes(reader: ReaderServices) {
  return defineRoutes((r) => {
    r.get('/:id', { access: 'user', response: bytes('the live page as its site sent it (usually text/html), sandboxed') }, async (req, res) => {
      const controller = new AbortController();
      res.once('close', () => controller.abort());
      const page = await reader.probe.proxy(actorOf(req), parse(ItemIdParams, req.params).id, controller.signal);
      for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
      res.status(page.statusCode).set({ 'Content-Security-Policy': ARCHIVE_CSP, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
      await pipeToResponse(res, page.body);
    });
  });
}
