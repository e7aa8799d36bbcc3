// /api/vstream: the cache of licence-clean videos (start a copy, list them, play one with Range).
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { IdParams, VstreamBody, VstreamListResponse, VstreamStartResponse } from './schema.js';
import type { VstreamService } from './vstream-service.js';

export function createVstreamRoutes(vstream: VstreamService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: VstreamListResponse }, (req) => vstream.list(actorOf(req)));
    r.post('/', { access: 'user', response: VstreamStartResponse }, async (req, res) => {
      const started = await vstream.save(actorOf(req), parse(VstreamBody, req.body));
      res.status(202);
      return started;
    });
    r.get('/:id', { access: 'user', response: bytes('the cached video (Range answered)'), unlogged: true }, async (req, res) => {
      const file = await vstream.open(actorOf(req), parse(IdParams, req.params).id);
      await new Promise<void>((resolve, reject) => {
        res.sendFile(file.path, { headers: { 'Content-Type': file.mime, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-store' }, acceptRanges: true, dotfiles: 'deny' }, (err) => (err && !res.headersSent ? reject(err) : resolve()));
      });
    });
  });
}
