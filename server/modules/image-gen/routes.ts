// /api/image: a member's own image studio — the engine's status, their LoRAs, history, the job
// still building, each picture (served, followed while it builds, cancelled, deleted), generate and
// edit as event streams, reference faces and prompt help. Thin over the image services.
import type { Request } from 'express';
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, events, NO_CONTENT } from '../../http/routes.js';
import type { SseRegistry, SseStream } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import type { ImageArtifactsService } from './artifacts-service.js';
import type { ImageEngineAdminService } from './engine-admin-service.js';
import { isLocalOp, type ImageEditService } from './edit-service.js';
import type { ImageGenerateService, QueuedJob } from './generate-service.js';
import type { ImagePromptHelpService } from './prompt-help-service.js';
import { receiveFile, sendPicture } from './http-io.js';
import type { ImageLorasService } from './loras-service.js';
import type { JobEvent } from './parts.js';
import {
  ArtifactIdParams,
  ArtifactResponse,
  AutoEnhanceBody,
  AutoEnhanceResponse,
  BuildingResponse,
  EditFields,
  EnhancePromptBody,
  EnhancePromptResponse,
  GenerateBody,
  HistoryQuery,
  HistoryResponse,
  ImageEvents,
  ImageStatusResponse,
  MAX_IMAGE_UPLOAD_BYTES,
  MemberLorasResponse,
  PreviewCheckBody,
  PreviewCheckResponse,
  ReferenceFaceResponse,
} from './schema.js';

/** Image generation's services, as the container wires them. */
export interface ImageServices {
  artifacts: ImageArtifactsService;
  loras: ImageLorasService;
  engine: ImageEngineAdminService;
  edit: ImageEditService;
  generate: ImageGenerateService;
  help: ImagePromptHelpService;
}

const idOf = (req: Request) => parse(ArtifactIdParams, req.params).id;

/** A job's event as the stream sends it; true when it was the last one. */
export function relay(stream: SseStream, id: string, e: JobEvent): boolean {
  switch (e.type) {
    case 'step':
      stream.send('step', { id, current: e.current, total: e.total, position: e.position });
      return false;
    case 'preview':
      stream.send('preview', { id, jpeg: e.jpeg.toString('base64'), step: e.step });
      return false;
    case 'done':
      stream.send('done', { id, artifact: e.artifact });
      return true;
    case 'error':
      stream.send('error', { code: e.code, message: e.message });
      return true;
  }
}

/** Follows a job until its last event or until the client goes away (the job keeps building). */
export function follow(stream: SseStream, id: string, attach: (listener: (e: JobEvent) => void) => Promise<(() => void) | null>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let unsubscribe: (() => void) | null = null;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      unsubscribe?.();
      resolve();
    };
    stream.signal.addEventListener('abort', end, { once: true });
    attach((e) => {
      if (!ended && relay(stream, id, e)) end();
    })
      .then((u) => {
        unsubscribe = u;
        if (ended) u?.();
      })
      .catch(reject);
  });
}

