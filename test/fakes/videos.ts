// Stand-ins for the video hub's outside world (reference/media-hubs.md §2 and "Fakes per suite"),
// each its own server on 127.0.0.1 with the failure modes of test/fakes/modal-http.ts (down, slow)
// and its own (garbage; Invidious's bot wall):
// - YouTube (YOUTUBE_FEEDS_BASE): channel pages (`/@kitchen` names its channel id in its canonical
//   link, `/@plain` names none, `/@nobody` is 404) and channel Atom feeds
//   (`/feeds/videos.xml?channel_id=`, entries with yt:videoId and media:group, an ETag and 304 on
//   If-None-Match; an unknown channel 404); thumbnails at /vi/<id>/hqdefault.jpg.
// - Invidious: `/api/v1/search` (typed items: videos and a channel); 'botwall' answers 500 as
//   YouTube's "confirm you're not a bot" breaks an instance.
// - Piped: `/search?filter=videos` → `{items[{url: "/watch?v=…"}], nextpage}`.
// - PeerTube: `/api/v1/videos` (local videos, newest first), `/api/v1/videos/:uuid` with its
//   licence and files (a small real MP4 made by ffmpeg at start, served with Range), and an
//   RFC 7807 problem+json 404 for an unknown video.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { makeTestClip } from './frigate.js';
import { TINY_JPEG } from './images.js';
import { sendText, startModalFake, type ModalFake } from './modal-http.js';

export const KITCHEN_CHANNEL = 'UCkitchenchannel00000001';
export const GARDEN_CHANNEL = 'UCgardenchannel000000002';
/** Known to nobody: the feed answers 404. */
export const UNKNOWN_CHANNEL = 'UCunknownchannel00000009';
export const PT_CC = ['0a1b2c3d-0000-4000-8000-000000000001', '0a1b2c3d-0000-4000-8000-000000000002', '0a1b2c3d-0000-4000-8000-000000000003'];
/** A PeerTube video without a Creative Commons licence. */
export const PT_RESERVED = '0a1b2c3d-0000-4000-8000-0000000000ff';

type Mode = 'garbage' | 'botwall';
export interface FakeVideoWorld {
  youtube: ModalFake<Mode> & { conditional: string[] };
  invidious: ModalFake<Mode>;
  piped: ModalFake<Mode>;
  peertube: ModalFake<Mode>;
  /** The MP4 every PeerTube file serves. */
  clip: Buffer;
  origins: string[];
  close(): Promise<void>;
}

const channels: Record<string, { title: string; videos: [string, string, string][] }> = {
  [KITCHEN_CHANNEL]: { title: 'Kitchen Channel', videos: [['kitchVid002', 'Sourdough at home', '2026-11-20T10:00:00+00:00'], ['kitchVid001', 'Knife skills', '2026-11-10T10:00:00+00:00']] },
  [GARDEN_CHANNEL]: { title: 'Garden Channel', videos: [['gardnVid001', 'Winter beds', '2026-11-15T10:00:00+00:00']] },
};

