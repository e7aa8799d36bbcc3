// A stand-in for the sites whose feeds a household follows (reference/briefing.md §1, "fake-feeds"):
// RSS 2.0 with ETag and Last-Modified (a 304 only on an exact match), Atom in YouTube's style
// (media:group), RDF, JSON Feed, a feed with no validators, duplicate guids, HTML in descriptions,
// an ISO-8859-1 feed, a site page naming its feed with <link rel=alternate>, a page naming none,
// 301 and 302 redirects, 410, 429 with Retry-After, malformed XML, a wrong Content-Type, a 6 MB
// body and a feed that never answers. `items` of /rss.xml can be changed (a new version changes the ETag).
import { startFakeHttp, type FakeHttp } from './today-http.js';

export interface FakeFeedItem {
  guid: string;
  title: string;
  link: string;
  description: string;
  pubDate: string;
}

export interface FakeFeeds extends FakeHttp {
  /** /rss.xml's items; changing them changes its ETag and Last-Modified. */
  rssItems: FakeFeedItem[];
  /** A path answering something else for now: 'gone' (410), 'limited' (429), 'moved' (301 to /rss.xml). */
  override: Map<string, 'gone' | 'limited' | 'moved'>;
  opml(): string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const DEFAULT_RSS_ITEMS: FakeFeedItem[] = [
  { guid: 'rss-1', title: 'Harbour bridge reopens', link: 'https://news.example/a/1', description: '<p>Repairs finished <b>early</b>.</p><img src="https://news.example/img/1.jpg">', pubDate: 'Thu, 14 May 2026 07:30:00 GMT' },
  { guid: 'rss-2', title: 'Ferry timetable changes', link: 'https://news.example/a/2', description: 'The summer timetable starts on Monday.', pubDate: 'Wed, 13 May 2026 18:00:00 +0200' },
  { guid: 'rss-2', title: 'Ferry timetable changes (again)', link: 'https://news.example/a/2', description: 'A duplicate guid.', pubDate: 'Wed, 13 May 2026 18:00:00 +0200' },
];

export async function startFakeFeeds(): Promise<FakeFeeds> {
  const state = { rssItems: DEFAULT_RSS_ITEMS.map((i) => ({ ...i })) };
  const override = new Map<string, 'gone' | 'limited' | 'moved'>();
  let origin = '';
  const version = () => Buffer.from(JSON.stringify(state.rssItems)).toString('base64url').slice(-12);
  const rss = () =>
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Example Times</title><link>https://news.example/</link>` +
    state.rssItems.map((i) => `<item><guid>${esc(i.guid)}</guid><title>${esc(i.title)}</title><link>${esc(i.link)}</link><description>${esc(i.description)}</description><pubDate>${i.pubDate}</pubDate></item>`).join('') +
    `</channel></rss>`;
  const atom = `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xmlns:yt="http://www.youtube.com/xml/schemas/2015"><title>Harbour Channel</title><link rel="alternate" href="https://video.example/channel"/><id>yt:channel:1</id>
<entry><id>yt:video:abc</id><title>Sunrise over the harbour</title><link rel="alternate" href="https://video.example/watch?v=abc"/><published>2026-05-14T06:00:00+00:00</published><media:group><media:title>Sunrise</media:title><media:thumbnail url="https://i.video.example/abc.jpg" width="480" height="360"/><media:description>A calm morning.</media:description></media:group></entry></feed>`;
  const rdf = `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel rdf:about="https://rdf.example/"><title>Old Wire</title><link>https://rdf.example/</link></channel><item rdf:about="https://rdf.example/1"><title>Lighthouse lamp replaced</title><link>https://rdf.example/1</link><description>New lamp.</description><dc:date>2026-05-12T10:00:00Z</dc:date></item></rdf:RDF>`;
  const json = JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'Town Notes', home_page_url: 'https://notes.example/', items: [{ id: 'n1', url: 'https://notes.example/1', title: 'Market moves to Saturday', content_html: '<p>From next week.</p>', date_published: '2026-05-11T09:00:00Z', image: 'https://notes.example/1.jpg' }] });
  // another site carrying two of Example Times' stories: one by the same link (an older copy), one by the same guid (a newer copy)
  const mirror = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Harbour Wire</title><link>https://wire.example/</link>` +
    `<item><guid>wire-1</guid><title>Harbour bridge reopens (Wire)</title><link>https://news.example/a/1</link><description>Copied.</description><pubDate>Thu, 14 May 2026 06:00:00 GMT</pubDate></item>` +
    `<item><guid>rss-2</guid><title>Ferry timetable changes (Wire)</title><link>https://wire.example/ferry</link><description>Same guid.</description><pubDate>Thu, 14 May 2026 08:00:00 GMT</pubDate></item>` +
    `<item><guid>wire-3</guid><title>Storm warning lifted</title><link>https://wire.example/3</link><description>Only here.</description><pubDate>Thu, 14 May 2026 05:00:00 GMT</pubDate></item></channel></rss>`;
  const latin1 = Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Café Nouvelles</title><link>https://cafe.example/</link><item><guid>c1</guid><title>Crème brûlée à la fête</title><link>https://cafe.example/1</link><pubDate>Mon, 11 May 2026 08:00:00 GMT</pubDate></item></channel></rss>`, 'latin1');

  const http = await startFakeHttp(async (req, res, url) => {
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
      res.end(body);
    };
    const mode = override.get(url.pathname);
    if (mode === 'gone') return send(410, 'text/plain', 'Gone');
    if (mode === 'limited') return send(429, 'text/plain', 'Too Many Requests', { 'retry-after': '7200' });
    if (mode === 'moved') return send(301, 'text/plain', '', { location: `${origin}/rss.xml` });
    switch (url.pathname) {
      case '/rss.xml': {
        const etag = `"${version()}"`;
        const lastModified = new Date(Date.UTC(2026, 4, 14, 8, state.rssItems.length)).toUTCString();
        if (req.headers['if-none-match'] === etag || (req.headers['if-none-match'] === undefined && req.headers['if-modified-since'] === lastModified)) {
          res.writeHead(304, { etag, 'last-modified': lastModified });
          return void res.end();
        }
        return send(200, 'application/rss+xml; charset=utf-8', rss(), { etag, 'last-modified': lastModified });
      }
      case '/mirror.xml':
        return send(200, 'application/rss+xml', mirror);
      case '/atom.xml':
        return send(200, 'text/html', atom); // a Content-Type that lies
      case '/rdf.xml':
        return send(200, 'application/rdf+xml', rdf);
      case '/feed.json':
        return send(200, 'application/feed+json', json);
      case '/novalidators.xml':
        return send(200, 'application/octet-stream', rss());
      case '/latin1.xml':
        return send(200, 'application/xml', latin1);
      case '/site.html':
        return send(200, 'text/html; charset=utf-8', '<!doctype html><html><head><title>Channel</title><link rel="alternate" type="application/atom+xml" title="Videos" href="/atom.xml"></head><body>Hello</body></html>');
      case '/plain.html':
        return send(200, 'text/html', '<!doctype html><html><head><title>No feed here</title></head><body>Nothing</body></html>');
      case '/temporary':
        return send(302, 'text/plain', '', { location: `${origin}/rss.xml` });
      case '/malformed.xml':
        return send(200, 'application/rss+xml', '<?xml version="1.0"?><rss version="2.0"><channel><title>Broken</title><item><title>Unclosed</channel></rss>');
      case '/huge.xml': {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title>');
        const chunk = `<item><title>${'x'.repeat(1000)}</title></item>`.repeat(64);
        for (let sent = 0; sent < 6 * 1024 * 1024 && !res.destroyed; sent += chunk.length) {
          if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
        }
        return void res.end('</channel></rss>');
      }
      case '/hang':
        return; // never answers
      default:
        return send(404, 'text/html', '<h1>Not found</h1>');
    }
  });
  origin = http.origin;
  return {
    ...http,
    override,
    get rssItems() {
      return state.rssItems;
    },
    set rssItems(items: FakeFeedItem[]) {
      state.rssItems = items;
    },
    opml: () =>
      `<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><head><title>Household feeds</title></head><body>` +
      `<outline text="World" title="World"><outline type="rss" text="Example Times" xmlUrl="${origin}/rss.xml" htmlUrl="https://news.example/"/><outline type="rss" text="Old Wire" xmlUrl="${origin}/rdf.xml"/></outline>` +
      `<outline type="rss" text="Notes" xmlUrl="${origin}/feed.json"/><outline type="rss" text="Mail" xmlUrl="mailto:someone@example.com"/><outline text="Empty folder"/>` +
      `</body></opml>`,
  };
}
