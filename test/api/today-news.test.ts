// News over HTTP against the fake feed sites: adding feeds of every format (and a site page naming
// its feed), OPML import, the conditional GET proven by the site's log (the second poll sends the
// validators and gets a 304), Retry-After honoured by "poll now", 410 stopping a feed, 301 moving it,
// garbage, a 6 MB body and a hanging feed never stalling the server, a member hiding a feed,
// deleting a feed with its items, paging, and access (401 anonymous, 403 member on admin routes).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NewsFeed, NewsResponse } from '../../server/modules/today/schema.js';
import { DEFAULT_RSS_ITEMS, startFakeFeeds, type FakeFeeds } from '../fakes/feeds.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('Today: news', () => {
  let s: TestServer;
  let site: FakeFeeds;

  beforeAll(async () => {
    site = await startFakeFeeds();
    s = await startTestServer({ seed: 'household', config: { fetchAllowOrigins: [site.origin] }, overrides: { tuning: { todayFetchTimeoutMs: 1500 } } });
  });
  afterAll(async () => {
    await s.close();
    await site.close();
  });
  beforeEach(async () => {
    site.override.clear();
    site.rssItems = DEFAULT_RSS_ITEMS.map((i) => ({ ...i }));
    site.requests.length = 0;
    await s.handle.deps.db('news_feeds').delete();
    await s.handle.deps.db('today_cache').delete();
  });

  const add = (path: string) => s.admin.post('/api/admin/news/feeds', { url: `${site.url}${path}` });

  it('guards every route', async () => {
    expect((await s.anon.get('/api/news')).status).toBe(401);
    expect((await s.anon.put('/api/news/feeds/1/hidden', { hidden: true })).status).toBe(401);
    for (const [m, p] of [
      ['get', '/api/admin/news/feeds'],
      ['post', '/api/admin/news/feeds'],
      ['post', '/api/admin/news/opml'],
      ['delete', '/api/admin/news/feeds/1'],
      ['post', '/api/admin/news/feeds/1/refresh'],
    ] as const) {
      expect((await s.member[m](p)).status).toBe(403);
    }
    expect(site.requests).toHaveLength(0);
  });

  it('adds RSS, Atom (YouTube style, wrong Content-Type), RDF, JSON Feed and ISO-8859-1 feeds, and follows a site page to its feed', async () => {
    // chat's news tool is not offered while the household follows no feed (it could only say "no headlines")
    const newsTool = async () => ((await s.member.get('/api/tools')).body.tools as Array<{ id: string; available: boolean; unavailableReason: string | null }>).find((t) => t.id === 'news')!;
    expect(await newsTool()).toMatchObject({ available: false, unavailableReason: 'The household follows no news feeds yet.' });
    const rss = await add('/rss.xml');
    expect((await newsTool()).unavailableReason).not.toBe('The household follows no news feeds yet.');
    expect(rss.status).toBe(200);
    expect(NewsFeed.parse(rss.body)).toMatchObject({ title: 'Example Times', siteUrl: 'https://news.example/', state: 'active', itemCount: 2, lastError: null });
    expect((await add('/site.html')).body).toMatchObject({ url: `${site.url}/atom.xml`, title: 'Harbour Channel', itemCount: 1 });
    expect((await add('/rdf.xml')).body).toMatchObject({ title: 'Old Wire', itemCount: 1 });
    expect((await add('/feed.json')).body).toMatchObject({ title: 'Town Notes', itemCount: 1 });
    expect((await add('/latin1.xml')).body).toMatchObject({ title: 'Café Nouvelles', itemCount: 1 });

    const news = await s.member.get('/api/news');
    expect(news.status).toBe(200);
    const body = NewsResponse.parse(news.body);
    expect(body.items.map((i) => i.title)).toEqual(['Harbour bridge reopens', 'Sunrise over the harbour', 'Ferry timetable changes (again)', 'Lighthouse lamp replaced', 'Market moves to Saturday', 'Crème brûlée à la fête']);
    const first = body.items[0]!;
    expect(first).toMatchObject({ feedTitle: 'Example Times', url: 'https://news.example/a/1', summary: 'Repairs finished early.', publishedAt: '2026-05-14T07:30:00.000Z', imageUrl: 'https://news.example/img/1.jpg' });
    expect(body.items[1]).toMatchObject({ imageUrl: 'https://i.video.example/abc.jpg', url: 'https://video.example/watch?v=abc', summary: 'A calm morning.' });
    expect(body.items.find((i) => i.title === 'Market moves to Saturday')).toMatchObject({ summary: 'From next week.', imageUrl: 'https://notes.example/1.jpg' });
    expect(body).toMatchObject({ source: 'news', stale: false, ageSeconds: 0 });

    // paging: before the first item's time
    const older = await s.member.get(`/api/news?limit=2&before=${encodeURIComponent(first.publishedAt!)}`);
    expect(older.body.items.map((i: { title: string }) => i.title)).toEqual(['Sunrise over the harbour', 'Ferry timetable changes (again)']);
    const one = await s.member.get(`/api/news?feedId=${rss.body.id}`);
    expect(one.body.items.every((i: { feedId: number }) => i.feedId === rss.body.id)).toBe(true);
  });

  it('refuses what is not a feed, a second subscription, malformed XML and bad input, with sentences', async () => {
    const page = await add('/plain.html');
    expect(page.status).toBe(422);
    expect(page.body.error.code).toBe('not_a_feed');
    expect((await add('/malformed.xml')).status).toBe(422);
    expect((await add('/missing.xml')).status).toBe(503);
    expect((await s.admin.post('/api/admin/news/feeds', { url: 'ftp://x.example/feed' })).status).toBe(400);
    expect((await s.admin.post('/api/admin/news/feeds', { url: 'http://10.0.0.1/feed.xml' })).status).toBe(503);
    await add('/rss.xml');
    const twice = await add('/rss.xml');
    expect(twice.status).toBe(409);
    expect((await s.admin.get('/api/admin/news/feeds')).body.feeds).toHaveLength(1);
    expect((await s.member.get('/api/news?limit=0')).status).toBe(400);
    expect((await s.member.get('/api/news?before=yesterday')).status).toBe(400);
    expect((await s.admin.delete('/api/admin/news/feeds/abc')).status).toBe(400);
    expect((await s.admin.delete('/api/admin/news/feeds/999')).status).toBe(404);
  });

  it('polls with the validators it was given, byte for byte, and a 304 keeps the items', async () => {
    const feed = (await add('/rss.xml')).body as NewsFeed;
    const refreshed = await s.admin.post(`/api/admin/news/feeds/${feed.id}/refresh`);
    expect(refreshed.status).toBe(200);
    expect(site.requests).toHaveLength(2);
    const [firstReq, second] = site.requests;
    expect(firstReq).toMatchObject({ ifNoneMatch: undefined, ifModifiedSince: undefined });
    expect(second!.ifNoneMatch).toMatch(/^"[\w-]+"$/);
    expect(second!.ifModifiedSince).toBe(new Date(Date.UTC(2026, 4, 14, 8, 3)).toUTCString());
    expect(second!.userAgent).toMatch(/^Hearth\//);
    expect(refreshed.body).toMatchObject({ itemCount: 2, lastError: null });

    // a new item: a 200 with new validators; the duplicate guid stays one item
    site.rssItems = [{ guid: 'rss-3', title: 'New pier opens', link: 'https://news.example/a/3', description: 'Finally.', pubDate: 'Fri, 15 May 2026 07:00:00 GMT' }, ...site.rssItems];
    expect((await s.admin.post(`/api/admin/news/feeds/${feed.id}/refresh`)).body.itemCount).toBe(3);
    expect((await s.member.get('/api/news')).body.items[0].title).toBe('New pier opens');
  });

  it('honours Retry-After even for "poll now", stops a feed on 410, moves it on 301', async () => {
    const feed = (await add('/rss.xml')).body as NewsFeed;
    site.override.set('/rss.xml', 'limited');
    const limited = await s.admin.post(`/api/admin/news/feeds/${feed.id}/refresh`);
    expect(limited.body.lastError).toMatch(/Asked to wait/);
    const count = site.requests.length;
    await s.admin.post(`/api/admin/news/feeds/${feed.id}/refresh`);
    expect(site.requests).toHaveLength(count);
    // the items are kept while backing off
    expect((await s.member.get('/api/news')).body).toMatchObject({ stale: true, items: [{}, {}] });

    const other = (await add('/rdf.xml')).body as NewsFeed;
    site.override.set('/rdf.xml', 'gone');
    const gone = await s.admin.post(`/api/admin/news/feeds/${other.id}/refresh`);
    expect(gone.body).toMatchObject({ state: 'gone', nextPoll: null, lastError: expect.stringMatching(/gone/) });
    expect((await s.handle.deps.news.pollDue())).toBe(0); // neither the gone feed nor the limited one is polled

    await s.admin.delete(`/api/admin/news/feeds/${feed.id}`);
    const moving = (await add('/feed.json')).body as NewsFeed;
    site.override.delete('/rss.xml');
    site.override.set('/feed.json', 'moved');
    const moved = await s.admin.post(`/api/admin/news/feeds/${moving.id}/refresh`);
    expect(moved.body).toMatchObject({ url: `${site.url}/rss.xml`, lastError: null });
  });

  it('a 6 MB feed and a feed that never answers fail without stalling the server', async () => {
    await s.handle.deps.db('news_feeds').insert([
      { url: `${site.url}/huge.xml`, title: 'Huge', state: 'active', created_at: new Date().toISOString() },
      { url: `${site.url}/hang`, title: 'Hang', state: 'active', created_at: new Date().toISOString() },
    ]);
    const polling = s.handle.deps.news.pollDue();
    // the server answers while both fetches are under way
    expect((await s.member.get('/api/news')).status).toBe(200);
    expect(await polling).toBe(2);
    const feeds = (await s.admin.get('/api/admin/news/feeds')).body.feeds as NewsFeed[];
    expect(feeds.find((f) => f.title === 'Huge')!.lastError).toMatch(/more than 5 MB/);
    expect(feeds.find((f) => f.title === 'Hang')!.lastError).toMatch(/did not answer/);
  });

  it('imports OPML: folders become categories, non-http lines are skipped, known feeds counted', async () => {
    await add('/rss.xml');
    const res = await s.admin.req('POST', '/api/admin/news/opml', undefined, { raw: site.opml(), headers: { 'content-type': 'text/xml' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ existing: 1, skipped: 1 });
    expect(res.body.added.map((f: NewsFeed) => [f.title, f.category])).toEqual([
      ['Old Wire', 'World'],
      ['Notes', null],
    ]);
    // imported feeds are polled by the news task
    expect(await s.handle.deps.news.pollDue()).toBe(2);
    expect((await s.member.get('/api/news')).body.items).toHaveLength(4);
    const bad = await s.admin.req('POST', '/api/admin/news/opml', undefined, { raw: '<html>nope', headers: { 'content-type': 'text/xml' } });
    expect(bad.status).toBe(400);
    const json = await s.admin.post('/api/admin/news/opml', { x: 1 });
    expect(json.status).toBe(400);
  });

  it('lets a member hide a feed for themselves only; deleting a feed takes its items', async () => {
    const a = (await add('/rss.xml')).body as NewsFeed;
    await add('/feed.json');
    const hide = await s.member.put(`/api/news/feeds/${a.id}/hidden`, { hidden: true });
    expect(hide.body).toEqual({ feedId: a.id, hidden: true });
    const mine = NewsResponse.parse((await s.member.get('/api/news')).body);
    expect(mine.items.map((i) => i.feedTitle)).toEqual(['Town Notes']);
    expect(mine.feeds.find((f) => f.id === a.id)).toMatchObject({ hidden: true });
    expect((await s.admin.get('/api/news')).body.items).toHaveLength(3);
    expect((await s.member.put('/api/news/feeds/999/hidden', { hidden: true })).status).toBe(404);
    expect((await s.member.put(`/api/news/feeds/${a.id}/hidden`, { hidden: 'yes' })).status).toBe(400);
    await s.member.put(`/api/news/feeds/${a.id}/hidden`, { hidden: false });
    expect((await s.member.get('/api/news')).body.items).toHaveLength(3);

    expect((await s.admin.delete(`/api/admin/news/feeds/${a.id}`)).status).toBe(204);
    expect(await s.handle.deps.db('news_items').where({ feed_id: a.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await s.handle.deps.db('today_cache').where({ key: `news:${a.id}` }).first()).toBeUndefined();
  });

  it('lists a story carried by two feeds once (same URL or same guid), the newest copy; a member who hides that feed sees the other copy', async () => {
    const times = await add('/rss.xml');
    const wire = await add('/mirror.xml');
    expect([times.status, wire.status]).toEqual([200, 200]);
    const list = NewsResponse.parse((await s.member.get('/api/news')).body);
    const shown = list.items.map((i) => `${i.feedTitle}: ${i.title}`);
    // story 1: same link, Example Times' copy is newer; story 2: same guid, the Wire's copy is newer
    expect(shown).toEqual(['Harbour Wire: Ferry timetable changes (Wire)', 'Example Times: Harbour bridge reopens', 'Harbour Wire: Storm warning lifted']);
    expect(list.items.filter((i) => i.url === 'https://news.example/a/1')).toHaveLength(1);

    // one feed's own list keeps all of its items
    const own = NewsResponse.parse((await s.member.get(`/api/news?feedId=${times.body.id}`)).body);
    expect(own.items.map((i) => i.title)).toEqual(['Harbour bridge reopens', 'Ferry timetable changes (again)']);

    // hiding Example Times: the Wire's copy of story 1 is the one left
    await s.member.put(`/api/news/feeds/${times.body.id}/hidden`, { hidden: true });
    const hidden = NewsResponse.parse((await s.member.get('/api/news')).body);
    expect(hidden.items.map((i) => i.title)).toEqual(['Ferry timetable changes (Wire)', 'Harbour bridge reopens (Wire)', 'Storm warning lifted']);
    // another member still sees Example Times' copy
    expect(NewsResponse.parse((await s.admin.get('/api/news')).body).items.map((i) => i.feedTitle)).toContain('Example Times');
    await s.member.put(`/api/news/feeds/${times.body.id}/hidden`, { hidden: false });
  });
});
