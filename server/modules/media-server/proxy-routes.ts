// GET /api/mediaserver/img and GET|HEAD /api/mediaserver/stream/:ratingKey (proxy-service.ts): bytes from
// the household's media server with its token kept here. Pictures carry a cache header so phones
// keep them; a film's bytes follow the browser's Range, and the browser leaving stops the read.
import { actorOf } from '../../http/auth.js';
import { defineRoutes, bytes } from '../../http/routes.js';
import { pipeToResponse } from '../../http/body.js';
import { parse } from '../../http/validate.js';
import type { MediaProxy } from './proxy-service.js';
import { ImgQuery, RatingKeyParams } from './schema.js';

/** Pictures change their path when they change (the server's change stamp), so a week is safe. */
const IMG_CACHE_CONTROL = 'private, max-age=604800';

export function createMediaProxyRoutes(proxy: MediaProxy) {
  return defineRoutes((r) => {
    r.get('/img', { access: 'user', response: bytes('image/webp or image/jpeg: a library picture, resized to w×h') }, async (req, res) => {
      const img = await proxy.image(actorOf(req), parse(ImgQuery, req.query), req.get('accept'));
      res.status(200).set({
        'Content-Type': img.contentType,
        'Cache-Control': IMG_CACHE_CONTROL,
        ETag: img.etag,
        Vary: 'Accept',
        'X-Content-Type-Options': 'nosniff',
      });
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      res.send(img.bytes);
    });

    r.get('/stream/:ratingKey', { access: 'user', response: bytes('video/*: a film’s file, Range passed through (200, 206 or 416); HEAD too') }, async (req, res) => {
      const { ratingKey } = parse(RatingKeyParams, req.params);
      const stop = new AbortController();
      res.once('close', () => stop.abort());
      let part;
      try {
        part = await proxy.stream(actorOf(req), ratingKey, { method: req.method === 'HEAD' ? 'HEAD' : 'GET', range: req.get('range'), ifRange: req.get('if-range'), signal: stop.signal });
      } catch (err) {
        // the browser left while the server was still answering: nobody to tell
        if (stop.signal.aborted) return;
        throw err;
      }
      res.status(part.status).set({ ...part.headers, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-cache' });
      if (req.method === 'HEAD' || part.status === 416) {
        part.body.destroy();
        res.end();
        return;
      }
      await pipeToResponse(res, part.body);
    });
  });
}
