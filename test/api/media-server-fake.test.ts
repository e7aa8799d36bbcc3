// The Plex fake's key behaviours (reference/plex.md §11), so the adapter and route tests built on it
// stand on what Plex does: the PIN flow, resources pointing back at the fake, per-user watch state,
// owner-only calls, the XML default, Range on parts, the watchlist's new host, the scanner, and the
// failure modes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../harness/net.js';
import { PART_BYTES, PART_SIZE, startFakeMediaServer, TOKENS, type FakeMediaServer } from '../fakes/media-server.js';

const CLIENT = 'hearth-test-client';

describe('media-server fake', () => {
  let fake: FakeMediaServer;
  beforeAll(async () => {
    fake = await startFakeMediaServer({ refreshMs: 20 });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const call = (url: string, o: { token?: string; method?: string; headers?: Record<string, string>; json?: boolean } = {}) =>
    fetch(url, {
      method: o.method ?? 'GET',
      headers: { ...(o.json === false ? {} : { accept: 'application/json' }), 'x-plex-client-identifier': CLIENT, ...(o.token ? { 'x-plex-token': o.token } : {}), ...o.headers },
    });
  const body = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;
  type Container = { MediaContainer: Record<string, unknown> & { Metadata?: Array<Record<string, unknown>> } };

  it('runs the PIN flow: 400 without a client id, the token after approval, 404 for another client id or an expired PIN', async () => {
    expect((await fetch(`${fake.accountUrl}/api/v2/pins?strong=true`, { method: 'POST', headers: { accept: 'application/json' } })).status).toBe(400);
    const created = await body<{ id: number; code: string; authToken: null }>(await call(`${fake.accountUrl}/api/v2/pins?strong=true`, { method: 'POST', headers: { 'x-plex-product': 'Hearth' } }));
    expect(created.code).toHaveLength(25);
    expect(created.authToken).toBeNull();
    expect((await body<{ authToken: null }>(await call(`${fake.accountUrl}/api/v2/pins/${created.id}`))).authToken).toBeNull();
    expect((await call(`${fake.accountUrl}/api/v2/pins/${created.id}`, { headers: { 'x-plex-client-identifier': 'someone-else' } })).status).toBe(404);
    fake.approvePin(created.id, 'alice');
    expect((await body<{ authToken: string }>(await call(`${fake.accountUrl}/api/v2/pins/${created.id}`))).authToken).toBe(TOKENS.alice);
    fake.expirePin(created.id);
    expect((await call(`${fake.accountUrl}/api/v2/pins/${created.id}`)).status).toBe(404);
  });

  it('approves a PIN by itself after pinAutoApproveMs, as the configured user', async () => {
    fake.settings.pinAutoApproveMs = 1;
    fake.settings.pinAutoApproveUser = 'bob';
    const short = await body<{ id: number; code: string }>(await call(`${fake.accountUrl}/api/v2/pins`, { method: 'POST' }));
    expect(short.code).toMatch(/^[A-Z0-9]{4}$/);
    await new Promise((r) => setTimeout(r, 5));
    expect((await body<{ authToken: string }>(await call(`${fake.accountUrl}/api/v2/pins/${short.id}`))).authToken).toBe(TOKENS.bob);
  });

  it('lists the server in resources with its local connection on the fake itself, a friend with their own token, mallory without a server', async () => {
    const admin = await body<Array<{ provides: string; accessToken: string; owned: boolean; connections: Array<{ uri: string; local: boolean; relay: boolean }> }>>(await call(`${fake.accountUrl}/api/v2/resources?includeHttps=1&includeRelay=1`, { token: TOKENS.admin }));
    const server = admin.find((r) => r.provides.includes('server'))!;
    expect(server.owned).toBe(true);
    expect(server.accessToken).toBe(TOKENS.admin);
    expect(server.connections.some((c) => c.uri === fake.url && c.local)).toBe(true);
    expect(server.connections.some((c) => c.relay)).toBe(true);
    const alice = await body<Array<{ provides: string; accessToken: string; owned: boolean }>>(await call(`${fake.accountUrl}/api/v2/resources`, { token: TOKENS.alice }));
    expect(alice.find((r) => r.provides.includes('server'))).toMatchObject({ owned: false, accessToken: TOKENS.aliceServer });
    const mallory = await body<Array<{ provides: string }>>(await call(`${fake.accountUrl}/api/v2/resources`, { token: TOKENS.mallory }));
    expect(mallory.some((r) => r.provides.includes('server'))).toBe(false);
    expect((await call(`${fake.url}/library/sections`, { token: TOKENS.mallory })).status).toBe(401);
  });

  it('answers XML without Accept: application/json, and 401 HTML for a revoked token', async () => {
    const xml = await call(`${fake.url}/library/sections`, { token: TOKENS.admin, json: false });
    expect(xml.headers.get('content-type')).toMatch(/xml/);
    expect(await xml.text()).toMatch(/^<\?xml/);
    fake.revoke(TOKENS.aliceServer);
    const revoked = await call(`${fake.url}/library/sections`, { token: TOKENS.aliceServer });
    expect(revoked.status).toBe(401);
    expect(await revoked.text()).toContain('401 Unauthorized');
    expect((await call(`${fake.url}/library/sections`, { token: TOKENS.alice })).status).toBe(200);
  });

  it('keeps watch state per user: scrobble, unscrobble and progress act for the token’s user', async () => {
    const meta = async (token: string, rk: string) => (await body<Container>(await call(`${fake.url}/library/metadata/${rk}`, { token }))).MediaContainer.Metadata![0]!;
    expect(await meta(TOKENS.admin, '103')).toMatchObject({ viewCount: 1 });
    expect((await meta(TOKENS.aliceServer, '103')).viewCount).toBeUndefined();
    expect((await call(`${fake.url}/:/scrobble?key=103&identifier=com.plexapp.plugins.library`, { token: TOKENS.aliceServer })).status).toBe(200);
    expect(await meta(TOKENS.aliceServer, '103')).toMatchObject({ viewCount: 1 });
    await call(`${fake.url}/:/unscrobble?key=103&identifier=com.plexapp.plugins.library`, { token: TOKENS.admin });
    expect((await meta(TOKENS.admin, '103')).viewCount).toBeUndefined();
    await call(`${fake.url}/:/progress?key=104&identifier=com.plexapp.plugins.library&time=60000&state=stopped`, { token: TOKENS.bobServer });
    expect(await meta(TOKENS.bobServer, '104')).toMatchObject({ viewOffset: 60000 });
    await call(`${fake.url}/:/progress?key=104&identifier=com.plexapp.plugins.library&time=${6_104_000 * 0.95}&state=stopped`, { token: TOKENS.bobServer });
    expect(await meta(TOKENS.bobServer, '104')).toMatchObject({ viewCount: 1 });
    expect((await call(`${fake.url}/:/scrobble?key=999&identifier=com.plexapp.plugins.library`, { token: TOKENS.admin })).status).toBe(404);
    expect((await call(`${fake.url}/:/scrobble?key=103`, { token: TOKENS.admin })).status).toBe(400);
  });

  it('reads a section with media-query filters, Guids only when asked, and paging headers', async () => {
    const q = async (query: string) => (await body<Container>(await call(`${fake.url}/library/sections/1/all?${query}`, { token: TOKENS.admin }))).MediaContainer;
    expect((await q('title==Northbound&year=2008')).Metadata!.map((m) => m.ratingKey)).toEqual(['104']);
    expect((await q('year>>=2015')).Metadata!.map((m) => m.ratingKey).sort()).toEqual(['101', '102']);
    expect((await q('title==Northbound')).Metadata![0]!.Guid).toBeUndefined();
    expect((await q('title==Northbound&includeGuids=1')).Metadata![0]!.Guid).toEqual([{ id: 'imdb://tt7200104' }, { id: 'tmdb://510104' }]);
    const legacy = (await q("title==Grandma's Tapes&includeGuids=1")).Metadata![0]!;
    expect(legacy.guid).toBe('com.plexapp.agents.imdb://tt0310106?lang=en');
    expect(legacy.Guid).toBeUndefined();
    const paged = await call(`${fake.url}/library/sections/1/all`, { token: TOKENS.admin, headers: { 'x-plex-container-start': '2', 'x-plex-container-size': '2' } });
    expect(paged.headers.get('x-plex-container-total-size')).toBe('6');
    expect((await body<Container>(paged)).MediaContainer).toMatchObject({ offset: 2, size: 2, totalSize: 6 });
  });

  it('serves parts with Range: 206, suffix and open ranges, 416, HEAD', async () => {
    const key = '/library/parts/2101/1735963260/file.mp4';
    const r = await call(`${fake.url}${key}`, { token: TOKENS.admin, headers: { range: 'bytes=0-99' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes 0-99/${PART_SIZE}`);
    expect(Buffer.from(await r.arrayBuffer())).toEqual(PART_BYTES.subarray(0, 100));
    expect(PART_BYTES.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const suffix = await call(`${fake.url}${key}`, { token: TOKENS.admin, headers: { range: 'bytes=-10' } });
    expect(suffix.headers.get('content-range')).toBe(`bytes ${PART_SIZE - 10}-${PART_SIZE - 1}/${PART_SIZE}`);
    await suffix.arrayBuffer();
    const beyond = await call(`${fake.url}${key}`, { token: TOKENS.admin, headers: { range: `bytes=${PART_SIZE}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${PART_SIZE}`);
    const head = await call(`${fake.url}${key}`, { token: TOKENS.admin, method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PART_SIZE));
    expect(head.headers.get('accept-ranges')).toBe('bytes');
  });

  it('keeps sessions and the folder browser for the owner: 403 for a friend, or 401 like PMS up to 1.46', async () => {
    const sessions = await body<Container>(await call(`${fake.url}/status/sessions`, { token: TOKENS.admin }));
    expect(sessions.MediaContainer.Metadata!.map((m) => [m.ratingKey, (m.Player as { state: string }).state])).toEqual([
      ['20113', 'playing'],
      ['101', 'paused'],
    ]);
    expect((await call(`${fake.url}/status/sessions`, { token: TOKENS.aliceServer })).status).toBe(403);
    fake.settings.nonOwnerStatus = 401;
    expect((await call(`${fake.url}/status/sessions`, { token: TOKENS.aliceServer })).status).toBe(401);
    const root = await body<{ MediaContainer: { Path: Array<{ path: string; key: string }> } }>(await call(`${fake.url}/services/browse`, { token: TOKENS.admin }));
    expect(root.MediaContainer.Path.map((x) => x.path)).toEqual(['/data']);
    const media = await body<{ MediaContainer: { Path: Array<{ path: string }> } }>(await call(`${fake.url}/services/browse/${Buffer.from('/data/media').toString('base64')}?includeFiles=0`, { token: TOKENS.admin }));
    expect(media.MediaContainer.Path.map((x) => x.path)).toEqual(['/data/media/movies', '/data/media/tv']);
  });

  it('creates a personal-media section, scans new files into none:// items, drops vanished ones, refuses deletion when it is off', async () => {
    fake.addFile('/srv/hearth/alice/mine/Beach Day (2024).mp4');
    const created = await call(`${fake.url}/library/sections?name=Alice%27s%20videos&type=movie&agent=com.plexapp.agents.none&scanner=Plex%20Video%20Files%20Scanner&language=xn&location=%2Fsrv%2Fhearth%2Falice%2Fmine`, { token: TOKENS.admin, method: 'POST' });
    expect(created.status).toBe(200);
    const key = ((await body<{ MediaContainer: { Directory: Array<{ key: string }> } }>(created)).MediaContainer.Directory[0]!).key;
    expect((await call(`${fake.url}/library/sections?name=x&type=movie&agent=a&location=/x`, { token: TOKENS.aliceServer, method: 'POST' })).status).toBe(403);
    await until(() => !fake.state().sections.find((s) => s.key === key)!.refreshing, 'the first scan');
    const items = () => fake.state().items.filter((i) => i.sectionId === key);
    expect(items()).toEqual([expect.objectContaining({ title: 'Beach Day', guid: expect.stringMatching(/^com\.plexapp\.agents\.none:\/\/\d+\?lang=xn$/) })]);
    fake.addFile('/srv/hearth/alice/mine/Birthday (2025).mp4');
    fake.removeFile('/srv/hearth/alice/mine/Beach Day (2024).mp4');
    expect((await call(`${fake.url}/library/sections/${key}/refresh?path=${encodeURIComponent('/srv/hearth/alice/mine')}`, { token: TOKENS.admin })).status).toBe(200);
    await until(() => !fake.state().sections.find((s) => s.key === key)!.refreshing, 'the folder scan');
    expect(items().map((i) => i.title)).toEqual(['Birthday']);
    fake.settings.allowMediaDeletion = false;
    expect((await call(`${fake.url}/library/metadata/${items()[0]!.ratingKey}`, { token: TOKENS.admin, method: 'DELETE' })).status).toBe(400);
    fake.settings.allowMediaDeletion = true;
    expect((await call(`${fake.url}/library/metadata/${items()[0]!.ratingKey}`, { token: TOKENS.admin, method: 'DELETE' })).status).toBe(200);
    expect(fake.state().files).not.toContain('/srv/hearth/alice/mine/Birthday (2025).mp4');
  });

  it('keeps the watchlist on the discover host (the retired host answers 404), with an account token only', async () => {
    const list = async (base: string, token: string) => call(`${base}/library/sections/watchlist/all`, { token });
    const admin = await body<Container>(await list(fake.discoverUrl, TOKENS.admin));
    expect(admin.MediaContainer.Metadata!.map((m) => m.title)).toEqual(['Starfall Protocol', 'Northbound']);
    expect((await list(fake.retiredDiscoverUrl, TOKENS.admin)).status).toBe(404);
    expect((await list(fake.discoverUrl, TOKENS.aliceServer)).status).toBe(401);
    expect((await call(`${fake.discoverUrl}/actions/addToWatchlist?ratingKey=101`, { token: TOKENS.bob, method: 'PUT' })).status).toBe(404);
    expect((await call(`${fake.discoverUrl}/actions/addToWatchlist?ratingKey=5f1a2b3c4d5e6f7081920302`, { token: TOKENS.bob })).status).toBe(405);
    expect((await call(`${fake.discoverUrl}/actions/addToWatchlist?ratingKey=5f1a2b3c4d5e6f7081920302`, { token: TOKENS.bob, method: 'PUT' })).status).toBe(200);
    expect(fake.state().watchlists.bob).toEqual(['Copper Valley']);
    const matches = await body<Container>(await call(`${fake.discoverUrl}/library/metadata/matches?type=2&guid=tvdb://400202`, { token: TOKENS.bob }));
    expect(matches.MediaContainer.Metadata!.map((m) => m.guid)).toEqual(['plex://show/5f1a2b3c4d5e6f7081920202']);
  });

  it('fails on request: one service down while the others answer, slow, garbage; the whole port down', async () => {
    await fake.setMode('down', { role: 'server' });
    await expect(call(`${fake.url}/identity`)).rejects.toThrow();
    expect((await call(`${fake.accountUrl}/api/v2/ping`, { token: TOKENS.admin })).status).toBe(200);
    await fake.setMode('garbage', { role: 'server' });
    const garbage = await call(`${fake.url}/identity`);
    expect(garbage.status).toBe(200);
    expect(await garbage.text()).toMatch(/<html>/);
    await fake.setMode('slow', { slowMs: 5_000 });
    await expect(fetch(`${fake.url}/identity`, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    await fake.setMode('down');
    await expect(call(`${fake.url}/identity`)).rejects.toThrow();
    await fake.setMode('ok');
    expect((await body<Container>(await call(`${fake.url}/identity`))).MediaContainer.machineIdentifier).toBe(fake.machineIdentifier);
  });

  it('logs every request with where its token came from', async () => {
    await call(`${fake.url}/library/onDeck?X-Plex-Token=${TOKENS.admin}`);
    await call(`${fake.url}/library/onDeck`, { token: TOKENS.admin });
    expect(fake.log.slice(-2).map((e) => [e.role, e.tokenVia, e.user, e.status])).toEqual([
      ['server', 'query', 'admin', 200],
      ['server', 'header', 'admin', 200],
    ]);
  });
});

