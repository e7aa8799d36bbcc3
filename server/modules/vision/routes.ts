// /api/vision: analyze a photo (a multipart form held in memory, never written to disk), and the
// results a member chose to keep.
import { actorOf } from '../../http/auth.js';
import { defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { assertMultipartForm, receiveFormInMemory, uploadSize } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { AnalyzeFields, AnalyzeResponse, MAX_SCHEMA_BYTES, MAX_VISION_IMAGE_BYTES, ResultIdParams, StoredResultResponse, StoredResultsResponse, VisionStatusResponse } from './schema.js';
import type { VisionService } from './vision-service.js';

export function createVisionRoutes(vision: VisionService) {
  return defineRoutes((r) => {
    r.post('/analyze', { access: 'user', jsonLimit: false, response: AnalyzeResponse }, async (req) => {
      assertMultipartForm(req);
      // a place is taken before the photo is read into memory; given back once it is answered
      const release = vision.admit();
      try {
        const form = await receiveFormInMemory(req, MAX_VISION_IMAGE_BYTES, {
          tooLarge: `That photo is larger than ${uploadSize(MAX_VISION_IMAGE_BYTES)}. Send a smaller one.`,
          noFile: 'The form has no photo in it. Choose or take a photo, in the form field named image.',
          maxFields: 5,
          // room to tell a schema a little over the limit from one cut short
          fieldSize: MAX_SCHEMA_BYTES * 2,
        });
        const fields = parse(AnalyzeFields, form.fields);
        return await vision.analyze(actorOf(req), {
          image: form.bytes,
          task: fields.task,
          ...(fields.schema !== undefined ? { schema: fields.schema } : {}),
          schemaTruncated: form.truncated.includes('schema'),
          store: fields.store === 'true',
        });
      } finally {
        release();
      }
    });
    r.get('/status', { access: 'user', response: VisionStatusResponse }, () => vision.status());
    r.get('/results', { access: 'user', response: StoredResultsResponse }, async (req) => ({ results: await vision.list(actorOf(req)) }));
    r.get('/results/:id', { access: 'user', response: StoredResultResponse }, async (req) => ({ result: await vision.get(actorOf(req), parse(ResultIdParams, req.params).id) }));
    r.delete('/results/:id', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      await vision.remove(actorOf(req), parse(ResultIdParams, req.params).id);
      res.status(204);
    });
  });
}
