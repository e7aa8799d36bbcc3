// The library service (server/modules/media-server/library-service.ts) against the fake Plex, with a small
// in-test MediaConnection (which member is linked as which Plex account) over the real database:
// feeds with each member's own state laid over the shared answer, rule 4's forms and its 30-day
// cache on a moved clock (proven by the fake's request log), find, the watchlist and watched state
// through the member's own token (never the shared one), two-way sync, and failures in sentences.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserActor } from '../../server/actor.js';
import { createPlexDiscoverClient, createPlexServerClient, createMediaServerGuard, type PlexClientInfo, type PlexServerClient } from '../../server/adapters/media-server/plex.js';
import { AppError } from '../../server/errors.js';
import { MediaLibraryService } from '../../server/modules/media-server/library-service.js';
import { ProgressStore, ResolutionStore } from '../../server/modules/media-server/library-store.js';
import type { MediaConnection } from '../../server/modules/media-server/parts.js';
import { createManualClock } from '../../server/platform/clock.js';
import { createSsrfGuard, type SsrfGuard } from '../../server/platform/ssrf.js';
import { startFakeMediaServer, TOKENS, type FakeMediaServer } from '../fakes/media-server.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const CLIENT: PlexClientInfo = { clientIdentifier: 'hearth-library-test', product: 'Hearth', version: '0.1.0', platform: 'Linux', device: 'Hearth server', deviceName: 'Hearth' };
const DAY = 24 * 60 * 60 * 1000;

