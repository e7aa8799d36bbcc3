// Unified search (GET /api/search) over a real household: Reader items from both sides of the
// privacy boundary, the fixture archives served by the real kiwix-serve, the App Store's tools and
// the web app's pages; then the archive server stopped, which is named while the rest answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchResponse } from '../../server/modules/search/schema.js';
import { freePort } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { fixtureCatalog, installFixtureArchives } from '../harness/archives.js';
import { buildTestZims, kiwixServeOnPath, type TestZims } from '../harness/zims.js';
import type { TestClient } from '../harness/client.js';

describe('unified search', () => {
  const temp = makeTempDir();
  let zims: TestZims;
  let s: TestServer;
  let kim: TestClient; // a second member

  const search = async (c: TestClient, qs: string) => {
    const r = await c.get(`/api/search?${qs}`);
    expect(r.status, r.text).toBe(200);
    return SearchResponse.parse(r.body);
  };
  const titles = (res: SearchResponse, type: string) => res.groups.find((g) => g.type === type)?.results.map((r) => r.title) ?? [];
  const addItem = async (c: TestClient, title: string, url: string) => {
    const r = await c.post('/api/reader', { url, title, type: 'live' });
    expect(r.status, r.text).toBe(201);
    return r.body.item.id as string;
  };

  let samItem: string;
  beforeAll(async () => {
    zims = buildTestZims();
    s = await startTestServer({
      seed: 'household',
      config: { archiveCatalogPath: fixtureCatalog(temp.dir, zims), archiveServerPort: await freePort(), kiwixServePath: kiwixServeOnPath() },
    });
    await installFixtureArchives(s, zims, temp.dir);
    const m = await s.admin.post('/api/admin/users', { name: 'Kim', pin: '2468', role: 'member' });
    kim = await s.signIn(m.body.user.id, '2468');
    samItem = await addItem(s.member, 'Fixing the water heater at home', 'https://example.org/sam-heater');
    await addItem(s.admin, 'Alex private heater notes', 'https://example.org/alex-heater');
    await addItem(kim, 'Kim heater diary', 'https://example.org/kim-heater');
    const household = await s.admin.post('/api/admin/reader', { url: 'https://example.org/household-heater', title: 'Household heater manual' });
    expect(household.status, household.text).toBe(201);
  }, 120_000);

  // closing stops kiwix-serve and the capture browser the Reader items started
  afterAll(async () => {
    await s?.close();
    zims?.remove();
    temp.remove();
  });

  it('answers a signed-in person only', async () => {
    const r = await s.anon.get('/api/search?q=heater');
    expect(r.status).toBe(401);
  });

  it('refuses an empty query, an unknown type and a limit out of range with a sentence', async () => {
    for (const qs of ['q=', 'q=%20%20', '']) {
      const r = await s.member.get(`/api/search?${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(JSON.stringify(r.body.error)).toMatch(/Type something to search for|expected string/);
    }
    const bad = await s.member.get('/api/search?q=heater&types=reader,spaceships');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toContain('types is a comma-separated list of: reader, archive, device, conversation, tool, page, memo.');
    for (const limit of ['0', '21', 'many']) expect((await s.member.get(`/api/search?q=heater&limit=${limit}`)).status, limit).toBe(400);
    expect((await s.member.get(`/api/search?q=${'x'.repeat(201)}`)).status).toBe(400);
  });

  it('groups Reader items and archive articles, in a fixed order, each with a web app url', async () => {
    const res = await search(s.member, 'q=heater');
    expect(res.q).toBe('heater');
    expect(res.unavailable).toEqual([]);
    expect(res.groups.map((g) => g.type)).toEqual(['reader', 'archive']);
    expect(res.groups.map((g) => g.label)).toEqual(['Reader', 'Offline archives']);
    const reader = res.groups[0]!.results;
    expect(reader.find((r) => r.id === samItem)).toMatchObject({ type: 'reader', title: 'Fixing the water heater at home', url: `/reader/${samItem}` });
    const article = res.groups[1]!.results.find((r) => r.title === 'Water heater');
    expect(article).toMatchObject({ type: 'archive', id: 'fixturepedia/A/Water_heater', url: '/read/fixturepedia/A/Water_heater' });
    expect(article!.snippet).toMatch(/^Fixturepedia/);
  });

  it('finds archive articles by full text as well as by title', async () => {
    // "Thermostat" is a title (suggest); the Circuit breaker and Insulation articles only link to
    // it in their text (the full-text index)
    const res = await search(s.member, 'q=thermostat&types=archive&limit=20');
    const found = res.groups[0]!.results.map((r) => r.title);
    expect(found[0]).toBe('Thermostat');
    expect(found).toEqual(expect.arrayContaining(['Circuit breaker', 'Insulation']));
  });

  it('keeps each member to their own and the household Reader items', async () => {
    expect(titles(await search(s.member, 'q=heater&types=reader'), 'reader').sort()).toEqual(['Fixing the water heater at home', 'Household heater manual']);
    expect(titles(await search(kim, 'q=heater&types=reader'), 'reader').sort()).toEqual(['Household heater manual', 'Kim heater diary']);
    // an admin is no exception
    expect(titles(await search(s.admin, 'q=heater&types=reader'), 'reader').sort()).toEqual(['Alex private heater notes', 'Household heater manual']);
    expect(await search(kim, 'q=Fixing&types=reader')).toMatchObject({ groups: [] });
  });

  it('leaves out household items the member hid', async () => {
    const list = await s.member.get('/api/reader?q=Household');
    const id = list.body.items[0].id as string;
    expect((await s.member.put(`/api/reader/hide/${id}`, {})).status).toBeLessThan(300);
    expect(titles(await search(s.member, 'q=heater&types=reader'), 'reader')).toEqual(['Fixing the water heater at home']);
    expect((await s.member.delete(`/api/reader/hide/${id}`)).status).toBeLessThan(300);
  });

  it('filters by type and caps each group at limit', async () => {
    const onlyArchive = await search(s.member, 'q=heater&types=archive');
    expect(onlyArchive.groups.map((g) => g.type)).toEqual(['archive']);
    const one = await search(s.member, 'q=heater&limit=1');
    expect(one.groups.map((g) => g.results.length)).toEqual([1, 1]);
    const many = await search(s.member, 'q=water&types=archive&limit=20');
    expect(many.groups[0]!.results.length).toBeGreaterThan(5);
  });

  it('finds pages by the words people use, admin pages for admins only', async () => {
    const admin = await search(s.admin, 'q=pin&types=page');
    expect(admin.groups[0]!.results[0]).toMatchObject({ type: 'page', id: 'members', title: 'Members', url: '/members' });
    expect(titles(await search(s.admin, 'q=profile'), 'page')).toContain('Members');
    expect(await search(s.member, 'q=pin&types=page')).toMatchObject({ groups: [] });
    expect(titles(await search(s.member, 'q=downl&types=page'), 'page')).toEqual(['Downloads']);
    expect(titles(await search(s.member, 'q=encyclopedia&types=page'), 'page')).toEqual(['Library']);
  });

  it('finds apps and Extensions by name, description and examples', async () => {
    const res = await search(s.admin, 'q=library&types=tool');
    expect(res.groups[0]!.results[0]).toMatchObject({ type: 'tool', id: 'library', title: 'Library', url: '/library' });
    // an Extension has no page: it opens the App Store
    const ext = await search(s.admin, 'q=archive%20search&types=tool');
    expect(ext.groups[0]!.results[0]).toMatchObject({ id: 'archive_search', url: '/apps' });
    // by an example: "Find the recipe I saved last week"
    expect(titles(await search(s.member, 'q=recipe&types=tool'), 'tool')).toEqual(['Reader']);
  });

  it('leaves out a switched-off tool\'s Reader items and pages; its App Store entry stays', async () => {
    expect((await s.admin.put('/api/tools/reader/enabled', { enabled: false })).status).toBe(200);
    try {
      const res = await search(s.member, 'q=reader');
      expect(res.groups.find((g) => g.type === 'reader')).toBeUndefined();
      expect(titles(res, 'page')).not.toContain('Reader');
      expect(res.groups.find((g) => g.type === 'tool')!.results[0]).toMatchObject({ id: 'reader', url: '/apps' });
    } finally {
      expect((await s.admin.put('/api/tools/reader/enabled', { enabled: true })).status).toBe(200);
    }
  });

  it('an archive marked above a member\'s Archives level is absent from their lists, archive search, unified search and the chat tool (issue 32)', async () => {
    const kimId = (await kim.get('/api/auth/me')).body.user.id as string;
    const kimActor = { kind: 'user' as const, id: kimId, name: 'Kim', role: 'member' as const, sessionId: '' };
    const tool = s.handle.deps.chatTools.get('archive_search')!;
    const books = (urls: string[]) => urls.filter((u) => u.includes('fixturebooks'));
    const installedIds = async (c: TestClient) => ((await c.get('/api/archives/installed')).body.archives as { sourceId: string }[]).map((a) => a.sourceId).sort();
    const unifiedIds = async (c: TestClient, q: string) => (await search(c, `q=${q}&types=archive&limit=20`)).groups.flatMap((g) => g.results.map((r) => r.id));
    const archiveSearch = async (c: TestClient, qs: string) => ((await c.get(`/api/archives/search?${qs}`)).body.sources as { sourceId: string }[]).map((x) => x.sourceId);
    const toolUrls = async () => (await tool.run({ query: 'Garden' }, { actor: kimActor, signal: new AbortController().signal })).sources.map((x) => x.url);

    // at teen (the default for member and archive), Kim finds the books everywhere
    expect(await installedIds(kim)).toEqual(['fixturebooks', 'fixturepedia']);
    expect((await kim.get('/api/archives/installed')).body.hiddenByContent).toBe(false);
    expect(books(await unifiedIds(kim, 'Garden')).length).toBeGreaterThan(0);
    expect(await archiveSearch(kim, 'q=Garden&sources=fixturebooks')).toContain('fixturebooks');
    expect(books(await toolUrls()).length).toBeGreaterThan(0);

    expect((await kim.put('/api/admin/content/archives/fixturebooks', { level: 'adult' })).status).toBe(403);
    expect((await s.admin.put('/api/admin/content/archives/nothing-here', { level: 'adult' })).status).toBe(404);
    expect((await s.admin.put('/api/admin/content/archives/fixturebooks', { level: 'grown-up' })).status).toBe(400);
    const marked = await s.admin.put('/api/admin/content/archives/fixturebooks', { level: 'adult' });
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body).toEqual({ sourceId: 'fixturebooks', level: 'adult' });
    try {
      expect(await installedIds(kim)).toEqual(['fixturepedia']);
      // the Library says some were left out, for Kim only
      expect((await kim.get('/api/archives/installed')).body.hiddenByContent).toBe(true);
      expect((await s.admin.get('/api/archives/installed')).body.hiddenByContent).toBe(false);
      expect(books(await unifiedIds(kim, 'Garden'))).toEqual([]);
      expect(await archiveSearch(kim, 'q=Garden')).not.toContain('fixturebooks');
      expect(await archiveSearch(kim, 'q=Garden&sources=fixturebooks')).toEqual([]);
      expect(books(await toolUrls())).toEqual([]);
      // the adult admin still has it, marked
      const adminSees = (await s.admin.get('/api/archives/installed')).body.archives as { sourceId: string; level: string }[];
      expect(adminSees.find((a) => a.sourceId === 'fixturebooks')).toMatchObject({ level: 'adult' });
      // and the admin's catalog says each installed archive's level (the Archives admin page sets it)
      const catalog = (await s.admin.get('/api/admin/archives/catalog')).body.sources as { id: string; installed: { level: string } | null }[];
      expect(catalog.find((c) => c.id === 'fixturebooks')?.installed).toMatchObject({ level: 'adult' });
      expect(catalog.find((c) => c.id === 'fixturepedia')?.installed).toMatchObject({ level: 'teen' });
      expect(books(await unifiedIds(s.admin, 'Garden')).length).toBeGreaterThan(0);

      // Kim at child: the encyclopedia (teen) goes too
      expect((await s.admin.put(`/api/admin/content/members/${kimId}`, { level: 'child' })).status).toBe(200);
      expect(await installedIds(kim)).toEqual([]);
      expect(await unifiedIds(kim, 'heater')).toEqual([]);
      expect(await archiveSearch(kim, 'q=heater')).toEqual([]);
    } finally {
      await s.admin.put(`/api/admin/content/members/${kimId}`, { level: 'teen' });
      await s.admin.put('/api/admin/content/archives/fixturebooks', { level: 'teen' });
    }
  });

  // last: it stops the archive server
  it('names the archives as unavailable when the archive server is stopped; the rest still answers', async () => {
    await s.handle.deps.archives.stop();
    const res = await search(s.member, 'q=heater');
    expect(res.groups.map((g) => g.type)).toEqual(['reader']);
    expect(res.unavailable).toEqual([{ type: 'archive', reason: expect.stringMatching(/archive server/i) }]);
  });
});
