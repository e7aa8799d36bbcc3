import { BadRequestError } from '../../errors.js';
import { actorOf } from '../../http/auth.js';
import { readRawBody } from '../../http/body.js';
import { pipeline } from 'node:stream/promises';
import { bytes, defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { EpisodeCopiesService } from './copies-service.js';
import { MAX_OPML_BYTES, OpmlImportResponse, EpisodeResponse, EpisodesResponse, IdParams, PodcastIndexBody, PodcastIndexStatusResponse, PodcastSearchResponse, ProgressBody, SearchQuery, SubscribeBody, SubscriptionPatch, SubscriptionResponse, SubscriptionsResponse } from './schema.js';
import type { PodcastsService } from './service.js';

export function createPodcastRoutes(podcasts: PodcastsService, copies: EpisodeCopiesService) {
  return defineRoutes((r) => {
    r.get('/search', { access: 'user', response: PodcastSearchResponse }, (req) => podcasts.search(actorOf(req), parse(SearchQuery, req.query).q));
    r.get('/subscriptions', { access: 'user', response: SubscriptionsResponse }, async (req) => ({ subscriptions: await podcasts.list(actorOf(req)), offline: podcasts.offline }));
    r.post('/subscriptions', { access: 'user', response: SubscriptionResponse }, async (req, res) => {
      const body = parse(SubscribeBody, req.body);
      const subscription = body.feedUrl !== undefined ? await podcasts.subscribe(actorOf(req), body.feedUrl) : await podcasts.subscribeByItunesId(actorOf(req), body.itunesId!);
      res.status(201);
      return { subscription };
    });
    r.delete('/subscriptions/:id', { access: 'user', response: NO_CONTENT }, async (req) => {
      await podcasts.unsubscribe(actorOf(req), parse(IdParams, req.params).id);
    });
    r.patch('/subscriptions/:id', { access: 'user', response: SubscriptionResponse }, async (req) => ({
      subscription: await podcasts.setKeepNewest(actorOf(req), parse(IdParams, req.params).id, parse(SubscriptionPatch, req.body).keepNewest),
    }));
    r.get('/subscriptions/:id/episodes', { access: 'user', response: EpisodesResponse }, async (req) => ({ episodes: await podcasts.episodes(actorOf(req), parse(IdParams, req.params).id) }));
    r.post('/subscriptions/:id/refresh', { access: 'user', response: EpisodesResponse }, async (req) => ({ episodes: await podcasts.refresh(actorOf(req), parse(IdParams, req.params).id) }));
    r.get('/opml', { access: 'user', response: bytes('text/x-opml (the member\'s shows, OPML 2.0)') }, async (req, res) => {
      const text = await podcasts.exportOpml(actorOf(req));
      res.set({ 'Content-Type': 'text/x-opml; charset=utf-8', 'Content-Disposition': 'attachment; filename="podcasts.opml"' }).send(text);
    });
    // the OPML file is the body (XML, not JSON)
    r.post('/opml', { access: 'user', response: OpmlImportResponse, jsonLimit: false }, async (req) => {
      if (!/^(text\/(xml|x-opml|plain)|application\/(xml|octet-stream)|text\/x-opml\+xml)/i.test(req.get('content-type') ?? '')) {
        req.resume();
        throw new BadRequestError('Send the OPML file as the body (Content-Type text/xml).');
      }
      return podcasts.importOpml(actorOf(req), await readRawBody(req, MAX_OPML_BYTES, `That file is larger than ${MAX_OPML_BYTES / 1024 / 1024} MB.`));
    });
    r.get('/subscriptions/:id/image', { access: 'user', response: bytes('the show’s cover (JPEG, PNG or WebP), fetched once by Hearth; 404 JSON when the feed has none') }, async (req, res) => {
      const cover = await podcasts.cover(actorOf(req), parse(IdParams, req.params).id);
      res.set({ 'Content-Type': cover.type, 'Cache-Control': 'private, max-age=86400', 'X-Content-Type-Options': 'nosniff' }).send(cover.body);
    });
    r.get('/inbox', { access: 'user', response: EpisodesResponse }, async (req) => ({ episodes: await podcasts.inbox(actorOf(req)) }));
    // one episode with the member's place in it (the video player resumes a podcast's video episode from it)
    r.get('/episodes/:id', { access: 'user', response: EpisodeResponse }, async (req) => ({ episode: await podcasts.episode(actorOf(req), parse(IdParams, req.params).id) }));
    r.get('/episodes/:id/audio', { access: 'user', response: bytes('the episode\'s audio (its own audio/* type): the offline copy when there is one, else the enclosure through Hearth; 206 with Content-Range when a Range was asked') }, async (req, res) => {
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      const audio = await podcasts.audio(actorOf(req), parse(IdParams, req.params).id, req.headers.range, abort.signal);
      const own = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' };
      if (audio.kind === 'file') {
        return new Promise<void>((resolve, reject) => {
          res.sendFile(audio.path, { headers: { 'Content-Type': audio.type, ...own }, acceptRanges: true, lastModified: false, dotfiles: 'deny' }, (err) => (err && !res.headersSent ? reject(err) : resolve()));
        });
      }
      res.status(audio.status).set({ ...audio.headers, ...own });
      await pipeline(audio.body, res).catch(() => undefined); // the player went away or the host cut the stream
    });
    r.post('/episodes/:id/download', { access: 'user', response: EpisodeResponse }, async (req, res) => {
      const id = parse(IdParams, req.params).id;
      await copies.download(actorOf(req), id);
      const episode = await podcasts.episode(actorOf(req), id);
      res.status(episode.download?.state === 'ready' ? 200 : 202);
      return { episode };
    });
    r.delete('/episodes/:id/download', { access: 'user', response: NO_CONTENT }, async (req) => {
      await copies.remove(actorOf(req), parse(IdParams, req.params).id);
    });
    r.put('/episodes/:id/progress', { access: 'user', response: EpisodeResponse }, async (req) => ({
      episode: await podcasts.progress(actorOf(req), parse(IdParams, req.params).id, parse(ProgressBody, req.body)),
    }));
  });
}

/** /api/admin/podcasts: the household's Podcast Index key and secret (set, checked once, cleared; never answered). */
export function createPodcastAdminRoutes(podcasts: PodcastsService) {
  return defineRoutes((r) => {
    r.get('/podcast-index', { access: 'admin', response: PodcastIndexStatusResponse }, (req) => podcasts.podcastIndexStatus(actorOf(req)));
    r.put('/podcast-index', { access: 'admin', response: PodcastIndexStatusResponse }, (req) => podcasts.setPodcastIndex(actorOf(req), parse(PodcastIndexBody, req.body)));
    r.delete('/podcast-index', { access: 'admin', response: NO_CONTENT }, async (req) => {
      await podcasts.clearPodcastIndex(actorOf(req));
    });
  });
}