export function createImageRoutes(image: ImageServices, sse: SseRegistry, opts: { maxUploadBytes?: number } = {}) {
  const maxUpload = opts.maxUploadBytes ?? MAX_IMAGE_UPLOAD_BYTES;
  return defineRoutes((r) => {
    r.get('/status', { access: 'user', response: ImageStatusResponse }, () => image.engine.status());
    r.get('/loras', { access: 'user', response: MemberLorasResponse }, async (req) => ({ loras: await image.loras.memberLoras(actorOf(req)) }));
    r.get('/history', { access: 'user', response: HistoryResponse }, (req) => image.artifacts.history(actorOf(req), parse(HistoryQuery, req.query)));
    r.get('/building', { access: 'user', response: BuildingResponse }, async (req) => ({ artifact: await image.artifacts.building(actorOf(req)) }));

    r.get('/artifacts/:id/stream', { access: 'user', response: events(ImageEvents) }, async (req, res) => {
      const actor = actorOf(req);
      const id = idOf(req);
      await image.artifacts.own(actor, id);
      await sse.run(req, res, async (open) => {
        await follow(open(), id, (listener) => image.artifacts.attach(actor, id, listener));
      });
    });
    r.get('/artifacts/:id', { access: 'user', response: bytes('the picture (image/png, or image/webp for video) once ready; while not, the JSON {artifact} with its state') }, async (req, res) => {
      const opened = await image.artifacts.open(actorOf(req), idOf(req));
      if (opened.kind === 'status') {
        res.status(200).json(ArtifactResponse.parse({ artifact: opened.artifact }));
        return;
      }
      await sendPicture(res, opened);
    });
    /** A queued engine job's stream: start, then the queue's events until done or error (the job outlives the stream). */
    const stream = (req: Request, res: Parameters<typeof sse.run>[1], queued: QueuedJob) =>
      sse.run(req, res, async (open) => {
        const s = open();
        const a = queued.artifact;
        s.send('start', { id: a.id, isAdult: a.isAdult, position: a.position, artifact: a });
        await follow(s, a.id, (listener) => image.artifacts.attach(actorOf(req), a.id, listener));
      });

    r.post('/generate', { access: 'user', response: events(ImageEvents) }, async (req, res) => {
      const queued = await image.generate.generate(actorOf(req), parse(GenerateBody, req.body));
      await stream(req, res, queued);
    });

    // ---- edits and reference faces (multipart) ----------------------------------------------
    r.post('/edit', { access: 'user', jsonLimit: false, response: events(ImageEvents) }, async (req, res) => {
      const actor = actorOf(req);
      const pending = await image.edit.prepareUpload(actor);
      let job;
      try {
        const received = await receiveFile(req, pending.tempPath, maxUpload, { fileOptional: true, what: 'pictures' });
        const fields = parse(EditFields, received.fields);
        if (!isLocalOp(fields.op)) {
          const queued = await image.generate.edit(actor, pending, received, fields);
          await stream(req, res, queued);
          return;
        }
        job = await image.edit.beginLocal(actor, pending, received, fields);
      } catch (err) {
        await image.edit.abandonUpload(pending);
        throw err;
      }
      const started = job;
      await sse.run(req, res, async (open) => {
        const stream = open();
        stream.send('start', { id: started.artifact.id, isAdult: started.artifact.isAdult, position: null, artifact: started.artifact });
        // the client going away does not stop the edit: the picture still lands in the member's history
        const artifact = await started.run();
        stream.send('done', { id: artifact.id, artifact });
      });
    });
    r.post('/reference-face', { access: 'user', jsonLimit: false, response: ReferenceFaceResponse }, async (req, res) => {
      const actor = actorOf(req);
      const pending = await image.edit.prepareUpload(actor);
      let received;
      try {
        received = await receiveFile(req, pending.tempPath, maxUpload, { what: 'pictures' });
      } catch (err) {
        await image.edit.abandonUpload(pending);
        throw err;
      }
      const face = await image.edit.finishReferenceFace(actor, pending, received);
      res.status(201);
      return face;
    });

    // ---- prompt help ------------------------------------------------------------------------
    r.post('/enhance-prompt', { access: 'user', response: EnhancePromptResponse }, (req) => image.help.enhancePrompt(actorOf(req), parse(EnhancePromptBody, req.body).prompt));
    r.post('/auto-enhance', { access: 'user', response: AutoEnhanceResponse }, (req) => image.help.autoEnhance(actorOf(req), parse(AutoEnhanceBody, req.body)));
    r.post('/preview-check', { access: 'user', response: PreviewCheckResponse }, (req) => image.help.previewCheck(actorOf(req), parse(PreviewCheckBody, req.body).id));

    r.post('/artifacts/:id/cancel', { access: 'user', response: ArtifactResponse }, async (req) => ({ artifact: await image.artifacts.cancel(actorOf(req), idOf(req)) }));
    r.delete('/artifacts/:id', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      await image.artifacts.delete(actorOf(req), idOf(req));
      res.status(204);
    });
  });
}
