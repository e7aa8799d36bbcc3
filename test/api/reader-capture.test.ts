import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CaptureError } from '../../server/modules/reader/capture/types.js';
import { ARCHIVE_CSP, CAPTURE_ROOM_BYTES, FullReaderItem } from '../../server/modules/reader/schema.js';
import { DISK_RESERVE_BYTES } from '../../server/platform/disk.js';
import { FakeCaptureEngine, PNG_1PX } from '../fakes/capture-engine.js';
import { rawRequest } from '../harness/raw-http.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import type { TestClient } from '../harness/client.js';
import { waitFor } from '../harness/net.js';

const itemOf = async (c: TestClient, id: string) => FullReaderItem.parse((await c.get(`/api/reader/${id}`)).body.item);
const waitState = (c: TestClient, id: string, states: string[]) =>
  waitFor(async () => {
    const it = await itemOf(c, id);
    return states.includes(it.archiveState) ? it : null;
  }, `item ${id} to be ${states.join(' or ')}`, 5000);

describe('reader capture jobs and archive files', () => {
  let s: TestServer;
  let engine: FakeCaptureEngine;
  /** The free space the server reads (a figure, so no test fills a real disk). */
  let freeBytes = 1024 ** 4;
  beforeAll(async () => {
    engine = new FakeCaptureEngine();
    s = await startTestServer({ seed: 'household', overrides: { captureEngine: engine, diskFree: async () => freeBytes } });
  });
  afterAll(() => s.close());
  beforeEach(() => engine.release());

  const create = async (body: Record<string, unknown>, c = s.member) => {
    const r = await c.post('/api/reader', body);
    expect(r.status, r.text).toBe(201);
    return FullReaderItem.parse(r.body.item);
  };
  const raw = (c: TestClient, p: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}) =>
    rawRequest(s.url, { path: p, method: init.method, body: init.body, headers: { cookie: c.cookie!, origin: s.url, ...(init.headers ?? {}) } });

  it('captures an offline article: pending -> ready with content, metadata, artifacts and a baseline change row', async () => {
    const url = 'https://news.example.com/story';
    engine.setPage(url, { title: 'A Story', text: 'Once upon a time there was a Café.', byline: 'Ann Writer', excerpt: 'A short story.' });
    const created = await create({ url });
    expect(created.archiveState).toBe('pending');
    const item = await waitState(s.member, created.id, ['ready']);
    expect(item).toMatchObject({ title: 'A Story', byline: 'Ann Writer', siteName: 'news.example.com', excerpt: 'A short story.', wordCount: 8, readingMins: 1, archiveError: null });
    expect(item.contentText).toBe('Once upon a time there was a Café.');
    expect(item.contentHtml).toContain(`/api/reader/${created.id}/archive/assets/img1`);
    expect(item.snapshotUrl).toBe(`/api/reader/${created.id}/archive/index.html`);
    expect(item.thumbnailUrl).toBe(`/api/reader/${created.id}/archive/screenshot.png`);
    expect(item.lastCheckedAt).not.toBeNull();
    expect(item).not.toHaveProperty('contentHash');
    const row = await s.handle.deps.db('reader_items').where({ id: created.id }).first();
    expect(row.content_hash).toMatch(/^[0-9a-f]{64}$/);
    const changes = (await s.member.get(`/api/reader/${created.id}/changes`)).body.changes;
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ changed: false, wordCount: 8, previousWordCount: null });
    // searchable once captured
    expect((await s.member.get('/api/reader?q=cafe')).body.items.map((i: { id: string }) => i.id)).toContain(created.id);
    // nothing left behind but the item's folder
    expect(readdirSync(path.join(s.dataDir, 'reader')).filter((n) => n.startsWith(created.id))).toEqual([created.id]);
  });

  it('does not start a capture the data disk cannot hold beside its reserve: the item fails with a sentence, and captures once there is room', async () => {
    const url = 'https://full-disk.example.com/story';
    engine.setPage(url, { title: 'Room', text: 'Words that need room on the disk.' });
    freeBytes = DISK_RESERVE_BYTES + CAPTURE_ROOM_BYTES - 1;
    const calls = engine.calls.length;
    const created = await create({ url });
    const failed = await waitState(s.member, created.id, ['failed']);
    expect(failed.archiveError).toBe('The data disk is nearly full, so Hearth did not save this page. Free some space on it, then capture the page again.');
    expect(engine.calls.length).toBe(calls);
    expect(readdirSync(path.join(s.dataDir, 'reader')).filter((n) => n.startsWith(created.id))).toEqual([]);
    freeBytes = DISK_RESERVE_BYTES + CAPTURE_ROOM_BYTES;
    expect((await s.member.post(`/api/reader/${created.id}/rearchive`)).status).toBe(202);
    expect((await waitState(s.member, created.id, ['ready'])).title).toBe('Room');
    freeBytes = 1024 ** 4;
  });

  it("keeps a user's title and fills an empty one or one equal to the URL", async () => {
    const url = 'https://titles.example.com/x';
    engine.setPage(url, { title: 'Captured Title' });
    const mine = await create({ url, title: 'My own title' });
    const asUrl = await create({ url, title: url });
    expect((await waitState(s.member, mine.id, ['ready'])).title).toBe('My own title');
    expect((await waitState(s.member, asUrl.id, ['ready'])).title).toBe('Captured Title');
  });

  it('a challenge page fails the capture with its message and leaves the previous content and hash untouched', async () => {
    const url = 'https://walled.example.com/a';
    engine.setPage(url, { title: 'Walled', text: 'The real article text.' });
    const item = await waitState(s.member, (await create({ url })).id, ['ready']);
    const before = await s.handle.deps.db('reader_items').where({ id: item.id }).first();
    engine.fail(url, 'challenge', 'The site showed a bot check instead of the page.');
    const r = await s.member.post(`/api/reader/${item.id}/rearchive`);
    expect(r.status).toBe(202);
    expect(r.body.item.archiveState).toBe('pending');
    const failed = await waitState(s.member, item.id, ['failed']);
    expect(failed.archiveError).toBe('The site showed a bot check instead of the page.');
    const after = await s.handle.deps.db('reader_items').where({ id: item.id }).first();
    for (const col of ['content_text', 'content_html', 'content_hash', 'word_count', 'title', 'content_changed_at', 'snapshot_path']) expect(after[col], col).toEqual(before[col]);
    // the old snapshot is still served and no change was recorded
    expect((await s.member.get(`/api/reader/${item.id}/archive/index.html`)).status).toBe(302);
    expect((await s.member.get(`/api/reader/${item.id}/archive/assets/img1`)).status).toBe(200);
    expect((await s.member.get(`/api/reader/${item.id}/changes`)).body.changes).toHaveLength(1);
    // captureNow reports the failure to the monitor as a CaptureError
    await expect(s.handle.deps.readerQueue.captureNow(item.id, 'monitor')).rejects.toBeInstanceOf(CaptureError);
    engine.clearFailure(url);
    expect((await s.member.post(`/api/reader/${item.id}/rearchive`)).status).toBe(202);
    expect((await waitState(s.member, item.id, ['ready'])).archiveError).toBeNull();
  });

  it('shows a failure message stored by an older Hearth in today\'s words, with no raw code', async () => {
    const url = 'https://old-failure.example.com/a';
    engine.fail(url, 'unreachable', 'x');
    const item = await waitState(s.member, (await create({ url })).id, ['failed']);
    for (const [stored, shown] of [
      ['The site could not be reached (ENOTFOUND).', /could not find this site/],
      ['The site answered with an error (HTTP 403).', /did not let Hearth read this page/],
      ['The page could not be loaded: page.goto: net::ERR_CONNECTION_REFUSED at https://old-failure.example.com/a', /refused the connection/],
    ] as const) {
      await s.handle.deps.db('reader_items').where({ id: item.id }).update({ archive_error: stored });
      const one = await itemOf(s.member, item.id);
      const listed = (await s.member.get('/api/reader')).body.items.find((i: { id: string }) => i.id === item.id);
      for (const message of [one.archiveError, listed.archiveError]) {
        expect(message).toMatch(shown);
        expect(message).not.toMatch(/ENOTFOUND|HTTP 403|net::|ERR_/);
      }
    }
    engine.clearFailure(url);
  });

  it('captureNow tells the monitor whether the normalized text changed, and records the history', async () => {
    const url = 'https://watch.example.com/page';
    engine.setPage(url, { text: 'Price is 10 euros.' });
    const item = await waitState(s.member, (await create({ url })).id, ['ready']);
    const first = await s.handle.deps.db('reader_items').where({ id: item.id }).first('content_hash');
    // case and whitespace do not count as a change
    engine.setPage(url, { text: '  price IS 10\n euros. ' });
    const same = await s.handle.deps.readerQueue.captureNow(item.id, 'monitor');
    expect(same).toEqual({ changed: false, previousHash: first.content_hash, newHash: first.content_hash });
    engine.setPage(url, { text: 'Price is 12 euros now.' });
    const changed = await s.handle.deps.readerQueue.captureNow(item.id, 'monitor');
    expect(changed.changed).toBe(true);
    expect(changed.previousHash).toBe(first.content_hash);
    expect(changed.newHash).not.toBe(first.content_hash);
    const after = await itemOf(s.member, item.id);
    expect(after.contentChangedAt).not.toBeNull();
    expect(after.contentText).toBe('Price is 12 euros now.');
    const changes = (await s.member.get(`/api/reader/${item.id}/changes`)).body.changes;
    expect(changes.map((c: { changed: boolean }) => c.changed)).toEqual([true, false, false]);
    expect(changes[0]).toMatchObject({ wordCount: 5, previousWordCount: 4 });
  });

  it('a live link gets its thumbnail job: screenshot, title and icon, archiveState stays none', async () => {
    const url = 'https://live.example.com/';
    engine.setPage(url, { title: 'Live Site', siteName: 'Live' });
    const item = await create({ url, type: 'live' });
    const done = await waitFor(async () => {
      const row = await s.handle.deps.db('reader_items').where({ id: item.id }).first();
      return row.thumbnail_state === 'ready' ? row : null;
    }, 'the thumbnail', 5000);
    expect(done).toMatchObject({ archive_state: 'none', title: 'Live Site', screenshot_path: 'screenshot.png', site_name: 'Live' });
    expect(engine.calls.filter((c) => c.url === url).map((c) => c.mode)).toEqual(['thumbnail']);
    const got = await itemOf(s.member, item.id);
    expect(got.thumbnailUrl).toBe(`/api/reader/${item.id}/archive/screenshot.png`);
    expect(got.snapshotUrl).toBeNull();
  });

  it('the client snapshot feeds the capture, then is consumed', async () => {
    const url = 'https://spa.example.com/app';
    const item = await waitState(s.member, (await create({ url })).id, ['ready']);
    const r = await s.member.post(`/api/reader/${item.id}/snapshot`, { html: '<main>Rendered by the browser</main>', url });
    expect(r.status).toBe(202);
    expect(r.body.item.archiveState).toBe('pending');
    const done = await waitState(s.member, item.id, ['ready']);
    expect(done.contentText).toContain('Rendered by the browser');
    expect(engine.calls.at(-1)!.clientSnapshot).toEqual({ html: '<main>Rendered by the browser</main>', url });
    expect(existsSync(path.join(s.dataDir, 'reader', `${item.id}.client-snapshot.json`))).toBe(false);
    expect((await s.member.post(`/api/reader/${item.id}/snapshot`, { html: '', url })).status).toBe(400);
    expect((await s.member.post(`/api/reader/${item.id}/snapshot`, { html: '<p>x</p>', url: 'file:///etc/passwd' })).status).toBe(400);
    const huge = await s.member.post(`/api/reader/${item.id}/snapshot`, { html: 'x'.repeat(16 * 1024 * 1024), url });
    expect(huge.status).toBe(413);
  });

  it('thumbnail upload: only a real PNG, at most 2 MB; kept across re-captures and served as image/png', async () => {
    const item = await waitState(s.member, (await create({ url: 'https://thumb.example.com/' })).id, ['ready']);
    const notPng = await raw(s.member, `/api/reader/${item.id}/thumbnail`, { method: 'POST', body: Buffer.from('GIF89a....'), headers: { 'content-type': 'image/png' } });
    expect(notPng.status).toBe(400);
    const big = Buffer.concat([PNG_1PX, Buffer.alloc(2 * 1024 * 1024)]);
    const tooBig = await raw(s.member, `/api/reader/${item.id}/thumbnail`, { method: 'POST', body: big, headers: { 'content-type': 'image/png' } });
    expect(tooBig.status).toBe(413);
    const ok = await raw(s.member, `/api/reader/${item.id}/thumbnail`, { method: 'POST', body: PNG_1PX, headers: { 'content-type': 'image/png' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json().item.thumbnailUrl).toBe(`/api/reader/${item.id}/archive/thumbnail.png`);
    await s.member.post(`/api/reader/${item.id}/rearchive`);
    await waitFor(async () => engine.calls.filter((c) => c.url === 'https://thumb.example.com/').length === 2 && (await itemOf(s.member, item.id)).archiveState === 'ready', 'the second capture', 5000);
    const file = await s.member.get(`/api/reader/${item.id}/archive/thumbnail.png`);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
  });

  it("deletes a deleted member's saved pages from disk, and nobody else's", async () => {
    const made = await s.admin.post('/api/admin/users', { name: 'Leaving', pin: '4321', role: 'member' });
    expect(made.status, made.text).toBe(201);
    const leaving = await s.signIn(made.body.user.id, '4321');
    const url = 'https://leaving.example.com/page';
    engine.setPage(url, { title: 'Theirs', text: 'A page a member saved before leaving.' });
    const theirs = await waitState(leaving, (await create({ url }, leaving)).id, ['ready']);
    const keptUrl = 'https://staying.example.com/page';
    engine.setPage(keptUrl, { title: 'Mine', text: 'A page that stays.' });
    const mine = await waitState(s.member, (await create({ url: keptUrl })).id, ['ready']);
    const root = path.join(s.dataDir, 'reader');
    expect(existsSync(path.join(root, theirs.id))).toBe(true);
    // a capture's own working folder is never taken for an orphan
    const working = path.join(root, `${theirs.id}.tmp-0123456789ab`);
    mkdirSync(working);

    expect((await s.admin.delete(`/api/admin/users/${made.body.user.id}`)).status).toBe(200);
    await waitFor(() => !existsSync(path.join(root, theirs.id)), "the deleted member's saved page to be removed", 5000);
    expect(existsSync(path.join(root, mine.id))).toBe(true);
    expect(existsSync(working)).toBe(true);
    expect((await itemOf(s.member, mine.id)).archiveState).toBe('ready');
  });

  describe('GET /:id/archive/*', () => {
    let id: string;
    beforeAll(async () => {
      id = (await waitState(s.member, (await create({ url: 'https://files.example.com/' })).id, ['ready'])).id;
      const dir = path.join(s.dataDir, 'reader', id, 'assets');
      writeFileSync(path.join(dir, 'logo'), '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      writeFileSync(path.join(dir, 'font'), Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(20)]));
      writeFileSync(path.join(dir, 'photo'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
      writeFileSync(path.join(dir, 'page'), '<html><script>alert(document.cookie)</script></html>');
      writeFileSync(path.join(dir, 'a b.png'), PNG_1PX);
      writeFileSync(path.join(s.dataDir, 'reader', 'secret.txt'), 'top secret');
      mkdirSync(path.join(s.dataDir, 'reader', 'other-item'), { recursive: true });
      writeFileSync(path.join(s.dataDir, 'reader', 'other-item', 'index.html'), 'other');
    });

    it('opens index.html on a token path (its sandboxed page sends no cookie), served with the sandbox CSP, nosniff and no scripts', async () => {
      const redirect = await s.member.get(`/api/reader/${id}/archive/index.html`);
      expect(redirect.status).toBe(302);
      const location = String(redirect.headers.location);
      expect(location).toMatch(new RegExp(`^/api/reader/${id}/archive-t/[^/]+/index\\.html$`));
      // no cookie needed on the token path, for the page and for its relative assets
      const r = await s.anon.get(location);
      expect(r.status).toBe(200);
      const asset = await s.anon.get(location.replace(/index\.html$/, 'assets/img1'));
      expect(asset.status).toBe(200);
      expect(asset.headers['content-type']).toBe('image/png');
      expect(asset.headers['content-security-policy']).toBe(ARCHIVE_CSP);
      // the sandboxed page is cross-origin to its own assets: no same-origin CORP on the token path
      expect(asset.headers['cross-origin-resource-policy']).toBeUndefined();
      expect((await s.member.get(`/api/reader/${id}/archive/screenshot.png`)).headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['content-security-policy']).toBe(ARCHIVE_CSP);
      expect(r.headers['content-security-policy']).not.toMatch(/script-src/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.text).toContain('<img src="assets/img1">');
    });

    it('types extensionless assets by magic bytes, never as HTML', async () => {
      const type = async (p: string) => (await s.member.get(`/api/reader/${id}/archive/${p}`)).headers['content-type'];
      expect(await type('assets/img1')).toBe('image/png');
      expect(await type('assets/photo')).toBe('image/jpeg');
      expect(await type('assets/font')).toBe('font/woff2');
      expect(await type('assets/logo')).toBe('image/svg+xml');
      expect(await type('assets/page')).toBe('application/octet-stream');
      expect(await type('assets/a%20b.png')).toBe('image/png');
      const svg = await s.member.get(`/api/reader/${id}/archive/assets/logo`);
      expect(svg.headers['content-security-policy']).toBe(ARCHIVE_CSP);
    });

    it('refuses traversal in every encoding with 404', async () => {
      const attempts = [
        '../secret.txt',
        '../other-item/index.html',
        '..%2fsecret.txt',
        '%2e%2e/secret.txt',
        '%2e%2e%2fsecret.txt',
        '%2E%2E%2Fsecret.txt',
        'assets/../../secret.txt',
        'assets/%2e%2e/%2e%2e/secret.txt',
        '..%5csecret.txt',
        '..\\secret.txt',
        '%252e%252e%252fsecret.txt',
        '%252e%252e/secret.txt',
        '%2fetc%2fpasswd',
        '/etc/passwd',
        '%00index.html',
        'index.html%00.png',
        '.',
        'assets',
        'assets/',
        '%c0%ae%c0%ae/secret.txt',
        '..%c0%afsecret.txt',
      ];
      for (const a of attempts) {
        const r = await raw(s.member, `/api/reader/${id}/archive/${a}`);
        expect(r.status, a).toBe(404);
        expect(r.text).not.toContain('top secret');
        expect(r.text).not.toBe('other');
      }
      // a missing file and an unknown item are 404 as well
      expect((await s.member.get(`/api/reader/${id}/archive/nope.png`)).status).toBe(404);
      expect((await s.member.get('/api/reader/nope/archive/index.html')).status).toBe(404);
    });

    it('token paths are refused when tampered, expired, for another item or after the item is gone', async () => {
      const location = String((await s.member.get(`/api/reader/${id}/archive/index.html`)).headers.location);
      const token = location.split('/')[5]!;
      const [exp, user, sig] = token.split('.');
      const bad = [
        `${exp}.${user}.${sig!.slice(0, -2)}xx`,
        `${Number(exp) + 1}.${user}.${sig}`,
        `${exp}.${s.users.admin.id}.${sig}`,
        'garbage',
        '..',
      ];
      for (const t of bad) expect((await s.anon.get(`/api/reader/${id}/archive-t/${t}/index.html`)).status, t).toBe(404);
      // signed properly but expired
      const key = (s.handle.deps.reader.files as any).archiveKey as Buffer;
      const past = Math.floor(Date.now() / 1000) - 10;
      const expired = `${past}.${user}.${createHmac('sha256', key).update(`${id}|${user}|${past}`).digest('base64url').slice(0, 32)}`;
      expect((await s.anon.get(`/api/reader/${id}/archive-t/${expired}/index.html`)).status).toBe(404);
      // another item's files are not reachable with this item's token
      const other = (await waitState(s.member, (await create({ url: 'https://files2.example.com/' })).id, ['ready'])).id;
      expect((await s.anon.get(`/api/reader/${other}/archive-t/${token}/index.html`)).status).toBe(404);
      // traversal on the token path is refused too
      for (const a of ['../secret.txt', '..%2fsecret.txt', '%2e%2e/%2e%2e/secret.txt', '%c0%ae%c0%ae/secret.txt']) {
        const r = await rawRequest(s.url, { path: `/api/reader/${id}/archive-t/${token}/${a}` });
        expect(r.status, a).toBe(404);
      }
      // a deleted item's token stops working
      const loc2 = String((await s.member.get(`/api/reader/${other}/archive/index.html`)).headers.location);
      expect((await s.anon.get(loc2)).status).toBe(200);
      await s.member.delete(`/api/reader/${other}`);
      expect((await s.anon.get(loc2)).status).toBe(404);
    });

    it('global items are readable by every member; own items only by their owner', async () => {
      const g = (await s.admin.post('/api/admin/reader', { url: 'https://global.example.com/', autoUpdate: true })).body.item;
      await waitState(s.member, g.id, ['ready']);
      expect((await s.member.get(`/api/reader/${g.id}/archive/index.html`)).status).toBe(302);
      expect((await s.admin.get(`/api/reader/${g.id}/archive/index.html`)).status).toBe(302);
      expect((await s.admin.get(`/api/reader/${g.id}/archive/screenshot.png`)).status).toBe(200);
      expect((await s.admin.get(`/api/reader/${id}/archive/index.html`)).status).toBe(404);
      expect((await s.admin.get(`/api/reader/${id}/archive/assets/img1`)).status).toBe(404);
    });
  });

  it('deleting an item mid-capture does not resurrect it or leave files', async () => {
    engine.hold();
    const started = engine.nextStart();
    const item = await create({ url: 'https://slow.example.com/' });
    const req = await started;
    expect((await itemOf(s.member, item.id)).archiveState).toBe('fetching');
    expect((await s.member.delete(`/api/reader/${item.id}`)).status).toBe(204);
    engine.release();
    await waitFor(async () => !existsSync(req.outDir), 'the capture folder to go', 5000);
    await new Promise((r) => setTimeout(r, 100));
    expect(await s.handle.deps.db('reader_items').where({ id: item.id }).first()).toBeUndefined();
    expect(readdirSync(path.join(s.dataDir, 'reader')).filter((n) => n.startsWith(item.id))).toEqual([]);
    // the queue carries on with the next item
    expect((await waitState(s.member, (await create({ url: 'https://next.example.com/' })).id, ['ready'])).archiveState).toBe('ready');
  });
});

describe('reader capture queue stopping', () => {
  it('parks a capture the queue was about to begin when it is stopped, instead of running it', async () => {
    const engine = new FakeCaptureEngine();
    const s = await startTestServer({ seed: 'household', overrides: { captureEngine: engine } });
    try {
      const queue = s.handle.deps.readerQueue;
      await queue.stop();
      const item = FullReaderItem.parse((await s.member.post('/api/reader', { url: 'https://stopping.example.com/' })).body.item);
      // started again, the queue's first look for work is still under way when stop() comes: no
      // capture runs yet for stop() to cancel
      await queue.start();
      await queue.stop();
      expect(engine.calls.map((c) => c.url)).toEqual([]);
      expect((await s.handle.deps.db('reader_items').where({ id: item.id }).first()).archive_state).toBe('pending');
    } finally {
      await s.close();
    }
  });
});

describe('reader capture queue across restarts', () => {
  it('a shutdown parks the running capture and a crash leaves fetching rows: both resume at the next start', async () => {
    const temp = makeTempDir();
    try {
      const engine1 = new FakeCaptureEngine();
      engine1.hold();
      const s1 = await startTestServer({ seed: 'household', dataDir: temp.dir, overrides: { captureEngine: engine1 } });
      const started = engine1.nextStart();
      const a = (await s1.member.post('/api/reader', { url: 'https://a.example.com/' })).body.item;
      const b = (await s1.member.post('/api/reader', { url: 'https://b.example.com/' })).body.item;
      await started;
      await s1.close();
      expect(engine1.closed).toBe(1);
      const parked = await (async () => {
        const { createDb } = await import('../../server/db/connection.js');
        const db = createDb(path.join(temp.dir, 'hearth.db'));
        const rows = await db('reader_items').select('id', 'archive_state').orderBy('created_at');
        // simulate a crash in the middle of a capture on top: a fetching row and a temp folder
        await db('reader_items').where({ id: b.id }).update({ archive_state: 'fetching' });
        await db.destroy();
        return rows;
      })();
      expect(parked.map((r: { archive_state: string }) => r.archive_state)).toEqual(['pending', 'pending']);
      mkdirSync(path.join(temp.dir, 'reader', `${b.id}.tmp-abcdef`), { recursive: true });

      const engine2 = new FakeCaptureEngine();
      const s2 = await startTestServer({ dataDir: temp.dir, overrides: { captureEngine: engine2 } });
      const member = await s2.signIn(s1.users.member.id, '5678');
      for (const id of [a.id, b.id]) expect((await waitState(member, id, ['ready'])).archiveState).toBe('ready');
      expect(existsSync(path.join(temp.dir, 'reader', `${b.id}.tmp-abcdef`))).toBe(false);
      await s2.close();
    } finally {
      temp.remove();
    }
  });
});