function atom(base: string, channelId: string): string {
  const c = channels[channelId]!;
  const entries = c.videos
    .map(
      ([id, title, at]) =>
        `<entry><id>yt:video:${id}</id><yt:videoId>${id}</yt:videoId><yt:channelId>${channelId}</yt:channelId><title>${title}</title>` +
        `<link rel="alternate" href="https://www.youtube.com/watch?v=${id}"/><author><name>${c.title}</name></author><published>${at}</published><updated>${at}</updated>` +
        `<media:group><media:title>${title}</media:title><media:thumbnail url="${base}/vi/${id}/hqdefault.jpg" width="480" height="360"/><media:description>About ${title}</media:description></media:group></entry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom"><title>${c.title}</title><author><name>${c.title}</name></author>${entries}</feed>`;
}

function sendRange(req: IncomingMessage, res: ServerResponse, body: Buffer, type: string): void {
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (!range) return void res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'accept-ranges': 'bytes' }).end(body);
  const start = Number(range[1] || 0);
  if (start >= body.length) return void res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
  const end = Math.min(range[2] ? Number(range[2]) : body.length - 1, body.length - 1);
  res.writeHead(206, { 'content-type': type, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${body.length}`, 'accept-ranges': 'bytes' });
  res.end(body.subarray(start, end + 1));
}
const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => sendText(res, status, type, JSON.stringify(body));
const garbage = (res: ServerResponse) => sendText(res, 200, 'text/html', '<html><body>Temporarily unavailable</body></html>');

export async function startFakeVideoWorld(): Promise<FakeVideoWorld> {
  const clip = await makeTestClip();
  const conditional: string[] = [];
  const youtube = await startModalFake<Mode>((mode, req, res, url) => {
    const base = `http://${req.headers.host}`;
    if (url.pathname === '/feeds/videos.xml') {
      const id = url.searchParams.get('channel_id') ?? '';
      if (!channels[id]) return sendText(res, 404, 'text/html', '<html>Not found</html>');
      if (mode === 'garbage') return garbage(res);
      const etag = `"${id}-v1"`;
      if (req.headers['if-none-match']) conditional.push(String(req.headers['if-none-match']));
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': 'application/atom+xml; charset=UTF-8', etag });
      return void res.end(atom(base, id));
    }
    if (url.pathname.startsWith('/vi/')) return void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': TINY_JPEG.length }).end(TINY_JPEG);
    if (url.pathname === '/@kitchen' || url.pathname === '/c/KitchenChannel') {
      return sendText(res, 200, 'text/html', `<html><head><link rel="canonical" href="https://www.youtube.com/channel/${KITCHEN_CHANNEL}"><title>Kitchen Channel</title></head><body></body></html>`);
    }
    if (url.pathname === '/@garden') return sendText(res, 200, 'text/html', `<html><head><meta itemprop="identifier" content="${GARDEN_CHANNEL}"></head></html>`);
    if (url.pathname === '/@plain') return sendText(res, 200, 'text/html', '<html><head><title>Nothing here</title></head></html>');
    sendText(res, 404, 'text/html', '<html>404</html>');
  });
  const invidious = await startModalFake<Mode>((mode, _req, res, url) => {
    if (url.pathname !== '/api/v1/search') return json(res, 404, { error: 'not found' });
    if (mode === 'botwall') return sendText(res, 500, 'application/json', JSON.stringify({ error: 'This helps protect our community. Sign in to confirm you’re not a bot.' }));
    if (mode === 'garbage') return garbage(res);
    json(res, 200, [
      { type: 'video', title: `Invidious: ${url.searchParams.get('q')}`, videoId: 'invidVid001', author: 'Some Channel', authorId: GARDEN_CHANNEL, lengthSeconds: 321, viewCount: 10, published: 1763000000, publishedText: '2 weeks ago', videoThumbnails: [] },
      { type: 'channel', author: 'Some Channel', authorId: GARDEN_CHANNEL },
    ]);
  });
  const piped = await startModalFake<Mode>((mode, _req, res, url) => {
    if (url.pathname !== '/search') return json(res, 404, { error: 'not found' });
    if (mode === 'garbage') return garbage(res);
    json(res, 200, { items: [{ url: '/watch?v=pipedVid001', type: 'stream', title: `Piped: ${url.searchParams.get('q')}`, uploaderName: 'Other Channel', duration: 95, uploaded: 1763000000000 }], nextpage: 'x' });
  });
  const peertube = await startModalFake<Mode>((mode, req, res, url) => {
    const base = `http://${req.headers.host}`;
    const video = (uuid: string, i: number) => ({
      uuid,
      name: uuid === PT_RESERVED ? 'All rights kept' : `Open film ${i + 1}`,
      duration: 1,
      publishedAt: `2026-11-2${i}T09:00:00.000Z`,
      thumbnailPath: `/lazy-static/thumbnails/${uuid}.jpg`,
      licence: uuid === PT_RESERVED ? { id: null, label: 'Unknown' } : { id: i === 2 ? 7 : 1, label: i === 2 ? 'Public Domain Dedication' : 'Attribution' },
      channel: { name: 'open_films', displayName: 'Open Films' },
    });
    const all = [...PT_CC, PT_RESERVED].map(video);
    if (mode === 'garbage') return garbage(res);
    if (url.pathname === '/api/v1/videos') return json(res, 200, { total: all.length, data: all });
    const detail = /^\/api\/v1\/videos\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (detail) {
      const v = all.find((x) => x.uuid === detail[1]);
      if (!v) return json(res, 404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Video not found' }, 'application/problem+json');
      return json(res, 200, {
        ...v,
        files: [
          { resolution: { id: 240, label: '240p' }, size: clip.length, fileUrl: `${base}/static/web-videos/${v.uuid}-240.mp4`, fileDownloadUrl: `${base}/download/web-videos/${v.uuid}-240.mp4` },
          { resolution: { id: 0, label: 'Audio' }, size: 100, fileUrl: `${base}/static/web-videos/${v.uuid}-0.mp4` },
        ],
        streamingPlaylists: [],
      });
    }
    if (/^\/(static|download)\/web-videos\/[0-9a-f-]{36}-240\.mp4$/.test(url.pathname)) return sendRange(req, res, clip, 'video/mp4');
    if (url.pathname.startsWith('/lazy-static/thumbnails/')) return void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': TINY_JPEG.length }).end(TINY_JPEG);
    json(res, 404, { type: 'about:blank', title: 'Not Found', status: 404 }, 'application/problem+json');
  });
  const fakes = [youtube, invidious, piped, peertube];
  return {
    youtube: Object.assign(youtube, { conditional }),
    invidious,
    piped,
    peertube,
    clip,
    origins: fakes.map((f) => f.origin),
    close: async () => void (await Promise.all(fakes.map((f) => f.close()))),
  };
}
