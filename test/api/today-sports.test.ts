// Sports over HTTP against the TheSportsDB fake: the admin searches and follows teams (the free key
// by default, the household's own key set but never answered back), last results and next fixtures
// with ISO times carrying the household's offset and scores as numbers, today's matches of followed
// teams only (a match being played is live, and asked for again sooner), a cached copy served stale
// when the API limits Hearth, badges fetched once and served by Hearth (never TheSportsDB's address
// in an answer; garbage and a hanging image host refused), and access rules.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SportsResponse, SportsTodayResponse } from '../../server/modules/today/schema.js';
import { withLocalOffset } from '../../server/platform/clock.js';
import { BADGE_PNG, startFakeSportsDb, type FakeSportsDb } from '../fakes/sportsdb.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('Today: sports', () => {
  let s: TestServer;
  let db: FakeSportsDb;

  beforeAll(async () => {
    db = await startFakeSportsDb();
    s = await startTestServer({ seed: 'household', config: { sportsDbUrl: db.url, fetchAllowOrigins: [db.origin] }, overrides: { tuning: { todayFetchTimeoutMs: 1500 } } });
  });
  afterAll(async () => {
    await s.close();
    await db.close();
  });
  beforeEach(async () => {
    db.reset();
    db.limitPerMinute = 30;
    db.live = false;
    db.badgeMode = 'ok';
    db.requests.length = 0;
    await s.handle.deps.db('today_cache').delete();
    await s.handle.deps.db('app_settings').where('key', 'like', 'today.%').delete();
  });

  it('guards every route', async () => {
    expect((await s.anon.get('/api/sports')).status).toBe(401);
    expect((await s.anon.get('/api/sports/today')).status).toBe(401);
    expect((await s.member.get('/api/admin/briefing/teams/search?q=river')).status).toBe(403);
    expect((await s.member.post('/api/admin/briefing/teams', { teamId: '134001' })).status).toBe(403);
    expect((await s.member.delete('/api/admin/briefing/teams/134001')).status).toBe(403);
    expect((await s.member.put('/api/admin/briefing/sports-key', { key: 'abc' })).status).toBe(403);
    expect((await s.anon.get('/api/sports/badges/134001')).status).toBe(401);
    expect(db.requests).toHaveLength(0);
  });

  it('follows a team found by search, with the free key; results, fixtures and today’s matches', async () => {
    const found = await s.admin.get('/api/admin/briefing/teams/search?q=river');
    expect(found.status).toBe(200);
    expect(found.body.results.map((t: { name: string }) => t.name)).toEqual(['Riverside', 'Riverton Rays']);
    expect(found.text).not.toContain('/images/media/team/badge/');
    expect(db.requests[0]!.path).toBe('/api/v1/json/123/searchteams.php');
    expect((await s.admin.get('/api/admin/briefing/teams/search?q=nobody')).body).toEqual({ results: [] });

    const followed = await s.admin.post('/api/admin/briefing/teams', { teamId: '134001' });
    expect(followed.status).toBe(200);
    expect(followed.body.teams).toEqual([{ id: '134001', name: 'Riverside', league: 'Example League', sport: 'Soccer', country: 'Examplia', badgeUrl: '/api/sports/badges/134001' }]);
    expect((await s.admin.post('/api/admin/briefing/teams', { teamId: '134001' })).status).toBe(409);
    expect((await s.admin.post('/api/admin/briefing/teams', { teamId: '999' })).status).toBe(404);
    expect((await s.admin.post('/api/admin/briefing/teams', { teamId: 'arsenal' })).status).toBe(400);

    const sports = SportsResponse.parse((await s.member.get('/api/sports')).body);
    const riv = sports.teams[0]!;
    expect(riv.last[0]).toMatchObject({ homeTeam: 'Riverside', awayTeam: 'Hill Rovers', homeScore: 2, awayScore: 1, status: 'Match Finished', startsAt: withLocalOffset(new Date('2026-09-27T14:00:00Z')) });
    expect(riv.next[0]).toMatchObject({ homeTeam: 'Hill Rovers', homeScore: null, status: 'Not Started' });
    expect(riv).toMatchObject({ stale: false, error: null, team: { badgeUrl: '/api/sports/badges/134001' } });
    expect(riv.last[0]!.live).toBe(false);

    const today = new Date().toISOString().slice(0, 10);
    db.matchDay = today;
    const t = SportsTodayResponse.parse((await s.member.get('/api/sports/today')).body);
    // the basketball match of a team nobody follows is not asked for (sport) nor shown
    expect(t.matches.map((m) => m.name)).toEqual(['Hill Rovers vs Riverside']);
    expect(db.requests.filter((r) => r.path.endsWith('eventsday.php')).every((r) => r.query.get('s') === 'Soccer')).toBe(true);

    expect((await s.admin.delete('/api/admin/briefing/teams/134001')).body).toEqual({ teams: [] });
    expect((await s.admin.delete('/api/admin/briefing/teams/134001')).status).toBe(404);
  });

  it('uses the household’s own key without ever answering it back; serves a stale copy when limited', async () => {
    await s.admin.post('/api/admin/briefing/teams', { teamId: '134001' });
    const set = await s.admin.put('/api/admin/briefing/sports-key', { key: 'SECRET42' });
    expect(set.body).toEqual({ ownKey: true });
    expect((await s.admin.put('/api/admin/briefing/sports-key', { key: 'a b' })).status).toBe(400);
    db.requests.length = 0;
    await s.member.get('/api/sports');
    expect(db.requests.filter((r) => !r.path.startsWith('/images/')).every((r) => r.path.startsWith('/api/v1/json/SECRET42/'))).toBe(true);
    for (const path of ['/api/sports', '/api/sports/today', '/api/admin/briefing', '/api/admin/briefing/teams']) {
      expect((await s.admin.get(path)).text).not.toContain('SECRET42');
    }
    expect(s.logger.lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain('SECRET42');

    // the copy expires; TheSportsDB answers 429: the last copy, marked stale
    await s.handle.deps.db('today_cache').update({ expires_at: '2000-01-01T00:00:00.000Z' });
    db.limitPerMinute = 0;
    const stale = SportsResponse.parse((await s.member.get('/api/sports')).body);
    expect(stale.teams[0]).toMatchObject({ stale: true, error: null, last: [{ homeScore: 2 }] });
  });

  it('fetches a followed team’s badge once and serves it from Hearth; a team not followed has none', async () => {
    await s.admin.post('/api/admin/briefing/teams', { teamId: '134001' });
    const first = await s.member.get('/api/sports/badges/134001');
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const bytes = await fetch(`${s.url}/api/sports/badges/134001`, { headers: { cookie: s.member.cookie! } });
    expect(Buffer.from(await bytes.arrayBuffer()).equals(BADGE_PNG)).toBe(true);
    await s.member.get('/api/sports/badges/134001');
    await s.admin.get('/api/sports/badges/134001');
    expect(db.requests.filter((r) => r.path === '/images/media/team/badge/riverside.png')).toHaveLength(1);
    // every answer names Hearth's address, never the image host's
    for (const path of ['/api/sports', '/api/admin/briefing/teams']) expect((await s.member.get(path)).text).not.toMatch(/images\/media|127\.0\.0\.1/);

    expect((await s.member.get('/api/sports/badges/134002')).status).toBe(404);
    expect((await s.member.get('/api/sports/badges/riverside')).status).toBe(400);
    // the image host down: the kept copy is still served
    await s.handle.deps.db('today_cache').where({ key: 'sports:badge:134001' }).update({ expires_at: '2000-01-01T00:00:00.000Z' });
    await db.down();
    try {
      expect((await s.member.get('/api/sports/badges/134001')).status).toBe(200);
    } finally {
      await db.up();
    }
    // unfollowing forgets the badge
    await s.admin.delete('/api/admin/briefing/teams/134001');
    expect((await s.member.get('/api/sports/badges/134001')).status).toBe(404);
    expect(await s.handle.deps.db('today_cache').where({ key: 'sports:badge:134001' }).first()).toBeUndefined();
  });

  it('refuses a badge that is not an image, and one that never arrives, with a 503 and a sentence', async () => {
    db.badgeMode = 'garbage';
    await s.admin.post('/api/admin/briefing/teams', { teamId: '134001' });
    const garbage = await s.member.get('/api/sports/badges/134001');
    expect(garbage.status).toBe(503);
    expect(garbage.body.error).toMatchObject({ code: 'source_unavailable', message: 'The team’s badge could not be fetched yet.' });
    const row = await s.handle.deps.db('today_cache').where({ key: 'sports:badge:134001' }).first();
    expect(row.last_error).toMatch(/not a PNG, JPEG, GIF or WebP image/);

    db.badgeMode = 'slow';
    await s.admin.post('/api/admin/briefing/teams', { teamId: '134002' });
    const slow = await s.member.get('/api/sports/badges/134002');
    expect(slow.status).toBe(503);
    // the server still answers everything else
    expect((await s.member.get('/api/sports')).status).toBe(200);
  });

  it('marks today’s match of a followed team live while it is played, and asks again after 5 minutes instead of 15', async () => {
    await s.admin.post('/api/admin/briefing/teams', { teamId: '134001' });
    db.matchDay = new Date().toISOString().slice(0, 10);
    const before = SportsTodayResponse.parse((await s.member.get('/api/sports/today')).body);
    expect(before.matches[0]).toMatchObject({ name: 'Hill Rovers vs Riverside', live: false, homeScore: null });
    const expiry = async () => {
      const rows = await s.handle.deps.db('today_cache').where('key', 'like', 'sports:day:%:Soccer');
      return Math.max(...rows.map((r: { expires_at: string; fetched_at: string }) => Date.parse(r.expires_at) - Date.parse(r.fetched_at)));
    };
    expect(await expiry()).toBe(15 * 60_000);

    db.live = true;
    await s.handle.deps.db('today_cache').where('key', 'like', 'sports:day:%').update({ expires_at: '2000-01-01T00:00:00.000Z' });
    const during = SportsTodayResponse.parse((await s.member.get('/api/sports/today')).body);
    expect(during.matches[0]).toMatchObject({ name: 'Hill Rovers vs Riverside', live: true, status: '2H', homeScore: 0, awayScore: 1 });
    expect(await expiry()).toBe(5 * 60_000);
  });
});
