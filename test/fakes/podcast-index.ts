// A stand-in for Podcast Index's API (reference/media-hubs.md §1.2 and §4, "fake-podcastindex"):
// `/api/1.0/search/byterm?q=&max=&clean` answering `{status:"true", feeds[{id, title, url,
// originalUrl, author, image, artwork, itunesId, dead, …}], count, query}`, at most 60 feeds. Every
// call is checked like the real one: a User-Agent, X-Auth-Key naming the key, X-Auth-Date within
// 5 minutes of now, and Authorization = lowercase hex SHA-1 of key + secret + date; anything else
// is 401. Modes: 'ok', 'busy' (429, as when over ~1 request a second), 'slow' (no answer), 'garbage'
// (an HTML page with a 200). Down is `down()`. Every request's auth headers are recorded.
import { createHash } from 'node:crypto';
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

export const PI_KEY = 'FAKEPIKEY7QXJ2WBNC4D';
export const PI_SECRET = 'fake$secret^for#tests^a1b2c3d4e5f6g7h8i9j0kLmNoPqRsT';

export interface PiAuth {
  path: string;
  key: string | undefined;
  date: string | undefined;
  authorization: string | undefined;
  userAgent: string | undefined;
  ok: boolean;
}

export interface FakePodcastIndex extends FakeHttp {
  mode: 'ok' | 'busy' | 'slow' | 'garbage';
  /** The feed address the first result names (a test points it at its feed fake). */
  feedUrl: string;
  auths: PiAuth[];
  /** The base a test gives as PODCASTINDEX_BASE. */
  readonly base: string;
  reset(): void;
}

const header = (v: string | string[] | undefined) => (typeof v === 'string' ? v : undefined);

export async function startFakePodcastIndex(): Promise<FakePodcastIndex> {
  const state = { mode: 'ok' as FakePodcastIndex['mode'], feedUrl: 'https://feeds.example.org/kitchen.xml' };
  const auths: PiAuth[] = [];
  const http = await startFakeHttp((req, res, url) => {
    const key = header(req.headers['x-auth-key']);
    const date = header(req.headers['x-auth-date']);
    const authorization = header(req.headers.authorization);
    const userAgent = header(req.headers['user-agent']);
    const fresh = date !== undefined && /^\d+$/.test(date) && Math.abs(Number(date) - Date.now() / 1000) <= 300;
    const ok = !!userAgent && key === PI_KEY && fresh && authorization === createHash('sha1').update(PI_KEY + PI_SECRET + date).digest('hex');
    auths.push({ path: url.pathname, key, date, authorization, userAgent, ok });
    if (state.mode === 'slow') return; // never answers
    if (!ok) return sendJson(res, 401, { status: 'false', description: 'Authorization header is invalid or missing' });
    if (state.mode === 'busy') return sendJson(res, 429, { status: 'false', description: 'Too many requests' }, { 'retry-after': '1' });
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
      return;
    }
    if (url.pathname !== '/api/1.0/search/byterm') return sendJson(res, 404, { status: 'false', description: 'Not found' });
    const q = url.searchParams.get('q') ?? '';
    const max = Math.min(60, Math.max(1, Number(url.searchParams.get('max') ?? 10) || 10));
    const feeds = [
      { id: 920001, title: 'Kitchen Table Talk', url: state.feedUrl, originalUrl: state.feedUrl, link: 'https://kitchen.example.org', description: 'Cooking at home.', author: 'The Hosts', image: `${http.url}/img/kitchen.jpg`, artwork: `${http.url}/art/kitchen.jpg`, lastUpdateTime: 1764000000, itunesId: 1500001, language: 'en', categories: { 10: 'Food' }, dead: 0 },
      { id: 920002, title: 'Kitchen Archive (gone)', url: 'https://old.example.org/feed.xml', originalUrl: 'https://old.example.org/feed.xml', author: 'Nobody', image: '', artwork: '', itunesId: null, dead: 1 },
      { id: 920003, title: 'Kitchen Sink Radio', url: 'https://sink.example.org/rss', originalUrl: 'https://sink.example.org/rss', author: '', image: `${http.url}/img/sink.jpg`, artwork: '', itunesId: null, dead: 0 },
      ...Array.from({ length: 70 }, (_, i) => ({ id: 930000 + i, title: `Kitchen Extra ${i + 1}`, url: `https://extra.example.org/${i}.xml`, originalUrl: '', author: 'Extra', image: '', artwork: '', itunesId: null, dead: 0 })),
    ].filter((f) => f.title.toLowerCase().includes(q.toLowerCase()) || q === 'podcast');
    const shown = feeds.slice(0, max);
    sendJson(res, 200, { status: 'true', feeds: shown, count: shown.length, query: q, description: 'Found matching feeds.' });
  });
  const fake = Object.assign(http, {
    auths,
    base: `${http.url}/api/1.0`,
    reset() {
      state.mode = 'ok';
      auths.length = 0;
      http.requests.length = 0;
    },
  });
  Object.defineProperty(fake, 'mode', { get: () => state.mode, set: (m: FakePodcastIndex['mode']) => (state.mode = m), enumerable: true });
  Object.defineProperty(fake, 'feedUrl', { get: () => state.feedUrl, set: (u: string) => (state.feedUrl = u), enumerable: true });
  return fake as FakePodcastIndex;
}