describe('media library service', () => {
  let fake: FakeMediaServer;
  let server: TestServer;
  let publicGuard: SsrfGuard;
  let serverGuard: SsrfGuard;
  let client: PlexServerClient;
  let library: MediaLibraryService;
  let progress: ProgressStore;
  const clock = createManualClock(new Date('2026-11-26T08:00:00Z'));
  let admin: UserActor;
  let sam: UserActor;
  // the in-test connection: who is linked as which Plex account, and what was reported
  let sharedToken: string | null;
  const links = new Map<string, { account: string; server: string | null }>();
  const reports = { member: [] as string[], shared: [] as string[] };

  beforeAll(async () => {
    fake = await startFakeMediaServer({ refreshMs: 10 });
    server = await startTestServer({ seed: 'household', overrides: { clock } });
    publicGuard = createSsrfGuard({ allowOrigins: [fake.url] });
    serverGuard = createMediaServerGuard(fake.url);
    client = createPlexServerClient({ baseUrl: fake.url, guard: serverGuard, client: CLIENT, timeoutMs: 1_500 });
    const connection: MediaConnection = {
      shared: async () => (sharedToken ? { client, token: sharedToken, machineIdentifier: fake.machineIdentifier, name: 'Living Room Plex' } : null),
      memberToken: async (u) => links.get(u)?.account ?? null,
      memberServerToken: async (u) => links.get(u)?.server ?? null,
      reportMemberUnauthorized: async (u) => {
        reports.member.push(u);
        links.delete(u);
      },
      reportShared: async (h) => void reports.shared.push(h),
    };
    progress = new ProgressStore(server.handle.deps.db);
    library = new MediaLibraryService({
      connection,
      discover: createPlexDiscoverClient({ baseUrl: fake.discoverUrl, guard: publicGuard, client: CLIENT }),
      resolutions: new ResolutionStore(server.handle.deps.db, clock),
      progress,
      privateSections: server.handle.deps.mediaPrivateSections,
      clock,
      logger: server.logger,
    });
    admin = { kind: 'user', id: server.users.admin.id, name: 'Alex', role: 'admin', sessionId: 's1' };
    sam = { kind: 'user', id: server.users.member.id, name: 'Sam', role: 'member', sessionId: 's2' };
  });
  afterAll(async () => {
    await server.close();
    await publicGuard.close();
    await serverGuard.close();
    await fake.close();
  });
  beforeEach(async () => {
    fake.reset();
    await fake.setMode('ok');
    sharedToken = TOKENS.admin;
    links.clear();
    links.set(admin.id, { account: TOKENS.admin, server: TOKENS.admin });
    links.set(sam.id, { account: TOKENS.alice, server: TOKENS.aliceServer });
    reports.member.length = 0;
    reports.shared.length = 0;
    await server.handle.deps.db('media_resolutions').delete();
    await server.handle.deps.db('media_progress').delete();
  });

  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  };
  const requests = (path: string) => fake.log.filter((r) => r.path === path);

  describe('feeds', () => {
    it('recent lists movies and new episodes across sections, a season with several new episodes once, and a lone new episode as itself', async () => {
      const { items } = await library.recent(sam, 24);
      const keys = items.map((i) => `${i.kind}:${i.ratingKey}`);
      // three seasons, each with several new episodes: each once, as its season
      expect(keys).toEqual(expect.arrayContaining(['season:2011', 'season:2012', 'season:2021', 'movie:101', 'movie:106']));
      expect(items.filter((i) => i.kind === 'episode')).toEqual([]);
      expect(new Set(keys).size).toBe(keys.length);
      const s1 = items.find((i) => i.ratingKey === '2011')!;
      expect(s1).toMatchObject({ title: 'Season 1', showTitle: 'Harbor Lights', season: 1 });
      expect(s1.route).toMatchObject({ kind: 'show', key: 'show:tvdb:300201', season: 1 });
      expect(s1.thumbUrl).toMatch(/^\/api\/mediaserver\/img\?path=%2Flibrary%2Fmetadata%2F2011%2Fthumb/);
      // the season list asked for episodes (type 4), so a new season of an old show is noticed
      expect(fake.log.some((r) => r.path === '/hubs/home/recentlyAdded' && r.query.includes('type=4'))).toBe(true);

      // a new season 3 with one episode appears first, as the episode
      fake.addFile('/data/media/tv/Harbor Lights/Season 03/Harbor Lights - s03e01.mp4');
      await client.refreshSection(TOKENS.admin, '2');
      await new Promise((r) => setTimeout(r, 60));
      const again = await library.recent(sam, 24);
      expect(again.items[0]).toMatchObject({ kind: 'episode', showTitle: 'Harbor Lights', season: 3, episode: 1 });
    });

    it('lays each member’s own resume point and watched state over the shared answer, read with their own token', async () => {
      const samItems = (await library.recent(sam, 24)).items;
      // alice (Sam) paused The Night Harbor; the owner’s Paper Lanterns progress is not Sam’s
      expect(samItems.find((i) => i.ratingKey === '101')).toMatchObject({ viewOffsetMs: 2_400_000, watched: false });
      expect(samItems.find((i) => i.ratingKey === '102')).toMatchObject({ viewOffsetMs: null, watched: false });
      expect(samItems.find((i) => i.ratingKey === '103')).toMatchObject({ watched: false });
      const adminItems = (await library.recent(admin, 24)).items;
      expect(adminItems.find((i) => i.ratingKey === '102')).toMatchObject({ viewOffsetMs: 1_800_000 });
      expect(adminItems.find((i) => i.ratingKey === '103')).toMatchObject({ watched: true });
      expect(adminItems.find((i) => i.ratingKey === '101')).toMatchObject({ viewOffsetMs: null });
      // the per-member read used the member's server token, the content the shared one
      const personal = fake.log.filter((r) => r.path.startsWith('/library/metadata/') && r.path.includes(','));
      expect(personal.map((r) => r.token)).toEqual([TOKENS.aliceServer, TOKENS.admin]);
      expect(fake.log.filter((r) => r.path === '/hubs/home/recentlyAdded').every((r) => r.token === TOKENS.admin)).toBe(true);
      // server to app: what Sam's token said is in media_progress, for Sam only
      expect(await progress.get(sam.id, '101')).toMatchObject({ positionMs: 2_400_000, completed: false });
      expect(await progress.get(sam.id, '102')).toBeNull();
    });

    it('continue watching is the member’s own on-deck, never the owner’s', async () => {
      const sams = (await library.onDeck(sam, 24)).items.map((i) => i.ratingKey);
      expect(sams).toContain('101');
      expect(sams).not.toContain('102');
      expect(sams).not.toContain('20113');
      expect(requests('/library/onDeck').map((r) => r.token)).toEqual([TOKENS.aliceServer]);
      const admins = (await library.onDeck(admin, 24)).items.map((i) => i.ratingKey);
      expect(admins).toEqual(expect.arrayContaining(['102', '20113']));
      expect(admins).not.toContain('101');
    });

    it('hubs leave out the shared account’s own continue-watching hub', async () => {
      const { hubs } = await library.hubs(sam, 12);
      expect(hubs.map((h) => h.id)).toEqual(['home.movies.recent', 'home.television.recent']);
      expect(hubs[0]!.items.find((i) => i.ratingKey === '101')).toMatchObject({ viewOffsetMs: 2_400_000 });
    });

    it('sessions list who is watching what; a friend’s shared token (owner-only list) answers empty without an error', async () => {
      const { sessions } = await library.sessions(sam);
      expect(sessions).toHaveLength(2);
      expect(sessions.find((s) => s.user === 'alice')).toMatchObject({ state: 'paused', player: "Alice's phone", item: { ratingKey: '101' } });
      expect(sessions.find((s) => s.user === 'admin')!.progress).toBeCloseTo(600_000 / 2_400_000);
      sharedToken = TOKENS.bobServer;
      expect(await library.sessions(sam)).toEqual({ sessions: [], hiddenByContent: 0 });
      fake.settings.nonOwnerStatus = 401;
      expect(await library.sessions(sam)).toEqual({ sessions: [], hiddenByContent: 0 });
      expect(reports.shared).toEqual([]);
    });

    it('rule 7: no shared server, or a member not linked, gets empty feeds and no error', async () => {
      links.delete(sam.id);
      expect(await library.recent(sam, 24)).toEqual({ items: [], hiddenByContent: 0 });
      expect(await library.onDeck(sam, 24)).toEqual({ items: [], hiddenByContent: 0 });
      expect(await library.hubs(sam, 24)).toEqual({ hubs: [], hiddenByContent: 0 });
      expect(await library.sessions(sam)).toEqual({ sessions: [], hiddenByContent: 0 });
      expect(await library.find(sam, { type: 'movie', title: 'Northbound' })).toEqual({ found: false, item: null, hiddenByContent: 0 });
      sharedToken = null;
      expect(await library.recent(admin, 24)).toEqual({ items: [], hiddenByContent: 0 });
      expect(await library.sessions(admin)).toEqual({ sessions: [], hiddenByContent: 0 });
      expect(fake.log).toEqual([]);
    });

    it('a down server or a refused shared token is a sentence, never a raw code; the connection hears of it', async () => {
      await fake.setMode('down', { role: 'server' });
      const down = await failure(library.recent(sam, 24));
      expect(down).toMatchObject({ status: 503, code: 'media_server_down' });
      expect(down.message).toMatch(/not answering right now/);
      expect((await failure(library.meta(sam, '101'))).status).toBe(503);
      expect(reports.shared).toContain('unreachable');
      await fake.setMode('garbage', { role: 'server' });
      expect(await failure(library.hubs(sam, 5))).toMatchObject({ status: 502, code: 'media_server_error' });
      await fake.setMode('ok');
      fake.revoke(TOKENS.admin);
      const refused = await failure(library.recent(sam, 24));
      expect(refused).toMatchObject({ status: 503, code: 'media_server_refused' });
      expect(refused.message).toMatch(/admin needs to connect it again/);
      expect(reports.shared).toContain('unauthorized');
    });

    it('a member’s revoked token: their link is reported and the feed shows the shared content without anyone’s state', async () => {
      fake.revoke(TOKENS.aliceServer);
      const { items } = await library.recent(sam, 24);
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((i) => i.viewOffsetMs === null && !i.watched)).toBe(true);
      expect(reports.member).toEqual([sam.id]);
      // now unlinked: rule 7
      expect(await library.onDeck(sam, 24)).toEqual({ items: [], hiddenByContent: 0 });
    });
  });

  describe('rule 4 and the 30-day cache', () => {
    it('resolves every GUID form: plex:// through the show’s Guid array, legacy agents, title plus year for movies', async () => {
      const show = await library.meta(sam, '201');
      expect(show.item.route).toEqual({ kind: 'show', key: 'show:tvdb:300201', showId: { source: 'tvdb', id: '300201' }, season: null, episode: null, watchlistable: true });
      expect(show.children.map((c) => c.ratingKey)).toEqual(['2011', '2012']);
      const legacyEp = await library.meta(sam, '20212');
      expect(legacyEp.item.route).toMatchObject({ kind: 'show', key: 'show:tvdb:400202', season: 1, episode: 2 });
      const legacyMovie = await library.meta(sam, '106');
      expect(legacyMovie.item.route).toMatchObject({ kind: 'movie', key: "movie:grandmas tapes|2003", watchlistable: false });
      const movie = await library.meta(sam, '105');
      expect(movie.item.route).toMatchObject({ kind: 'movie', key: 'movie:northbound|1987', watchlistable: true });
      // a legacy show has no plex:// key: Plex's matches by its tvdb id find it (and say it can go on a watchlist)
      const legacyShow = await library.meta(sam, '202');
      expect(legacyShow.item.route).toMatchObject({ key: 'show:tvdb:400202', watchlistable: true });
    });

    it('a show’s detail call is made once, then served from the cache until 30 days have passed', async () => {
      const showDetail = () => requests('/library/metadata/201').length;
      await library.recent(sam, 24);
      expect(showDetail()).toBe(1);
      await library.recent(admin, 24);
      clock.advance(29 * DAY);
      await library.recent(sam, 24);
      expect(showDetail()).toBe(1);
      clock.advance(2 * DAY);
      await library.recent(sam, 24);
      expect(showDetail()).toBe(2);
      const row = await server.handle.deps.db('media_resolutions').where({ cache_key: 'plex://show/5d776c2296b655001fe20201' }).first();
      expect(JSON.parse(row.resolution)).toMatchObject({ kind: 'show', key: 'show:tvdb:300201' });
    });

    it('find: shows by show-database id, movies by title plus year', async () => {
      expect((await library.find(sam, { type: 'show', source: 'tvdb', id: '300201' })).item).toMatchObject({ ratingKey: '201', kind: 'show' });
      expect((await library.find(sam, { type: 'show', source: 'tvdb', id: '400202' })).item).toMatchObject({ ratingKey: '202' });
      expect((await library.find(sam, { type: 'show', source: 'imdb', id: 'tt7200201' })).item).toMatchObject({ ratingKey: '201' });
      expect(await library.find(sam, { type: 'show', source: 'tvdb', id: '999' })).toEqual({ found: false, item: null, hiddenByContent: 0 });
      expect((await library.find(sam, { type: 'movie', title: 'Northbound', year: 1987 })).item).toMatchObject({ ratingKey: '105', year: 1987 });
      expect((await library.find(sam, { type: 'movie', title: 'northbound', year: 2008 })).item).toMatchObject({ ratingKey: '104' });
      expect((await library.find(sam, { type: 'show', title: 'Quiet Planet' })).item).toMatchObject({ ratingKey: '202', route: { key: 'show:tvdb:400202' } });
      expect(await library.find(sam, { type: 'movie', title: 'Starfall Protocol' })).toEqual({ found: false, item: null, hiddenByContent: 0 });
    });
  });

  describe('watchlist and watched, with the member’s own token', () => {
    it('adds and removes through the discover provider with the member’s account token, never the shared one', async () => {
      expect(await library.watchlist(sam, { ratingKey: '102' })).toEqual({ onWatchlist: true });
      // an episode goes on as its show; a legacy show through Plex's matches
      await library.watchlist(sam, { ratingKey: '20212' });
      expect(fake.state().watchlists.alice).toEqual(expect.arrayContaining(['Harbor Lights', 'Paper Lanterns', 'Quiet Planet']));
      expect((await library.meta(sam, '102')).onWatchlist).toBe(true);
      expect(await library.watchlist(sam, { ratingKey: '102', remove: true })).toEqual({ onWatchlist: false });
      expect(fake.state().watchlists.alice).not.toContain('Paper Lanterns');
      const discoverCalls = fake.log.filter((r) => r.role === 'discover');
      expect(discoverCalls.length).toBeGreaterThan(0);
      expect(discoverCalls.every((r) => r.token === TOKENS.alice && r.tokenVia === 'header')).toBe(true);
      expect(fake.state().watchlists.admin).toEqual(['Northbound', 'Starfall Protocol']);
    });

    it('refuses with a sentence: nothing to key it by (422), not linked (409), a refused link (409, reported)', async () => {
      const none = await failure(library.watchlist(sam, { ratingKey: '106' }));
      expect(none).toMatchObject({ status: 422, code: 'media_not_watchlistable' });
      expect(none.message).toMatch(/Plex does not know this title/);
      links.delete(sam.id);
      const unlinked = await failure(library.watchlist(sam, { ratingKey: '102' }));
      expect(unlinked).toMatchObject({ status: 409, code: 'media_link_needed' });
      expect(unlinked.message).toMatch(/Link your own Plex account/);
      links.set(sam.id, { account: TOKENS.alice, server: TOKENS.aliceServer });
      fake.revoke(TOKENS.alice);
      expect(await failure(library.watchlist(sam, { ratingKey: '102' }))).toMatchObject({ status: 409, code: 'media_link_revoked' });
      expect(reports.member).toEqual([sam.id]);
    });

    it('watched both ways: Hearth marks it on the server with the member’s token; the server’s state comes back into media_progress', async () => {
      expect(await library.setWatched(sam, '103', true)).toEqual({ watched: true, viewOffsetMs: null, synced: true });
      expect(fake.state().views.alice!['103']).toMatchObject({ viewCount: 1 });
      expect(fake.state().views.admin!['103']).toMatchObject({ viewCount: 1 });
      const scrobble = requests('/:/scrobble');
      expect(scrobble.map((r) => r.token)).toEqual([TOKENS.aliceServer]);
      expect(await progress.get(sam.id, '103')).toMatchObject({ completed: true, viewCount: 1 });
      expect(await library.setWatched(sam, '103', false)).toMatchObject({ watched: false, synced: true });
      expect(fake.state().views.alice!['103']).toMatchObject({ viewCount: 0 });

      // a resume point from Hearth's player, then 90 % counts as watched
      expect(await library.setProgress(sam, '104', { positionMs: 60_000, state: 'stopped' })).toEqual({ watched: false, viewOffsetMs: 60_000, synced: true });
      expect(fake.state().views.alice!['104']).toMatchObject({ viewOffset: 60_000 });
      expect(await library.setProgress(sam, '104', { positionMs: 6_000_000, state: 'stopped' })).toMatchObject({ watched: true });
      expect(await progress.get(sam.id, '104')).toMatchObject({ completed: true });

      // server to app: Sam watches on the TV (the server now says so) and opens the title in Hearth
      await client.progress(TOKENS.aliceServer, '105', 123_000);
      const meta = await library.meta(sam, '105');
      expect(meta.item).toMatchObject({ viewOffsetMs: 123_000, watched: false });
      expect(await progress.get(sam.id, '105')).toMatchObject({ positionMs: 123_000, completed: false });
      await client.scrobble(TOKENS.aliceServer, '105');
      expect((await library.meta(sam, '105')).item.watched).toBe(true);
      expect(await progress.get(sam.id, '105')).toMatchObject({ completed: true, viewCount: 1 });
      // the owner's rows are the owner's: nothing of Sam's showed up for them
      expect(await progress.get(admin.id, '105')).toBeNull();
    });

    it('a change made while the server is away is kept and pushed when the title is next opened', async () => {
      await fake.setMode('down', { role: 'server' });
      expect(await library.setWatched(sam, '101', true)).toEqual({ watched: true, viewOffsetMs: null, synced: false });
      expect(await progress.get(sam.id, '101')).toMatchObject({ completed: true, syncedAt: null });
      await fake.setMode('ok');
      const meta = await library.meta(sam, '101');
      expect(meta.item.watched).toBe(true);
      expect(fake.state().views.alice!['101']).toMatchObject({ viewCount: 1 });
      expect((await progress.get(sam.id, '101'))!.syncedAt).not.toBeNull();
    });

    it('watched state needs a link with access: a sentence for each case', async () => {
      links.set(sam.id, { account: TOKENS.mallory, server: null });
      expect(await failure(library.setWatched(sam, '101', true))).toMatchObject({ status: 409, code: 'media_no_access' });
      links.delete(sam.id);
      expect(await failure(library.setProgress(sam, '101', { positionMs: 5, state: 'stopped' }))).toMatchObject({ status: 409, code: 'media_link_needed' });
      links.set(sam.id, { account: TOKENS.alice, server: TOKENS.aliceServer });
      expect(await failure(library.setWatched(sam, '999999', true))).toMatchObject({ status: 404 });
    });

    it('watchedKeys (the export’s sweep) counts the server’s view count and Hearth’s own completed flag', async () => {
      await progress.upsert({ userId: sam.id, ratingKey: '104', positionMs: 0, durationMs: null, completed: true, viewCount: 1, updatedAt: clock.now().toISOString(), syncedAt: null });
      const keys = await library.watchedKeys(sam.id, ['20111', '104', '101', '103']);
      expect([...keys].sort()).toEqual(['104', '20111']);
      const adminKeys = await library.watchedKeys(admin.id, ['20111', '104', '101', '103']);
      expect([...adminKeys].sort()).toEqual(['103', '20111']);
    });
  });
});
