import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { EnqueueJobsBody, JobIdParams, JobResponse, JobsResponse, JobsStatus, PausedResponse, ReorderBody, RetriedResponse } from './schema.js';
import type { DownloadsService } from './service.js';

/** /api/jobs — the household's view of the queue plus the admin actions the spec names. */
export function createJobRoutes(downloads: DownloadsService) {
  return defineRoutes((r) => {
    r.get('/status', { access: 'user', response: JobsStatus }, () => downloads.status());
    r.post('/retry-all-failed', { access: 'admin', response: RetriedResponse }, (req) => downloads.retryAllFailed(actorOf(req)));
    r.post('/:id/retry', { access: 'admin', response: JobResponse }, async (req) => ({ job: await downloads.retry(actorOf(req), parse(JobIdParams, req.params).id) }));
    r.post('/:id/cancel', { access: 'admin', response: JobResponse }, async (req) => ({ job: await downloads.cancel(actorOf(req), parse(JobIdParams, req.params).id) }));
  });
}

/** /api/admin/queue — admin tooling: list, raw enqueue, reorder, pause and resume. */
export function createQueueAdminRoutes(downloads: DownloadsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: JobsStatus }, () => downloads.status());
    r.post('/jobs', { access: 'admin', response: JobsResponse }, async (req, res) => {
      const jobs = await downloads.enqueue(actorOf(req), parse(EnqueueJobsBody, req.body).jobs);
      res.status(201);
      return { jobs };
    });
    r.patch('/:id', { access: 'admin', response: JobResponse }, async (req) => ({
      job: await downloads.reorder(actorOf(req), parse(JobIdParams, req.params).id, parse(ReorderBody, req.body)),
    }));
    r.post('/pause', { access: 'admin', response: PausedResponse }, (req) => downloads.setPaused(actorOf(req), true));
    r.post('/resume', { access: 'admin', response: PausedResponse }, (req) => downloads.setPaused(actorOf(req), false));
  });
}
