// Home videos under /api/mediaserver: the resumable upload (tus 1.0 with @tus/server and
// @tus/file-store at /me/uploads; the session and the member's library are checked before tus sees
// a request, and an upload belongs to the member who started it: another's is a 404), the list
// and delete, and the household's upload limits (admin). Partial uploads live under
// DATA_DIR/media-uploads until finished; abandoned ones expire (the module's scheduled cleanup
// removes them). Every refusal, tus's own included, is an AppError answered by the error handler
// (http/error-handler.ts) as JSON {error: {code, message}}: tus's refusals are taken from its
// answer before anything is written and thrown, so its handle() rejects into express's next().
import { randomUUID } from 'node:crypto';
import type { Upload } from '@tus/server';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError, NotFoundError, PayloadTooLargeError } from '../../errors.js';
import { actorOf, requireAccess } from '../../http/auth.js';
import { defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { lazyImport } from '../../platform/lazy.js';
import { Semaphore } from '../../platform/semaphore.js';
import type { HomeVideosService } from './home-videos-service.js';
import { HomeVideoParams, HomeVideosResponse, UploadLimits, UploadLimitsBody } from './schema.js';

export const UPLOADS_PATH = '/api/mediaserver/me/uploads';
const OWNER_HEADER = 'x-hearth-upload-owner';

/** tus metadata: comma-separated `key base64value` pairs. */
function metadataOf(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [k, v] = pair.trim().split(' ');
    if (k) out[k] = v ? Buffer.from(v, 'base64').toString('utf8') : '';
  }
  return out;
}

/** Reads what the client sent before a refusal is answered: a body left unread can reset the connection. */
function drain(req: Request): Promise<void> {
  if (req.readableEnded || req.headers['content-length'] === undefined || Number(req.headers['content-length']) > 1024 * 1024) return Promise.resolve();
  return new Promise((resolve) => {
    req.on('end', resolve).on('error', () => resolve()).resume();
  });
}

/**
 * The upload id a request names: '' for the uploads path itself, the one path segment below it, or
 * null for anything else (more segments, an empty one).
 */
export function uploadIdIn(pathBelowUploads: string): string | null {
  const m = /^\/?([^/]*)$/.exec(pathBelowUploads);
  return m ? m[1]! : null;
}

/** tus's own refusals (plain text) as sentences, by status. */
function tusRefusal(status: number, maxBytes: number): { code: string; message: string } {
  switch (status) {
    case 400:
      return { code: 'invalid_upload', message: 'That upload request was not understood. Start the upload again from the Home videos page.' };
    case 403:
      return { code: 'forbidden', message: 'That upload cannot be changed any more.' };
    case 404:
      return { code: 'not_found', message: 'That upload does not exist.' };
    case 409:
      return { code: 'upload_offset_conflict', message: 'That piece does not continue where the upload stopped. The upload resumes from the right place when it tries again.' };
    case 410:
      return { code: 'upload_expired', message: 'That upload waited too long and was cleared. Start it again.' };
    case 412:
      return { code: 'resumable_upload_required', message: 'Videos are uploaded with resumable uploads (tus 1.0). Upload from the Home videos page.' };
    case 413:
      return { code: 'payload_too_large', message: `That video is larger than the ${Math.round(maxBytes / 1024 ** 3)} GB a home video may be.` };
    case 415:
      return { code: 'unsupported_media_type', message: 'Pieces of an upload are sent as application/offset+octet-stream.' };
    default:
      return status >= 500
        ? { code: 'upload_failed', message: 'Hearth could not save that piece of the video. The upload tries again from where it stopped.' }
        : { code: 'upload_refused', message: 'Hearth did not take that piece of the video. Start the upload again.' };
  }
}

