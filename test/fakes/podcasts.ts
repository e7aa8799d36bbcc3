// Stand-ins for the podcast world (reference/media-hubs.md §1): the iTunes Search API
// (/search?term=&media=podcast: `results` with collectionName, artistName, artworkUrl600 and
// feedUrl — one show has no feedUrl, as iTunes sometimes answers) and a show's RSS feed with the
// itunes: namespace at /feeds/<name>.xml, with an ETag and 304 on If-None-Match; /feeds/old.xml
// answers 301 to it, /feeds/moving.xml carries itunes:new-feed-url pointing to it, /feeds/gone.xml
// answers 410 once `gone` is set. `garbage` makes the directory answer HTML; `/feeds/broken.xml`
// is not XML. `feedFailure` makes the kitchen feed answer an error status (with Retry-After when given).
import { TINY_JPEG } from './images.js';
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

export interface FakePodcasts extends FakeHttp {
  state: {
    /** Items the next feed answers carry beyond the first ones (a new episode published). */
    extraItems: string[];
    garbage: boolean;
    /** /feeds/gone.xml answers 410 Gone (else it is the kitchen feed). */
    gone: boolean;
    /** /feeds/gone.xml names the kitchen feed as its new address (itunes:new-feed-url). */
    announceMove: boolean;
    /** What the enclosures serve instead of AUDIO (a browser test's real, playable file), with its type. */
    audio: { body: Buffer; type: string } | null;
    /** The kitchen feed answers this status instead (a host down, or asking to wait with Retry-After). */
    feedFailure: { status: number; retryAfter?: string } | null;
  };
}

/** The bytes every episode's enclosure serves (a stand-in: the proxy is tested on bytes and ranges, not decoding). */
export const AUDIO = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));

export const item = (guid: string | null, title: string, audio: string, date: string, duration: string) =>
  `<item>${guid === null ? '' : `<guid isPermaLink="false">${guid}</guid>`}<title>${title}</title><pubDate>${date}</pubDate>` +
  `<enclosure url="${audio}" length="123456" type="audio/mpeg"/><itunes:duration>${duration}</itunes:duration></item>`;

export async function startFakePodcasts(): Promise<FakePodcasts> {
  const state: FakePodcasts['state'] = { extraItems: [], garbage: false, gone: false, announceMove: false, audio: null, feedFailure: null };
  const http = await startFakeHttp((req, res, url) => {
    if (url.pathname === '/search') {
      if (state.garbage) {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html>oops</html>');
      }
      const term = (url.searchParams.get('term') ?? '').toLowerCase();
      const shows = [
        { collectionId: 1500001, collectionName: 'Kitchen Table Talk', artistName: 'The Hosts', artworkUrl600: `${http.url}/art.jpg`, feedUrl: `${http.url}/feeds/kitchen.xml` },
        { collectionName: 'Kitchen Secrets (Apple only)', artistName: 'Somebody' },
      ].filter((s) => s.collectionName.toLowerCase().includes(term));
      return sendJson(res, 200, { resultCount: shows.length, results: shows });
    }
    // the directory's lookup by number (the kitchen show; the Apple-only show has no feed address)
    if (url.pathname === '/lookup') {
      const id = Number(url.searchParams.get('id'));
      const shows = [
        { collectionId: 1500001, collectionName: 'Kitchen Table Talk', feedUrl: `${http.url}/feeds/kitchen.xml` },
        { collectionId: 1500002, collectionName: 'Kitchen Secrets (Apple only)' },
      ].filter((s) => s.collectionId === id);
      return sendJson(res, 200, { resultCount: shows.length, results: shows });
    }
    if (url.pathname === '/art.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': TINY_JPEG.length }).end(TINY_JPEG);
    // moved for good: a 301 to the kitchen feed, or a feed naming its new address
    if (url.pathname === '/feeds/old.xml') return void res.writeHead(301, { location: '/feeds/kitchen.xml' }).end();
    if (url.pathname === '/feeds/gone.xml' && state.gone) return void res.writeHead(410).end();
    if (url.pathname === '/feeds/kitchen.xml' && state.feedFailure) {
      return void res.writeHead(state.feedFailure.status, state.feedFailure.retryAfter ? { 'retry-after': state.feedFailure.retryAfter } : {}).end('busy');
    }
    const moving = url.pathname === '/feeds/moving.xml' || (url.pathname === '/feeds/gone.xml' && state.announceMove);
    if (url.pathname === '/feeds/kitchen.xml' || url.pathname === '/feeds/gone.xml' || moving) {
      const items = [
        ...state.extraItems,
        item('ep-2', 'Episode 2: Bread', `${http.url}/stats/audio/ep2.mp3`, 'Mon, 02 Nov 2026 08:00:00 GMT', '1:02:03'),
        item('ep-1', 'Episode 1: Soup', `${http.url}/audio/ep1.mp3`, 'Mon, 26 Oct 2026 08:00:00 GMT', '30:32'),
        item(null, 'Bonus: no guid', `${http.url}/audio/bonus.mp3`, 'Tue, 20 Oct 2026 08:00:00 GMT', '95'),
        item(null, 'Bonus again (same file)', `${http.url}/audio/bonus.mp3`, 'Tue, 20 Oct 2026 08:00:00 GMT', '95'),
        '<item><guid>no-audio</guid><title>Show notes only</title></item>',
      ];
      // validators: the ETag changes only when the episodes do
      const etag = `"v${state.extraItems.length}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': 'application/rss+xml', etag, 'last-modified': 'Mon, 02 Nov 2026 08:00:00 GMT' });
      const newFeed = moving ? `<itunes:new-feed-url>${http.url}/feeds/kitchen.xml</itunes:new-feed-url>` : '';
      return void res.end(
        `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>` +
          `<title>Kitchen Table Talk</title>${newFeed}<itunes:image href="${http.url}/art.jpg"/>${items.join('')}</channel></rss>`,
      );
    }
    if (url.pathname === '/feeds/slow.xml') return; // never answers
    if (url.pathname === '/feeds/cut.xml') {
      // headers and half a feed, then the connection drops
      res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-length': '100000' });
      res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Cut</title>');
      return void setTimeout(() => res.destroy(), 20);
    }
    if (url.pathname === '/feeds/broken.xml') {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      return void res.end('<rss><channel><title>cut mid');
    }
    // an analytics hop (302) in front of the audio, as podtrac-style prefixes do
    if (url.pathname.startsWith('/stats/')) return void res.writeHead(302, { location: url.pathname.slice('/stats'.length) }).end();
    if (url.pathname.startsWith('/audio/')) {
      const body = state.audio?.body ?? AUDIO;
      const type = state.audio?.type ?? 'audio/mpeg';
      const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
      if (!range) return void res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'accept-ranges': 'bytes' }).end(body);
      const start = Number(range[1] || 0);
      const end = Math.min(range[2] ? Number(range[2]) : body.length - 1, body.length - 1);
      res.writeHead(206, { 'content-type': type, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${body.length}`, 'accept-ranges': 'bytes' });
      return void res.end(body.subarray(start, end + 1));
    }
    res.writeHead(404).end();
  });
  return Object.assign(http, { state });
}
