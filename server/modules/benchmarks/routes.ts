// /api/admin/benchmarks: the stored results, POST /run (one at a time), GET /stream (SSE, replayed
// for a late joiner, ending with done). Thin: call the service, answer.
import { actorOf } from '../../http/auth.js';
import { defineRoutes, events } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { BenchmarkEvents, BenchmarksResponse, RunResponse } from './schema.js';
import type { BenchmarksService } from './service.js';

export function createBenchmarkRoutes(benchmarks: BenchmarksService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: BenchmarksResponse }, (req) => benchmarks.results(actorOf(req)));
    r.post('/run', { access: 'admin', response: RunResponse }, (req, res) => {
      const started = benchmarks.start(actorOf(req));
      res.status(202);
      return started;
    });
    r.get('/stream', { access: 'admin', response: events(BenchmarkEvents) }, (req, res) => {
      const channel = benchmarks.stream(actorOf(req));
      return sse.run(req, res, (open) => channel.pipeTo(open()));
    });
  });
}
