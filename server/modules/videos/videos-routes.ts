// /api/videos (the hub, and PeerTube and podcast videos played and pictured through Hearth) and
// /api/admin/videos (the instances and the cache's size).
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { HubService, Proxied } from './hub-service.js';
import { HubResponse, IdParams, InstanceQuery, PeertubeParams, VideoSettingsBody, VideoSettingsResponse } from './schema.js';
import type { VideoSettingsService } from './settings-service.js';
import type { VstreamService } from './vstream-service.js';

const STREAM = bytes('the video (its own video/* type), 206 with Content-Range when a Range was asked');

async function play(req: Request, res: Response, open: (range: string | undefined, signal: AbortSignal) => Promise<Proxied>): Promise<void> {
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const video = await open(req.headers.range, abort.signal);
  res.status(video.status).set({ ...video.headers, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' });
  await pipeline(video.body, res).catch(() => undefined); // the player went away or the host cut the stream
}

export function createVideoRoutes(hub: HubService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: HubResponse }, (req) => hub.hub(actorOf(req)));
    r.get('/peertube/:uuid/stream', { access: 'user', response: STREAM, unlogged: true }, async (req, res) => {
      const { uuid } = parse(PeertubeParams, req.params);
      const { instance } = parse(InstanceQuery, req.query);
      await play(req, res, (range, signal) => hub.peertubeStream(instance, uuid, range, signal));
    });
    r.get('/peertube/:uuid/thumbnail', { access: 'user', response: bytes('the PeerTube video’s picture, fetched once by Hearth') }, async (req, res) => {
      const image = await hub.peertubeThumbnail(parse(InstanceQuery, req.query).instance, parse(PeertubeParams, req.params).uuid);
      res.set({ 'Content-Type': image.type, 'Cache-Control': 'private, max-age=86400', 'X-Content-Type-Options': 'nosniff' }).send(Buffer.from(image.data, 'base64'));
    });
    r.get('/podcast/:id/stream', { access: 'user', response: STREAM, unlogged: true }, async (req, res) => {
      const { id } = parse(IdParams, req.params);
      await play(req, res, (range, signal) => hub.podcastStream(actorOf(req), id, range, signal));
    });
  });
}

export function createVideoAdminRoutes(settings: VideoSettingsService, vstream: VstreamService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: VideoSettingsResponse }, async () => ({ settings: await settings.get(), usedBytes: (await vstream.usage()).usedBytes }));
    r.put('/', { access: 'admin', response: VideoSettingsResponse }, async (req) => {
      const saved = await settings.put(actorOf(req), parse(VideoSettingsBody, req.body));
      await vstream.evict(); // a smaller cap takes effect now
      return { settings: saved, usedBytes: (await vstream.usage()).usedBytes };
    });
  });
}