export function createHomeVideoRoutes(videos: HomeVideosService) {
  // the tus server is made (and @tus/server loaded) at the first upload request, not at start
  const tusServer = lazyImport(async () => {
    const [{ Server }, store] = await Promise.all([import('@tus/server'), videos.uploads()]);
    const server = new Server({
      path: UPLOADS_PATH,
      datastore: store,
      relativeLocation: true,
      maxSize: videos.maxBytes,
      // the owner is part of the id, so every later request is checked against the session
      namingFunction: (req) => `${req.headers.get(OWNER_HEADER) ?? 'x'}_${randomUUID().replace(/-/g, '')}`,
      onUploadFinish: async (req, upload: Upload) => {
        const owner = req.headers.get(OWNER_HEADER) ?? '';
        try {
          const file = videos.uploadFile(upload.id);
          if (!file) throw new AppError(404, 'not_found', 'That upload does not exist.');
          const row = await videos.complete(owner, { file, name: upload.metadata?.filename ?? null });
          await videos.forgetUpload(upload.id);
          return { headers: { 'Hearth-Video-Id': row.id } };
        } catch (err) {
          await videos.forgetUpload(upload.id).catch(() => undefined);
          // tus answers {status_code, body}; the refusal hook below turns it back into this AppError
          if (err instanceof AppError) throw { status_code: err.status, body: JSON.stringify({ error: { code: err.code, message: err.message } }) };
          throw err;
        }
      },
    });
    // tus writes its own refusals in plain text. Its answer is made (handler) before it is
    // written (handle), so a refusal is thrown there as an AppError with tus's headers, for the
    // error handler to answer (the method is private in tus's types, so it is wrapped on the instance)
    const inner = server as unknown as { handler(req: globalThis.Request): Promise<globalThis.Response> };
    const tusHandler = inner.handler.bind(server);
    inner.handler = async (request) => {
      const answer = await tusHandler(request);
      if (answer.status < 400) return answer;
      const text = await answer.text();
      let own: { code?: unknown; message?: unknown } | undefined;
      try {
        own = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
      } catch {
        own = undefined;
      }
      const refusal = typeof own?.code === 'string' && typeof own.message === 'string' ? { code: own.code, message: own.message } : tusRefusal(answer.status, videos.maxBytes);
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== 'content-type' && name !== 'content-length') headers[name] = value;
      });
      throw new AppError(answer.status, refusal.code, refusal.message, undefined, headers);
    };
    return server;
  });

  // one new upload is checked and made at a time, so two at once cannot both pass the limits
  const creating = new Semaphore(1);

  const guard = async (req: Request, res: Response, next: NextFunction) => {
    const actor = actorOf(req);
    // tus reads the raw headers: a client's own owner header is dropped, the session's is set
    const raw: string[] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() !== OWNER_HEADER) raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    raw.push(OWNER_HEADER, actor.id);
    req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
    req.headers[OWNER_HEADER] = actor.id;
    try {
      const id = uploadIdIn(req.path);
      if (req.method === 'POST' && id === '') {
        const length = req.headers['upload-length'];
        const size = typeof length === 'string' && /^\d{1,16}$/.test(length) ? Number(length) : null;
        if (size !== null && size > videos.maxBytes) throw new PayloadTooLargeError(`That video is larger than the ${Math.round(videos.maxBytes / 1024 ** 3)} GB a home video may be.`);
        req.url = UPLOADS_PATH;
        await creating.run(async () => {
          await videos.checkNewUpload(actor.id, { type: metadataOf(req.headers['upload-metadata'] as string | undefined).filetype ?? null, size });
          await (await tusServer()).handle(req, res);
        });
        return;
      } else if (req.method !== 'OPTIONS' && (id === null || !videos.ownsUpload(actor, id))) {
        // tus reads the id from the path's last segment (and a query's), so nothing but one
        // segment that is exactly one of the member's own ids reaches it; a POST below the
        // uploads path would be a new upload that skipped the checks above
        throw new NotFoundError('That upload does not exist.');
      }
      // tus routes by the path alone: the query is dropped, so the id tus parses is the one checked
      req.url = id ? `${UPLOADS_PATH}/${id}` : UPLOADS_PATH;
    } catch (err) {
      // the error handler answers; what the client sent is read first
      if (err instanceof AppError) await drain(req);
      next(err);
      return;
    }
    await (await tusServer()).handle(req, res);
  };

  const routes = defineRoutes((r) => {
    r.get('/me/videos', { access: 'user', response: HomeVideosResponse }, (req) => videos.list(actorOf(req)));
    r.delete('/me/videos/:id', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      await videos.remove(actorOf(req), parse(HomeVideoParams, req.params).id);
      res.status(204);
    });
    r.get('/admin/upload-limits', { access: 'admin', response: UploadLimits }, (req) => videos.adminUploadLimits(actorOf(req)));
    r.put('/admin/upload-limits', { access: 'admin', response: UploadLimits }, (req) => videos.setUploadLimits(actorOf(req), parse(UploadLimitsBody, req.body)));
  });
  const uploads = express.Router();
  uploads.use('/me/uploads', requireAccess('user'), (req, res, next) => void guard(req, res, next).catch(next));
  routes.router.use(uploads);
  for (const method of ['post', 'patch', 'delete'] as const) routes.table.push({ method, path: method === 'post' ? '/me/uploads' : '/me/uploads/:id', access: 'user', response: 'empty' });
  return routes;
}
