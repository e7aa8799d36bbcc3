// The Plex adapter against the fake (reference/plex.md): the three clients with their headers,
// typed failures (a revoked token, no access, owner-only, down, slow, garbage, a refused address),
// and no token in any error, stack or log line. The reads and actions the routes will stand on: the
// PIN flow to a token, resources with the local connection first, library reads, the Range
// pass-through of a part, the watchlist through discover, watched and unwatched per member.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createMediaServerGuard,
  createPlexAccountClient,
  createPlexDiscoverClient,
  createPlexServerClient,
  MediaServerError,
  type PlexClientInfo,
} from '../../server/adapters/media-server/plex.js';
import { discoverKeyOf } from '../../server/modules/media-server/guids.js';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { createSsrfGuard, type SsrfGuard } from '../../server/platform/ssrf.js';
import { PART_BYTES, PART_SIZE, startFakeMediaServer, type FakeMediaServer, type LoggedRequest } from '../fakes/media-server.js';

const CLIENT: PlexClientInfo = { clientIdentifier: 'hearth-test-install', product: 'Hearth', version: '0.1.0', platform: 'Linux', device: 'Hearth server', deviceName: 'Hearth' };

describe('media-server adapter (Plex)', () => {
  let fake: FakeMediaServer;
  let publicGuard: SsrfGuard;
  let serverGuard: SsrfGuard;
  const logger = createMemoryLogger();
  const errors: unknown[] = [];
  let account: ReturnType<typeof createPlexAccountClient>;
  let discover: ReturnType<typeof createPlexDiscoverClient>;
  let server: ReturnType<typeof createPlexServerClient>;

  beforeAll(async () => {
    fake = await startFakeMediaServer({ refreshMs: 20 });
    // plex.tv and discover are on the internet: the one guard, with the fake let through as tests do
    publicGuard = createSsrfGuard({ allowOrigins: [fake.url] });
    // the media server is on the home network: only its configured origin passes
    serverGuard = createMediaServerGuard(fake.url);
    account = createPlexAccountClient({ baseUrl: fake.accountUrl, guard: publicGuard, client: CLIENT, logger });
    discover = createPlexDiscoverClient({ baseUrl: fake.discoverUrl, guard: publicGuard, client: CLIENT, logger });
    server = createPlexServerClient({ baseUrl: fake.url, guard: serverGuard, client: CLIENT, logger });
  });
  afterAll(async () => {
    await publicGuard.close();
    await serverGuard.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());
  // every request the fake saw, kept across its resets for the last test
  const seen: LoggedRequest[] = [];
  afterEach(() => void seen.push(...fake.log));

  /** The MediaServerError a promise fails with, kept for the token search at the end. */
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    errors.push(err);
    expect(err).toBeInstanceOf(MediaServerError);
    return err as MediaServerError;
  };

  describe('failures', () => {
    it('types a revoked token as unauthorized on every service, and plex.tv tells it from an outage', async () => {
      const t = fake.tokens;
      fake.revoke(t.alice);
      fake.revoke(t.aliceServer);
      expect(await failure(server.sections(t.aliceServer))).toMatchObject({ service: 'server', failure: 'unauthorized', status: 401 });
      expect(await failure(account.account(t.alice))).toMatchObject({ service: 'account', failure: 'unauthorized', status: 401 });
      expect(await failure(discover.watchlist(t.alice))).toMatchObject({ service: 'discover', failure: 'unauthorized' });
      expect(await account.tokenStatus(t.alice)).toBe('invalid');
      expect(await account.tokenStatus(t.admin)).toBe('valid');
      await fake.setMode('down', { role: 'account' });
      expect(await account.tokenStatus(t.admin)).toBe('unknown');
    });

    it('types an account without access (401 on the server, signed in at plex.tv) and a friend asking for an owner-only call', async () => {
      const t = fake.tokens;
      expect(await failure(server.onDeck(t.mallory))).toMatchObject({ failure: 'unauthorized' });
      expect(await account.tokenStatus(t.mallory)).toBe('valid');
      expect(await account.servers(t.mallory)).toEqual([]);
      expect(await failure(server.sessions(t.aliceServer))).toMatchObject({ failure: 'forbidden', status: 403 });
      fake.settings.nonOwnerStatus = 401;
      expect(await failure(server.sessions(t.aliceServer))).toMatchObject({ failure: 'unauthorized' });
    });

    it('says the server is down, slow or talking garbage, while the account service answers', async () => {
      const quick = createPlexServerClient({ baseUrl: fake.url, guard: serverGuard, client: CLIENT, logger, timeoutMs: 300 });
      await fake.setMode('down', { role: 'server' });
      expect(await failure(quick.sections(fake.tokens.admin))).toMatchObject({ failure: 'unreachable' });
      expect((await account.account(fake.tokens.admin)).username).toBe('admin');
      await fake.setMode('garbage', { role: 'server' });
      expect(await failure(quick.sections(fake.tokens.admin))).toMatchObject({ failure: 'bad_response' });
      await fake.setMode('slow', { role: 'server', slowMs: 3_000 });
      expect(await failure(quick.sections(fake.tokens.admin))).toMatchObject({ failure: 'timeout' });
      // a part's stream has no overall budget, but its answer must start in time
      expect(await failure(quick.part(fake.tokens.admin, '/library/parts/2101/1/file.mp4'))).toMatchObject({ failure: 'timeout' });
      await fake.setMode('down');
      expect(await failure(quick.identity())).toMatchObject({ failure: 'unreachable' });
      await fake.setMode('ok');
      expect((await quick.identity()).machineIdentifier).toBe(fake.machineIdentifier);
    });

    it('reaches a home-network server only through its own guard: the plain guard, another port and redirects are refused', async () => {
      const plainGuard = createSsrfGuard();
      const plain = createPlexServerClient({ baseUrl: fake.url, guard: plainGuard, client: CLIENT, logger });
      expect(await failure(plain.identity())).toMatchObject({ failure: 'blocked' });
      await plainGuard.close();
      const port = Number(new URL(fake.url).port);
      const otherPort = createPlexServerClient({ baseUrl: `http://127.0.0.1:${port + 1}`, guard: serverGuard, client: CLIENT, logger });
      expect(await failure(otherPort.identity())).toMatchObject({ failure: 'blocked' });
    });

    it('refuses keys that are not the server’s own before asking: a PMS ratingKey on discover, a foreign part or image path', async () => {
      const before = fake.log.length;
      expect(await failure(discover.addToWatchlist(fake.tokens.bob, '101'))).toMatchObject({ failure: 'not_found' });
      expect(await failure(server.part(fake.tokens.admin, 'http://169.254.169.254/latest'))).toMatchObject({ failure: 'not_found' });
      expect(await failure(server.image(fake.tokens.admin, 'https://evil.example/x.jpg', { width: 10, height: 10 }))).toMatchObject({ failure: 'not_found' });
      expect(fake.log.length).toBe(before);
    });
  });

  describe('the PIN flow and resources', () => {
    it('creates a PIN, polls it until approved and reads the account with the token it gave', async () => {
      const pin = await account.createPin();
      expect(pin.code).toHaveLength(25);
      expect((await account.checkPin(pin.id)).authToken).toBeNull();
      const link = new URL(account.linkUrl(pin.code));
      expect(`${link.origin}${link.pathname}`).toBe('https://app.plex.tv/auth');
      const params = new URLSearchParams(link.hash.slice(2));
      expect([params.get('clientID'), params.get('code'), params.get('context[device][product]')]).toEqual([CLIENT.clientIdentifier, pin.code, 'Hearth']);
      fake.approvePin(pin.id, 'alice');
      const token = (await account.checkPin(pin.id)).authToken!;
      expect(token).toBe(fake.tokens.alice);
      expect(await account.account(token)).toMatchObject({ username: 'alice', email: 'alice@home.example', restricted: false });
      fake.expirePin(pin.id);
      expect(await failure(account.checkPin(pin.id))).toMatchObject({ failure: 'not_found' });
      // every call said who Hearth is, and asked for JSON
      const created = fake.log.find((e) => e.method === 'POST' && e.path.endsWith('/api/v2/pins'))!;
      expect(created.plexHeaders).toMatchObject({ 'x-plex-client-identifier': CLIENT.clientIdentifier, 'x-plex-product': 'Hearth', 'x-plex-version': '0.1.0', 'x-plex-platform': 'Linux', 'x-plex-device': 'Hearth server', 'x-plex-device-name': 'Hearth' });
      expect(created.accept).toBe('application/json');
    });

    it('lists the servers an account reaches with the local connection first and relay last, and the friend’s own server token', async () => {
      const [admin] = await account.servers(fake.tokens.admin);
      expect(admin).toMatchObject({ name: 'Living Room Plex', machineIdentifier: fake.machineIdentifier, owned: true, accessToken: fake.tokens.admin });
      expect(admin!.connections.map((c) => [c.local, c.relay])).toEqual([
        [true, false],
        [true, false],
        [false, false],
        [false, true],
      ]);
      // the first local connection that answers /identity with the same machine id is the one to keep
      const reachable = admin!.connections.find((c) => c.uri === fake.url)!;
      expect(reachable.local).toBe(true);
      const probe = createPlexServerClient({ baseUrl: reachable.uri, guard: serverGuard, client: CLIENT });
      expect((await probe.identity()).machineIdentifier).toBe(admin!.machineIdentifier);
      const [alice] = await account.servers(fake.tokens.alice);
      expect(alice).toMatchObject({ owned: false, sourceTitle: 'admin', accessToken: fake.tokens.aliceServer });
    });
  });

  describe('library reads through the shared server', () => {
    it('reads sections, a section query with Guids, an item with its part, feeds and hubs', async () => {
      const t = fake.tokens.admin;
      expect((await server.sections(t)).map((s) => [s.key, s.type, s.title, s.locations])).toEqual([
        ['1', 'movie', 'Movies', ['/data/media/movies']],
        ['2', 'show', 'TV Shows', ['/data/media/tv']],
      ]);
      const found = await server.sectionItems(t, '1', { type: 1, includeGuids: true, filters: { title: '=Northbound', year: '2008' } });
      expect(found.items.map((i) => [i.ratingKey, i.year, i.guids])).toEqual([['104', 2008, ['imdb://tt7200104', 'tmdb://510104']]]);
      const paged = await server.sectionItems(t, '1', { start: 0, size: 2 });
      expect([paged.items.length, paged.totalSize]).toEqual([2, 6]);
      const movie = (await server.metadata(t, '102'))!;
      expect(movie).toMatchObject({ title: 'Paper Lanterns', viewCount: 0, viewOffsetMs: 1_800_000, librarySectionId: '1' });
      expect(movie.parts[0]).toMatchObject({ id: 2102, size: PART_SIZE, container: 'mp4' });
      expect(await server.metadata(t, '999')).toBeNull();
      expect((await server.onDeck(t)).map((i) => i.ratingKey)).toEqual(['20113', '102']);
      expect((await server.onDeck(fake.tokens.aliceServer)).map((i) => i.ratingKey)).toEqual(['101', '20112']);
      expect((await server.recentlyAdded(t, { type: 2 })).map((i) => i.type)).toContain('season');
      const hubs = await server.hubs(t);
      expect(hubs.map((h) => h.hubIdentifier)).toEqual(['home.continue', 'home.movies.recent', 'home.television.recent']);
      // a hub's full list, paged from its own key; recently added paged the same way
      const films = hubs.find((h) => h.hubIdentifier === 'home.movies.recent')!;
      expect(films.key).toBe('/hubs/home/recentlyAdded?type=1');
      const second = await server.hubItems(t, films.key!, { start: 2, size: 2 });
      expect(second.map((i) => i.ratingKey)).toEqual((await server.recentlyAdded(t, { type: 1, start: 2, size: 2 })).map((i) => i.ratingKey));
      expect(second).toHaveLength(2);
      const seq = fake.log.length;
      for (const bad of ['http://example.com/hubs/x', '/library/metadata/101', '/hubs/../library/sections', '//example.com/hubs/x']) {
        await expect(server.hubItems(t, bad, { start: 0, size: 1 })).rejects.toMatchObject({ failure: 'not_found' });
      }
      expect(fake.log.length).toBe(seq);
      const sessions = await server.sessions(t);
      expect(sessions.map((s) => [s.user.title, s.item.ratingKey, s.player.state])).toEqual([
        ['admin', '20113', 'playing'],
        ['alice', '101', 'paused'],
      ]);
      const shows = await server.children(t, '201');
      expect(shows.map((s) => s.title)).toEqual(['Season 1', 'Season 2']);
    });

    it('passes a Range through to a part: 206 with Content-Range, HEAD, 416 beyond the end', async () => {
      const key = (await server.metadata(fake.tokens.admin, '101'))!.parts[0]!.key;
      const part = await server.part(fake.tokens.admin, key, { range: 'bytes=100-199' });
      expect(part.status).toBe(206);
      expect(part.headers).toMatchObject({ 'content-range': `bytes 100-199/${PART_SIZE}`, 'content-length': '100', 'accept-ranges': 'bytes', 'content-type': 'video/mp4' });
      const chunks: Buffer[] = [];
      for await (const c of part.body) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks)).toEqual(PART_BYTES.subarray(100, 200));
      expect(fake.log.at(-1)).toMatchObject({ range: 'bytes=100-199', tokenVia: 'header' });
      const head = await server.part(fake.tokens.admin, key, { method: 'HEAD' });
      expect([head.status, head.headers['content-length']]).toEqual([200, String(PART_SIZE)]);
      head.body.destroy();
      const beyond = await server.part(fake.tokens.admin, key, { range: `bytes=${PART_SIZE}-` });
      expect([beyond.status, beyond.headers['content-range']]).toEqual([416, `bytes */${PART_SIZE}`]);
      beyond.body.destroy();
      expect(await failure(server.part(fake.tokens.mallory, key))).toMatchObject({ failure: 'unauthorized' });
    });

    it('fetches a picture through the resizer with the token in a header, never in the URL', async () => {
      const thumb = (await server.metadata(fake.tokens.admin, '101'))!.thumb!;
      const img = await server.image(fake.tokens.admin, thumb, { width: 200, height: 300 });
      expect(img.contentType).toBe('image/jpeg');
      expect(img.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      const asked = fake.log.at(-1)!;
      expect(asked.path).toBe('/photo/:/transcode');
      expect(new URLSearchParams(asked.query).get('url')).toBe(thumb);
      expect(asked.query).not.toContain('X-Plex-Token');
    });
  });

  describe('the member’s own token: watchlist and watched state', () => {
    it('adds to and removes from the watchlist through discover with the account token; the retired host says not found', async () => {
      const bob = fake.tokens.bob;
      const harbor = (await server.metadata(fake.tokens.bobServer, '201'))!;
      const key = discoverKeyOf(harbor.guid)!;
      await discover.addToWatchlist(bob, key);
      expect(fake.state().watchlists.bob).toEqual(['Harbor Lights']);
      const put = fake.log.at(-1)!;
      expect([put.method, put.role, put.tokenVia, put.accept]).toEqual(['PUT', 'discover', 'header', null]);
      expect((await discover.watchlist(bob)).items.map((i) => [i.title, i.key])).toEqual([['Harbor Lights', key]]);
      expect((await discover.metadata(bob, key))!.guids).toContain('tvdb://300201');
      expect((await discover.matches(bob, { type: 'show', guid: 'tvdb://400202' })).map((m) => m.title)).toEqual(['Quiet Planet']);
      await discover.removeFromWatchlist(bob, key);
      expect(fake.state().watchlists.bob).toEqual([]);
      // a friend's server token is not an account token
      expect(await failure(discover.addToWatchlist(fake.tokens.bobServer, key))).toMatchObject({ failure: 'unauthorized' });
      const retired = createPlexDiscoverClient({ baseUrl: fake.retiredDiscoverUrl, guard: publicGuard, client: CLIENT, logger });
      expect(await failure(retired.watchlist(bob))).toMatchObject({ failure: 'not_found' });
    });

    it('marks watched, unwatched and a resume point for the token’s own user only', async () => {
      const alice = fake.tokens.aliceServer;
      const admin = fake.tokens.admin;
      await server.scrobble(alice, '102');
      expect((await server.metadata(alice, '102'))!.viewCount).toBe(1);
      expect((await server.metadata(admin, '102'))!).toMatchObject({ viewCount: 0, viewOffsetMs: 1_800_000 });
      await server.unscrobble(admin, '103');
      expect((await server.metadata(admin, '103'))!.viewCount).toBe(0);
      await server.progress(alice, '104', 123_456);
      expect((await server.metadata(alice, '104'))!.viewOffsetMs).toBe(123_456);
      await server.scrobble(alice, '201');
      const show = (await server.metadata(alice, '201'))!;
      expect([show.viewedLeafCount, show.leafCount]).toEqual([5, 5]);
      expect(await failure(server.scrobble(alice, '999'))).toMatchObject({ failure: 'not_found' });
    });

    it('reports playback on the timeline: a session the owner sees while playing, gone when stopped, the time kept as the resume point', async () => {
      const bob = fake.tokens.bobServer;
      await server.timeline(bob, '103', 'playing', 60_000, 6_103_000);
      const playing = await server.sessions(fake.tokens.admin);
      expect(playing.find((s) => s.user.title === 'bob')).toMatchObject({ item: { ratingKey: '103' }, player: { state: 'playing', product: 'Hearth' } });
      await server.timeline(bob, '103', 'stopped', 90_000, 6_103_000);
      expect((await server.sessions(fake.tokens.admin)).some((s) => s.user.title === 'bob')).toBe(false);
      expect((await server.metadata(bob, '103'))!.viewOffsetMs).toBe(90_000);
    });
  });

  it('never sends a token in a URL, nor lets one into an error, a stack or a log line', () => {
    const ours = seen.filter((e) => e.clientId === CLIENT.clientIdentifier || e.plexHeaders['x-plex-client-identifier'] === CLIENT.clientIdentifier);
    expect(ours.length).toBeGreaterThan(20);
    expect(ours.filter((e) => e.tokenVia === 'query')).toEqual([]);
    expect(errors.length).toBeGreaterThan(10);
    expect(logger.lines.length).toBeGreaterThan(5);
    const text = JSON.stringify([errors.map((e) => [String(e), (e as Error).stack, (e as Error).message, (e as { cause?: unknown }).cause]), logger.lines]);
    for (const token of fake.allTokens()) expect(text).not.toContain(token);
  });
});
