// A stand-in for TheSportsDB's v1 API (reference/briefing.md §4.1) under /api/v1/json/{key}/:
// searchteams.php?t=, lookupteam.php?id=, eventsnext.php?id=, eventslast.php?id= (its list is
// `results`, not `events`), eventsday.php?d=YYYY-MM-DD&s= (keyed by UTC date). "Nothing" is null with
// a 200, numbers arrive as strings, timestamps are UTC without a Z. After `limitPerMinute` calls
// (default 30) it answers 429 until reset(). Every request is recorded with the key it used.
// Team badges are images on the fake's own origin (/images/media/team/badge/<name>.png, as
// r2.thesportsdb.com serves them): a real PNG, or with `badgeMode` 'garbage' an HTML page, or
// 'slow' an answer that never comes. With `live` the followed match of the day is being played
// (status "2H", 0–1) instead of not started.
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

export interface FakeSportsDb extends FakeHttp {
  limitPerMinute: number;
  reset(): void;
  /** The UTC day `eventsday` has matches on (tests set it to their "today"). */
  matchDay: string;
  /** Today's Hill Rovers vs Riverside is in its second half, 0–1. */
  live: boolean;
  badgeMode: 'ok' | 'garbage' | 'slow';
}

/** A 16×16 red PNG (the badge every team has here). */
export const BADGE_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mM4oaFBEmIY1TCqYfhqAAB8MxgQ+iSj5QAAAABJRU5ErkJggg==', 'base64');

const TEAMS = [
  { idTeam: '134001', strTeam: 'Riverside', strTeamShort: 'RIV', idLeague: '4328', strLeague: 'Example League', strSport: 'Soccer', strCountry: 'Examplia', strBadge: '/images/media/team/badge/riverside.png' },
  { idTeam: '134002', strTeam: 'Hill Rovers', strTeamShort: 'HIL', idLeague: '4328', strLeague: 'Example League', strSport: 'Soccer', strCountry: 'Examplia', strBadge: '/images/media/team/badge/hill.png' },
  { idTeam: '134003', strTeam: 'Riverton Rays', strTeamShort: 'RAY', idLeague: '4387', strLeague: 'Example Basketball', strSport: 'Basketball', strCountry: 'Examplia', strBadge: '/images/media/team/badge/rays.png' },
];

const event = (id: string, home: (typeof TEAMS)[number], away: (typeof TEAMS)[number], ts: string, score: [string, string] | null, status: string) => ({
  idEvent: id,
  strEvent: `${home.strTeam} vs ${away.strTeam}`,
  idLeague: home.idLeague,
  strLeague: home.strLeague,
  strSeason: '2026-2027',
  intRound: '7',
  idHomeTeam: home.idTeam,
  idAwayTeam: away.idTeam,
  strHomeTeam: home.strTeam,
  strAwayTeam: away.strTeam,
  intHomeScore: score?.[0] ?? null,
  intAwayScore: score?.[1] ?? null,
  dateEvent: ts.slice(0, 10),
  strTime: ts.slice(11),
  strTimestamp: ts,
  strStatus: status,
  strVenue: `${home.strTeam} Park`,
  strPostponed: 'no',
});

export async function startFakeSportsDb(): Promise<FakeSportsDb> {
  const state = { limitPerMinute: 30, calls: 0, matchDay: '2026-10-04', live: false, badgeMode: 'ok' as FakeSportsDb['badgeMode'] };
  const [riv, hil, ray] = TEAMS as [(typeof TEAMS)[number], (typeof TEAMS)[number], (typeof TEAMS)[number]];
  const http = await startFakeHttp((req, res, url) => {
    if (url.pathname.startsWith('/images/media/team/badge/')) {
      if (state.badgeMode === 'slow') return; // never answers
      if (state.badgeMode === 'garbage') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end('<html><body>Not an image</body></html>');
      }
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': BADGE_PNG.length });
      return void res.end(BADGE_PNG);
    }
    state.calls++;
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    const withBadges = (teams: typeof TEAMS) => teams.map((t) => ({ ...t, strBadge: `${origin}${t.strBadge}` }));
    if (state.calls > state.limitPerMinute) return sendJson(res, 429, { error: 'Too many requests' }, { 'retry-after': '60' });
    const m = /^\/api\/v1\/json\/([^/]+)\/([a-z]+\.php)$/.exec(url.pathname);
    if (!m) return sendJson(res, 404, { error: 'not found' });
    const q = url.searchParams;
    switch (m[2]) {
      case 'searchteams.php': {
        const t = (q.get('t') ?? '').toLowerCase();
        const hits = TEAMS.filter((x) => x.strTeam.toLowerCase().includes(t));
        return sendJson(res, 200, { teams: t && hits.length ? withBadges(hits) : null });
      }
      case 'lookupteam.php': {
        const hit = TEAMS.find((x) => x.idTeam === q.get('id'));
        return sendJson(res, 200, { teams: hit ? withBadges([hit]) : null });
      }
      case 'eventslast.php':
        if (q.get('id') !== riv.idTeam) return sendJson(res, 200, { results: null });
        return sendJson(res, 200, { results: [event('2291001', riv, hil, '2026-09-27T14:00:00', ['2', '1'], 'Match Finished')] });
      case 'eventsnext.php':
        if (q.get('id') !== riv.idTeam) return sendJson(res, 200, { events: null });
        return sendJson(res, 200, { events: [event('2291044', hil, riv, `${state.matchDay}T18:30:00`, null, 'Not Started')] });
      case 'eventsday.php': {
        if (q.get('d') !== state.matchDay) return sendJson(res, 200, { events: null });
        const sport = q.get('s');
        const today = state.live ? event('2291044', hil, riv, `${state.matchDay}T18:30:00`, ['0', '1'], '2H') : event('2291044', hil, riv, `${state.matchDay}T18:30:00`, null, 'Not Started');
        const all = [today, event('2299999', ray, ray, `${state.matchDay}T12:00:00`, null, 'Not Started')];
        return sendJson(res, 200, { events: all.filter((e) => (e.idLeague === '4387' ? 'Basketball' : 'Soccer') === sport) });
      }
      default:
        return sendJson(res, 404, { error: 'not found' });
    }
  });
  return {
    ...http,
    get limitPerMinute() {
      return state.limitPerMinute;
    },
    set limitPerMinute(n: number) {
      state.limitPerMinute = n;
    },
    get matchDay() {
      return state.matchDay;
    },
    set matchDay(d: string) {
      state.matchDay = d;
    },
    get live() {
      return state.live;
    },
    set live(v: boolean) {
      state.live = v;
    },
    get badgeMode() {
      return state.badgeMode;
    },
    set badgeMode(m: FakeSportsDb['badgeMode']) {
      state.badgeMode = m;
    },
    reset() {
      state.calls = 0;
    },
  };
}
