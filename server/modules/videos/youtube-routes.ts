// /api/youtube: the household's followed channels, OPML in and out, their feeds' latest uploads,
// thumbnails served by Hearth, and search through the admin's instance.
import { actorOf } from '../../http/auth.js';
import { readRawBody } from '../../http/body.js';
import { bytes, defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { BadRequestError } from '../../errors.js';
import { AddChannelBody, ChannelResponse, ChannelsResponse, FeedResponse, IdParams, MAX_OPML_BYTES, OpmlImportResponse, SearchQuery, SearchResponse, YoutubeIdParams } from './schema.js';
import type { YoutubeService } from './youtube-service.js';

export function createYoutubeRoutes(youtube: YoutubeService) {
  return defineRoutes((r) => {
    r.get('/channels', { access: 'user', response: ChannelsResponse }, async (req) => ({ channels: await youtube.list(actorOf(req)) }));
    r.post('/channels', { access: 'user', response: ChannelResponse }, async (req, res) => {
      const channel = await youtube.add(actorOf(req), parse(AddChannelBody, req.body));
      res.status(201);
      return { channel };
    });
    r.delete('/channels/:id', { access: 'user', response: NO_CONTENT }, async (req) => {
      await youtube.remove(actorOf(req), parse(IdParams, req.params).id);
    });
    r.get('/opml', { access: 'user', response: bytes('text/x-opml (the household’s channels, OPML 2.0)') }, async (_req, res) => {
      res.set({ 'Content-Type': 'text/x-opml; charset=utf-8', 'Content-Disposition': 'attachment; filename="youtube-channels.opml"' }).send(await youtube.exportOpml());
    });
    // the OPML file is the body (XML, not JSON)
    r.post('/opml', { access: 'user', response: OpmlImportResponse, jsonLimit: false }, async (req) => {
      if (!/^(text\/(xml|x-opml|plain)|application\/(xml|octet-stream)|text\/x-opml\+xml)/i.test(req.get('content-type') ?? '')) {
        req.resume();
        throw new BadRequestError('Send the OPML file as the body (Content-Type text/xml).');
      }
      return youtube.importOpml(actorOf(req), await readRawBody(req, MAX_OPML_BYTES, `That file is larger than ${MAX_OPML_BYTES / 1024 / 1024} MB.`));
    });
    r.get('/feed', { access: 'user', response: FeedResponse }, () => youtube.feed());
    r.get('/search', { access: 'user', response: SearchResponse }, (req) => youtube.search(parse(SearchQuery, req.query).q));
    r.get('/thumbnails/:videoId', { access: 'user', response: bytes('a followed channel’s video picture (JPEG, PNG or WebP), fetched once by Hearth') }, async (req, res) => {
      const image = await youtube.thumbnail(parse(YoutubeIdParams, req.params).videoId);
      res.set({ 'Content-Type': image.type, 'Cache-Control': 'private, max-age=86400', 'X-Content-Type-Options': 'nosniff' }).send(Buffer.from(image.data, 'base64'));
    });
  });
}
