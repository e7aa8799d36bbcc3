// /api/converter: the presets on offer, a job (multipart file + preset → 202 {jobId}), its event
// stream (late subscribers get what happened so far), cancelling it, and the converted file.
// Thin: parse, call the service, answer.
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, events, NO_CONTENT } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { assertMultipartForm, receiveFile, uploadSize } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { JobCreatedResponse, JobEvents, JobIdParams, PresetsResponse } from './schema.js';
import type { ConverterService } from './service.js';

export function createConverterRoutes(converter: ConverterService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/presets', { access: 'user', response: PresetsResponse }, (req) => converter.presets(actorOf(req)));

    r.post('/jobs', { access: 'user', response: JobCreatedResponse, jsonLimit: false }, async (req, res) => {
      const actor = actorOf(req);
      assertMultipartForm(req);
      const declared = Number(req.get('content-length') ?? NaN);
      const { jobId, upload } = await converter.receiving(Number.isFinite(declared) ? declared : null);
      let got;
      try {
        const max = converter.maxUploadBytes;
        got = await receiveFile(req, upload, max, {
          tooLarge: `That file is larger than ${uploadSize(max)}, the most the converter takes. Choose a smaller file.`,
          noFile: 'The form has no file in it. Choose a file to convert.',
          maxFields: 5,
        });
      } catch (err) {
        await converter.discard(jobId);
        throw err;
      }
      const created = await converter.create(actor, jobId, { preset: got.fields.preset, filename: got.filename, head: got.head });
      res.status(202);
      return created;
    });

    r.get('/jobs/:id/stream', { access: 'user', response: events(JobEvents) }, async (req, res) => {
      const { id } = parse(JobIdParams, req.params);
      const channel = converter.events(actorOf(req), id);
      await sse.run(req, res, async (open) => {
        await channel.pipeTo(open());
      });
    });

    r.delete('/jobs/:id', { access: 'user', response: NO_CONTENT }, (req, res) => {
      const { id } = parse(JobIdParams, req.params);
      converter.cancel(actorOf(req), id);
      res.status(204).end();
    });

    r.get('/files/:id', { access: 'user', response: bytes('the converted file, as an attachment') }, async (req, res) => {
      const { id } = parse(JobIdParams, req.params);
      const file = await converter.file(actorOf(req), id);
      res.attachment(file.name);
      await new Promise<void>((resolve, reject) => {
        res.sendFile(file.path, { headers: { 'Content-Type': file.mime, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-store' }, dotfiles: 'deny' }, (err) =>
          err && !res.headersSent ? reject(err) : resolve(),
        );
      });
    });
  });
}
