import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Collection, FullReaderItem, ItemListResponse, MAX_TAG_CHARS, Tag } from '../../server/modules/reader/schema.js';
import { newItemRecord } from '../../server/modules/reader/item-rows.js';
import { FakeCaptureEngine } from '../fakes/capture-engine.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import type { TestClient } from '../harness/client.js';

describe('reader items, collections, tags, search', () => {
  let s: TestServer;
  let engine: FakeCaptureEngine;
  let other: TestClient; // a second member
  beforeAll(async () => {
    engine = new FakeCaptureEngine();
    engine.hold(); // nothing is captured in this file: rows stay as created
    s = await startTestServer({ seed: 'household', overrides: { captureEngine: engine } });
    const m = await s.admin.post('/api/admin/users', { name: 'Kim', pin: '2468', role: 'member' });
    other = await s.signIn(m.body.user.id, '2468');
  });
  afterAll(async () => {
    engine.release();
    await s.close();
  });
  beforeEach(async () => {
    await s.handle.deps.db('reader_items').delete();
    await s.handle.deps.db('reader_collections').delete();
    await s.handle.deps.db('reader_tags').delete();
    await s.handle.deps.db('user_preferences').where({ key: 'bookmarks.hidden' }).delete();
  });

  const create = async (c: TestClient, body: Record<string, unknown>) => {
    const r = await c.post('/api/reader', body);
    expect(r.status, r.text).toBe(201);
    return FullReaderItem.parse(r.body.item);
  };
  const list = async (c: TestClient, qs = '') => {
    const r = await c.get(`/api/reader${qs}`);
    expect(r.status, r.text).toBe(200);
    return ItemListResponse.parse(r.body);
  };
  /** Sets the article text directly, as a finished capture would. */
  const setContent = (id: string, fields: Record<string, unknown>) => s.handle.deps.db('reader_items').where({ id }).update(fields);

  describe('access', () => {
    it('every reader route needs a session (401) and admin routes answer 403 to members', async () => {
      const readerRoutes = s.handle.routes.filter(
        (r) => r.access !== 'none' && (r.path.startsWith('/api/reader') || r.path.startsWith('/api/bookmarks') || r.path.startsWith('/api/proxy')),
      );
      // the only open reader route is the snapshot's token path (a bad token is a 404)
      expect(s.handle.routes.filter((r) => r.access === 'none' && r.path.startsWith('/api/reader')).map((r) => r.path)).toEqual(['/api/reader/:id/archive-t/:token/*rest']);
      expect(readerRoutes.length).toBeGreaterThan(15);
      for (const r of readerRoutes) {
        const path = r.path.replace(':id', 'x').replace('*rest', 'index.html');
        const res = await s.anon.req(r.method.toUpperCase() as 'GET', path, r.method === 'get' ? undefined : {});
        expect(res.status, `${r.method} ${path}`).toBe(401);
      }
      for (const base of ['/api/admin/reader', '/api/admin/bookmarks']) {
        expect((await s.member.get(base)).status).toBe(403);
        expect((await s.member.post(base, { url: 'https://example.com' })).status).toBe(403);
        expect((await s.member.patch(`${base}/x`, {})).status).toBe(403);
        expect((await s.member.delete(`${base}/x`)).status).toBe(403);
        expect((await s.anon.get(base)).status).toBe(401);
      }
    });
  });

  describe('POST /api/reader', () => {
    it('creates an offline article as pending with tags and a new collection', async () => {
      const item = await create(s.member, { url: 'https://example.com/a', tags: ['Cooking', 'cooking', ' Quick  Meals '], collectionName: 'Recipes' });
      expect(item).toMatchObject({ type: 'offline', source: 'article', archiveState: 'pending', status: 'unread', ownerId: s.users.member.id, isGlobal: false, canEdit: true, isHidden: false, category: 'Other' });
      expect(item.tags).toEqual(['Cooking', 'Quick Meals']);
      expect(item.collectionId).not.toBeNull();
      expect(item).not.toHaveProperty('contentHash');
      expect(item).not.toHaveProperty('snapshotPath');
      const cols = (await s.member.get('/api/reader/collections')).body.collections;
      expect(cols.map((c: Collection) => Collection.parse(c).name)).toEqual(['Recipes']);
      // a second item reuses the collection and the tags, whatever their case
      const again = await create(s.member, { url: 'https://example.com/b', tags: ['COOKING'], collectionName: 'recipes' });
      expect(again.collectionId).toBe(item.collectionId);
      expect(again.tags).toEqual(['Cooking']);
      const tags = (await s.member.get('/api/reader/tags')).body.tags.map((t: Tag) => Tag.parse(t));
      expect(tags.map((t: Tag) => [t.name, t.itemCount])).toEqual([
        ['Cooking', 2],
        ['Quick Meals', 1],
      ]);
    });

    it(`keeps a tag of MAX_TAG_CHARS (${MAX_TAG_CHARS}) characters whole`, async () => {
      const item = await create(s.member, { url: 'https://example.com/long-tag', type: 'live', tags: ['x'.repeat(MAX_TAG_CHARS)] });
      expect(item.tags).toEqual(['x'.repeat(MAX_TAG_CHARS)]);
    });

    it('creates a live link with archiveState none and a queued thumbnail', async () => {
      const item = await create(s.member, { url: 'https://example.com/live', type: 'live', useEmbed: true });
      expect(item).toMatchObject({ type: 'live', source: 'bookmark', archiveState: 'none', useEmbed: true });
      const row = await s.handle.deps.db('reader_items').where({ id: item.id }).first();
      expect(row.thumbnail_state).toBe('pending');
    });

    it('rejects bad input with 400 and writes nothing', async () => {
      for (const body of [
        {},
        { url: 'not a url' },
        { url: 'javascript:alert(1)' },
        { url: 'ftp://example.com/x' },
        { url: 'https://example.com', type: 'weird' },
        { url: 'https://example.com', tags: 'x' },
        { url: 'https://example.com', tags: [''] },
        { url: 'https://example.com', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        { url: 'https://example.com', tags: ['x'.repeat(MAX_TAG_CHARS + 1)] },
        { url: 'https://example.com', autoUpdateIntervalMins: -1 },
        { url: 'https://example.com/' + 'x'.repeat(3000) },
      ]) {
        const r = await s.member.post('/api/reader', body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error.code).toBe('invalid_request');
      }
      const malformed = await s.member.post('/api/reader', undefined, { raw: '{"url": ' });
      expect(malformed.status).toBe(400);
      expect(await s.handle.deps.db('reader_items').count({ n: '*' }).first()).toEqual({ n: 0 });
    });

    it('refuses with 400 blocked_url an address Hearth may not fetch when it would fetch it; a plain link may point anywhere', async () => {
      for (const body of [
        { url: 'http://192.168.1.1/status' }, // saved offline (the default type)
        { url: 'http://127.0.0.1:9/x', type: 'offline' },
        { url: 'http://localhost/x', type: 'live', autoUpdate: true },
        { url: 'http://[::1]/x', type: 'live', useProxy: true },
      ]) {
        const r = await s.member.post('/api/reader', body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error.code).toBe('blocked_url');
        expect(r.body.error.message).toMatch(/private or local network|this computer/);
      }
      expect(await s.handle.deps.db('reader_items').count({ n: '*' }).first()).toEqual({ n: 0 });
      // the router's page as a plain link: fine, only browsers at home open it
      const router = await create(s.member, { url: 'http://192.168.1.1/status', type: 'live' });
      // ...but Hearth cannot watch it or show it through its proxy: refused, and nothing changes
      for (const patch of [{ autoUpdate: true }, { useProxy: true }]) {
        const r = await s.member.patch(`/api/reader/${router.id}`, patch);
        expect(r.status, JSON.stringify(patch)).toBe(400);
        expect(r.body.error.code).toBe('blocked_url');
      }
      const row = await s.handle.deps.db('reader_items').where({ id: router.id }).first();
      expect(row).toMatchObject({ auto_update: 0, use_proxy: 0, archive_state: 'none' });
      // a watched public page cannot be moved onto a local address either
      const watched = await create(s.member, { url: 'https://example.com/news', type: 'live', autoUpdate: true });
      expect((await s.member.patch(`/api/reader/${watched.id}`, { url: 'http://10.0.0.2/news' })).status).toBe(400);
      expect((await s.member.patch(`/api/reader/${watched.id}`, { title: 'News' })).status).toBe(200);
      // household links (admin) follow the same rule
      const admin = await s.admin.post('/api/admin/reader', { url: 'http://192.168.1.20/cam', useProxy: true });
      expect(admin.status).toBe(400);
      expect(admin.body.error.code).toBe('blocked_url');
      expect((await s.admin.post('/api/admin/reader', { url: 'http://192.168.1.20/cam' })).status).toBe(201);
    });

    it("refuses another user's collection (404) without creating the item", async () => {
      const col = (await other.post('/api/reader/collections', { name: 'Private' })).body.collection;
      const r = await s.member.post('/api/reader', { url: 'https://example.com/x', collectionId: col.id });
      expect(r.status).toBe(404);
      expect(await s.handle.deps.db('reader_items').count({ n: '*' }).first()).toEqual({ n: 0 });
    });
  });

  describe('owner scoping', () => {
    it("another user's item is 404 for GET, PATCH, DELETE, rearchive, snapshot, changes and archive files", async () => {
      const mine = await create(other, { url: 'https://example.com/secret' });
      const id = mine.id;
      expect((await s.member.get(`/api/reader/${id}`)).status).toBe(404);
      expect((await s.member.patch(`/api/reader/${id}`, { title: 'x' })).status).toBe(404);
      expect((await s.member.delete(`/api/reader/${id}`)).status).toBe(404);
      expect((await s.member.post(`/api/reader/${id}/rearchive`)).status).toBe(404);
      expect((await s.member.post(`/api/reader/${id}/snapshot`, { html: '<p>x</p>', url: 'https://example.com/secret' })).status).toBe(404);
      expect((await s.member.get(`/api/reader/${id}/changes`)).status).toBe(404);
      expect((await s.member.get(`/api/reader/${id}/archive/index.html`)).status).toBe(404);
      expect((await s.member.put(`/api/reader/hide/${id}`)).status).toBe(404);
      expect((await list(s.member)).items).toHaveLength(0);
      // the admin is just another member here
      expect((await s.admin.get(`/api/reader/${id}`)).status).toBe(404);
      expect((await other.get(`/api/reader/${id}`)).status).toBe(200);
    });

    it("another user's collection is 404 for PATCH and DELETE", async () => {
      const col = (await other.post('/api/reader/collections', { name: 'Theirs' })).body.collection;
      expect((await s.member.patch(`/api/reader/collections/${col.id}`, { name: 'Mine' })).status).toBe(404);
      expect((await s.member.delete(`/api/reader/collections/${col.id}`)).status).toBe(404);
      expect((await s.member.get('/api/reader/collections')).body.collections).toEqual([]);
    });
  });

  describe('global items', () => {
    it('admins create them (type live, category Services); everyone sees them read-only; hide and unhide per user', async () => {
      const r = await s.admin.post('/api/admin/reader', { url: 'http://192.168.1.1/', title: 'Router', type: 'offline' });
      expect(r.status).toBe(201);
      const g = FullReaderItem.parse(r.body.item);
      expect(g).toMatchObject({ ownerId: null, type: 'live', category: 'Services', isGlobal: true, canEdit: true });
      await create(s.member, { url: 'https://example.com/own', type: 'live' });

      const seen = await list(s.member);
      expect(seen.total).toBe(2);
      const global = seen.items.find((i) => i.id === g.id)!;
      expect(global).toMatchObject({ isGlobal: true, canEdit: false, isHidden: false });
      expect((await s.member.get(`/api/reader/${g.id}`)).status).toBe(200);
      // members cannot edit or delete globals through /api/reader
      expect((await s.member.patch(`/api/reader/${g.id}`, { title: 'Mine now' })).status).toBe(404);
      expect((await s.member.delete(`/api/reader/${g.id}`)).status).toBe(404);

      const hidden = await s.member.put(`/api/reader/hide/${g.id}`);
      expect(hidden.status).toBe(200);
      expect(hidden.body).toEqual({ hidden: [g.id] });
      expect(await s.handle.deps.preferences.get(s.users.member.id, 'bookmarks.hidden')).toEqual([g.id]);
      expect((await list(s.member)).items.find((i) => i.id === g.id)!.isHidden).toBe(true);
      expect((await list(s.member, '?hidden=exclude')).items.map((i) => i.id)).not.toContain(g.id);
      // hiding is per user
      expect((await list(other)).items.find((i) => i.id === g.id)!.isHidden).toBe(false);
      expect((await s.member.delete(`/api/reader/hide/${g.id}`)).body).toEqual({ hidden: [] });
      // own items cannot be hidden
      const own = seen.items.find((i) => i.id !== g.id)!;
      expect((await s.member.put(`/api/reader/hide/${own.id}`)).status).toBe(404);
      expect((await s.member.put('/api/reader/hide/nope')).status).toBe(404);

      // admin edits and deletes globals
      const p = await s.admin.patch(`/api/admin/reader/${g.id}`, { title: 'Home router', category: 'Network' });
      expect(p.status).toBe(200);
      expect(p.body.item).toMatchObject({ title: 'Home router', category: 'Network' });
      const adminList = await s.admin.get('/api/admin/reader');
      expect(adminList.body.items.map((i: { id: string }) => i.id)).toEqual([g.id]);
      // the admin routes reach only globals
      expect((await s.admin.patch(`/api/admin/reader/${own.id}`, { title: 'x' })).status).toBe(404);
      expect((await s.admin.delete(`/api/admin/reader/${own.id}`)).status).toBe(404);
      expect((await s.admin.delete(`/api/admin/reader/${g.id}`)).status).toBe(204);
      expect((await list(s.member)).total).toBe(1);
    });
  });

  describe('GET and PATCH /api/reader/:id', () => {
    it('reading an item changes nothing (no GET changes state); the PATCH the web app sends on opening marks it reading', async () => {
      const off = await create(s.member, { url: 'https://example.com/article' });
      const live = await create(s.member, { url: 'https://example.com/link', type: 'live' });
      // what a link on another site, followed with the member's Lax cookie, would do
      const r = await s.member.get(`/api/reader/${off.id}`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } });
      expect(r.status).toBe(200);
      const full = FullReaderItem.parse(r.body.item);
      expect(full.status).toBe('unread');
      expect(full.readAt).toBeNull();
      expect(full).toHaveProperty('contentHtml');
      expect((await s.member.get(`/api/reader/${off.id}`)).body.item.status).toBe('unread');
      const opened = await s.member.patch(`/api/reader/${off.id}`, { status: 'reading' });
      expect(opened.body.item.status).toBe('reading');
      expect(opened.body.item.readAt).not.toBeNull();
      expect((await s.member.get(`/api/reader/${live.id}`)).body.item.status).toBe('unread');
      // lists leave the heavy fields out
      const row = (await list(s.member)).items[0]!;
      expect(row).not.toHaveProperty('contentHtml');
      expect(row).not.toHaveProperty('contentText');
    });

    it('patches fields, replaces tags, moves collections, and refuses unknown fields', async () => {
      const item = await create(s.member, { url: 'https://example.com/p', tags: ['a', 'b'] });
      const r = await s.member.patch(`/api/reader/${item.id}`, { title: 'New', status: 'archived', tags: ['c'], collectionName: 'Later', category: 'News', useProxy: true });
      expect(r.status).toBe(200);
      expect(r.body.item).toMatchObject({ title: 'New', status: 'archived', tags: ['c'], category: 'News', useProxy: true });
      expect(r.body.item.collectionId).not.toBeNull();
      const cleared = await s.member.patch(`/api/reader/${item.id}`, { collectionId: null });
      expect(cleared.body.item.collectionId).toBeNull();
      expect((await s.member.patch(`/api/reader/${item.id}`, { contentHash: 'x' })).status).toBe(400);
      expect((await s.member.patch(`/api/reader/${item.id}`, { status: 'gone' })).status).toBe(400);
      expect((await s.member.patch(`/api/reader/${item.id}`, { collectionId: 'nope' })).status).toBe(404);
    });

    it('enabling autoUpdate on a never-captured live link starts a baseline archive', async () => {
      const live = await create(s.member, { url: 'https://example.com/watch', type: 'live' });
      expect(live.archiveState).toBe('none');
      const r = await s.member.patch(`/api/reader/${live.id}`, { autoUpdate: true, alertOnChange: true, autoUpdateIntervalMins: 60 });
      expect(r.body.item).toMatchObject({ autoUpdate: true, alertOnChange: true, autoUpdateIntervalMins: 60, archiveState: 'pending' });
      // an item that was captured before keeps its state
      const done = await create(s.member, { url: 'https://example.com/done', type: 'live' });
      await setContent(done.id, { content_hash: 'abc', last_checked_at: new Date().toISOString() });
      expect((await s.member.patch(`/api/reader/${done.id}`, { autoUpdate: true })).body.item.archiveState).toBe('none');
    });

    it('DELETE removes the item and its tags links', async () => {
      const item = await create(s.member, { url: 'https://example.com/d', tags: ['x'] });
      expect((await s.member.delete(`/api/reader/${item.id}`)).status).toBe(204);
      expect((await s.member.get(`/api/reader/${item.id}`)).status).toBe(404);
      expect(await s.handle.deps.db('reader_item_tags').count({ n: '*' }).first()).toEqual({ n: 0 });
      expect((await s.member.delete(`/api/reader/${item.id}`)).status).toBe(404);
    });
  });

  describe('list filters', () => {
    it('filters by status, type, collection and tag; orders by sortOrder then newest; paginates', async () => {
      const a = await create(s.member, { url: 'https://example.com/1', tags: ['news'], collectionName: 'C1' });
      const b = await create(s.member, { url: 'https://example.com/2', type: 'live', tags: ['News'] });
      const c = await create(s.member, { url: 'https://example.com/3' });
      await s.member.patch(`/api/reader/${c.id}`, { status: 'archived' });
      expect((await list(s.member)).items.map((i) => i.id)).toEqual([c.id, b.id, a.id]);
      expect((await list(s.member, '?status=archived')).items.map((i) => i.id)).toEqual([c.id]);
      expect((await list(s.member, '?type=live')).items.map((i) => i.id)).toEqual([b.id]);
      expect((await list(s.member, `?collectionId=${a.collectionId}`)).items.map((i) => i.id)).toEqual([a.id]);
      expect((await list(s.member, '?tag=NEWS')).items.map((i) => i.id)).toEqual([b.id, a.id]);
      const page = await list(s.member, '?limit=2&offset=1');
      expect(page.total).toBe(3);
      expect(page.items.map((i) => i.id)).toEqual([b.id, a.id]);
      await s.member.patch(`/api/reader/${a.id}`, { sortOrder: -1 });
      expect((await list(s.member)).items[0]!.id).toBe(a.id);
      for (const qs of ['?limit=0', '?limit=1000', '?offset=-1', '?status=nope', '?type=x', '?hidden=maybe']) expect((await s.member.get(`/api/reader${qs}`)).status, qs).toBe(400);
    });
  });

  describe('collections', () => {
    it('create, duplicate 409, rename, reorder, delete sets items to no collection', async () => {
      const r = await s.member.post('/api/reader/collections', { name: 'Travel', icon: '✈️', color: '#00f' });
      expect(r.status).toBe(201);
      const col = Collection.parse(r.body.collection);
      expect(col).toMatchObject({ name: 'Travel', icon: '✈️', color: '#00f', itemCount: 0 });
      const dup = await s.member.post('/api/reader/collections', { name: 'travel' });
      expect(dup.status).toBe(409);
      expect(dup.body.error.code).toBe('collection_exists');
      // another member may use the same name
      expect((await other.post('/api/reader/collections', { name: 'Travel' })).status).toBe(201);
      const item = await create(s.member, { url: 'https://example.com/t', collectionId: col.id });
      expect((await s.member.get('/api/reader/collections')).body.collections[0].itemCount).toBe(1);
      const p = await s.member.patch(`/api/reader/collections/${col.id}`, { name: 'Trips', sortOrder: 3 });
      expect(p.body.collection).toMatchObject({ name: 'Trips', sortOrder: 3 });
      await s.member.post('/api/reader/collections', { name: 'Other' });
      expect((await s.member.patch(`/api/reader/collections/${col.id}`, { name: 'OTHER' })).status).toBe(409);
      expect((await s.member.post('/api/reader/collections', { name: '' })).status).toBe(400);
      expect((await s.member.delete(`/api/reader/collections/${col.id}`)).status).toBe(204);
      const after = (await s.member.get(`/api/reader/${item.id}`)).body.item;
      expect(after.collectionId).toBeNull();
      expect((await s.member.delete(`/api/reader/collections/${col.id}`)).status).toBe(404);
    });
  });

  describe('full-text search (?q=)', () => {
    it('folds diacritics, matches prefixes, domain words and pasted URLs, ranks title over text', async () => {
      const cafe = await create(s.member, { url: 'https://www.nytimes.com/2024/05/01/dining/paris-cafe.html', title: 'Le Café de Flore' });
      const body = await create(s.member, { url: 'https://example.org/notes', title: 'Morning notes' });
      await setContent(body.id, { content_text: 'We went to a small cafe near the river and wrote about coffee.', excerpt: 'A diary' });
      const other1 = await create(s.member, { url: 'https://blog.example.net/gardening', title: 'Tomatoes' });
      await setContent(other1.id, { content_text: 'Growing tomatoes on a balcony.' });

      const ids = async (q: string) => (await list(s.member, `?q=${encodeURIComponent(q)}`)).items.map((i) => i.id);
      // diacritics both ways; the title match ranks above the body match
      expect(await ids('cafe')).toEqual([cafe.id, body.id]);
      expect(await ids('Café')).toEqual([cafe.id, body.id]);
      // prefix on the last token only
      expect(await ids('toma')).toEqual([other1.id]);
      expect(await ids('balcony toma')).toEqual([other1.id]);
      expect(await ids('toma balcony')).toEqual([]);
      // domain word and a pasted URL (with or without www/scheme)
      expect(await ids('nytimes')).toEqual([cafe.id]);
      expect(await ids('https://www.nytimes.com/2024/05/01/dining/paris-cafe.html')).toEqual([cafe.id]);
      expect(await ids('nytimes.com/2024/05/01/dining')).toEqual([cafe.id]);
      expect(await ids('blog.example.net')).toEqual([other1.id]);
      // total counts matches, not the page
      expect((await list(s.member, '?q=cafe&limit=1')).total).toBe(2);
      // search respects filters and scoping
      expect(await ids('cafe')).not.toContain(undefined);
      await create(other, { url: 'https://example.com/cafe', title: 'Cafe of someone else' });
      expect(await ids('cafe')).toEqual([cafe.id, body.id]);
      expect((await list(s.member, `?q=cafe&collectionId=${'none'}`)).items).toEqual([]);
    });

    it('keeps the index in sync on title edits, content changes and deletes', async () => {
      const item = await create(s.member, { url: 'https://example.com/sync', title: 'Zebra stripes' });
      const ids = async (q: string) => (await list(s.member, `?q=${q}`)).items.map((i) => i.id);
      expect(await ids('zebra')).toEqual([item.id]);
      await s.member.patch(`/api/reader/${item.id}`, { title: 'Giraffe necks' });
      expect(await ids('zebra')).toEqual([]);
      expect(await ids('giraffe')).toEqual([item.id]);
      await setContent(item.id, { content_text: 'okapi in the forest' });
      expect(await ids('okapi')).toEqual([item.id]);
      await s.member.delete(`/api/reader/${item.id}`);
      expect(await ids('giraffe')).toEqual([]);
      const fts = await s.handle.deps.db.raw("SELECT count(*) AS n FROM reader_fts WHERE reader_fts MATCH 'giraffe OR okapi'");
      expect(fts[0].n).toBe(0);
    });

    it('deleting a user removes their rows from the index too (FK cascade)', async () => {
      const m = await s.admin.post('/api/admin/users', { name: 'Temp', pin: '1357', role: 'member' });
      const temp = await s.signIn(m.body.user.id, '1357');
      await create(temp, { url: 'https://example.com/q', title: 'Quokka' });
      expect((await s.handle.deps.db.raw("SELECT count(*) AS n FROM reader_fts WHERE reader_fts MATCH 'quokka'"))[0].n).toBe(1);
      expect((await s.admin.delete(`/api/admin/users/${m.body.user.id}`)).status).toBe(200);
      expect((await s.handle.deps.db.raw("SELECT count(*) AS n FROM reader_fts WHERE reader_fts MATCH 'quokka'"))[0].n).toBe(0);
    });

    it('hostile query strings never fail: quotes, operators, punctuation, huge input', async () => {
      await create(s.member, { url: 'https://example.com/h', title: 'Harmless title' });
      for (const q of ['"', '""', "'", 'AND', 'OR NOT', 'title:harmless', 'harm*', '*', '-harmless', 'NEAR(a b)', '(((', '^harmless', 'harmless"', 'a AND OR b', '\\', '%', '%%', '💥', '\u0000', '{}[]', 'x'.repeat(499), 'a '.repeat(200)]) {
        const r = await s.member.get(`/api/reader?q=${encodeURIComponent(q)}`);
        expect(r.status, q).toBe(200);
      }
      expect((await list(s.member, `?q=${encodeURIComponent('title:harmless')}`)).items).toHaveLength(1);
      expect((await list(s.member, `?q=${encodeURIComponent('"harmless')}`)).items).toHaveLength(1);
      expect((await list(s.member, `?q=${encodeURIComponent('AND')}`)).items).toHaveLength(0);
      expect((await s.member.get(`/api/reader?q=${'x'.repeat(600)}`)).status).toBe(400);
    });

    it('an unfiltered search reads only the FTS index (the visible set is part of the match)', async () => {
      const plan = (await s.handle.deps.reader.items['deps'].search.explainSearch('"cafe"*', s.users.member.id)).join('\n');
      expect(plan).toMatch(/SCAN reader_fts VIRTUAL TABLE INDEX/);
      expect(plan).not.toMatch(/reader_items|\bi\b/);
    });

    it('with more matches than are scored, title matches come first, then the newest; paging and filters still work', async () => {
      const store = s.handle.deps.reader.items['deps'].store;
      const titled = await create(s.member, { url: 'https://example.com/titled', title: 'Wombat facts' });
      const base = Date.parse('2026-01-01T00:00:00Z');
      const now = new Date().toISOString();
      const rows = Array.from({ length: 2100 }, (_, n) => ({
        item: newItemRecord(
          {
            ownerId: s.users.member.id,
            type: 'live',
            url: `https://bulk.example.com/${n}`,
            title: `Bulk ${n}`,
            contentText: `a page that mentions the wombat once, number ${n}`,
            thumbnailState: 'none',
            createdAt: new Date(base + n * 1000).toISOString(),
          },
          now,
        ),
        tags: n % 2 === 0 ? ['even'] : [],
      }));
      await store.insertMany(rows, now);
      // someone else's matches are not counted
      await create(other, { url: 'https://example.com/theirs', title: 'Wombat too' });
      const first = await list(s.member, '?q=wombat&limit=3');
      expect(first.total).toBe(2101);
      expect(first.items.map((i) => i.title)).toEqual(['Wombat facts', 'Bulk 2099', 'Bulk 2098']);
      const second = await list(s.member, '?q=wombat&limit=3&offset=3');
      expect(second.items.map((i) => i.title)).toEqual(['Bulk 2097', 'Bulk 2096', 'Bulk 2095']);
      const tagged = await list(s.member, '?q=wombat&tag=even&limit=2');
      expect(tagged.total).toBe(1050);
      expect(tagged.items.map((i) => i.title)).toEqual(['Bulk 2098', 'Bulk 2096']);
      expect(titled.id).toBe(first.items[0]!.id);
    });

    it('a word in more titles than are scored lists those newest first, without scoring them all, and pages without gaps', async () => {
      const store = s.handle.deps.reader.items['deps'].store;
      const now = new Date().toISOString();
      // titles of different lengths, so scoring (shorter titles first) and newest-first disagree
      const rows = Array.from({ length: 1200 }, (_, n) => ({
        item: newItemRecord(
          { ownerId: s.users.member.id, type: 'live', url: `https://imported.example.com/${n}`, title: `Numbat ${n}${n % 2 ? ' from a long imported bookmarks file' : ''}`, thumbnailState: 'none' },
          now,
        ),
        tags: [],
      }));
      await store.insertMany(rows, now);
      const seen: Array<string | null> = [];
      for (let offset = 0; offset < 150; offset += 50) {
        const page = await list(s.member, `?q=numbat&limit=50&offset=${offset}`);
        expect(page.total).toBe(1200);
        seen.push(...page.items.map((i) => i.title));
      }
      expect(seen).toEqual(Array.from({ length: 150 }, (_, k) => rows[1199 - k]!.item.title));
    });
  });

  describe('legacy aliases', () => {
    it('/api/bookmarks lists and creates live links; PATCH and DELETE work on own items', async () => {
      await create(s.member, { url: 'https://example.com/off' });
      const r = await s.member.post('/api/bookmarks', { url: 'https://example.com/bm', title: 'BM', type: 'offline' });
      expect(r.status).toBe(201);
      expect(r.body.item).toMatchObject({ type: 'live', title: 'BM' });
      const l = await s.member.get('/api/bookmarks');
      expect(l.body.items.map((i: { id: string }) => i.id)).toEqual([r.body.item.id]);
      expect((await s.member.patch(`/api/bookmarks/${r.body.item.id}`, { title: 'Renamed' })).body.item.title).toBe('Renamed');
      expect((await other.patch(`/api/bookmarks/${r.body.item.id}`, { title: 'x' })).status).toBe(404);
      expect((await s.member.delete(`/api/bookmarks/${r.body.item.id}`)).status).toBe(204);
    });

    it('/api/admin/bookmarks is the admin reader', async () => {
      const r = await s.admin.post('/api/admin/bookmarks', { url: 'https://status.example.com' });
      expect(r.status).toBe(201);
      expect(r.body.item).toMatchObject({ ownerId: null, type: 'live', category: 'Services' });
      expect((await s.admin.get('/api/admin/reader')).body.items).toHaveLength(1);
      expect((await s.admin.delete(`/api/admin/bookmarks/${r.body.item.id}`)).status).toBe(204);
    });
  });
});
