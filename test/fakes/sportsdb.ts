// A stand-in for TheSportsDB's v1 API (reference/briefing.md §4.1) under /api/v1/json/{key}/:
// searchteams.php?t=, lookupteam.php?id=, eventsnext.php?id=, eventslast.php?id= (its list is
// `results`, not `events`), eventsday.php?d=YYYY-MM-DD&s= (keyed by UTC date). "Nothing" is null with
// a 200, numbers arrive as strings, timestamps are UTC without a Z. After `limitPerMinute` calls
// (default 30) it answers 429 until reset(). Every request is recorded with the key it used.
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

export interface FakeSportsDb extends FakeHttp {
  limitPerMinute: number;
  reset(): void;
  /** The UTC day `eventsday` has matches on (tests set it to their "today"). */
  matchDay: string;
}

const TEAMS = [
  { idTeam: '134001', strTeam: 'Riverside', strTeamShort: 'RIV', idLeague: '4328', strLeague: 'Example League', strSport: 'Soccer', strCountry: 'Examplia', strBadge: 'https://r2.thesportsdb.com/images/media/team/badge/riverside.png' },
  { idTeam: '134002', strTeam: 'Hill Rovers', strTeamShort: 'HIL', idLeague: '4328', strLeague: 'Example League', strSport: 'Soccer', strCountry: 'Examplia', strBadge: 'https://r2.thesportsdb.com/images/media/team/badge/hill.png' },
  { idTeam: '134003', strTeam: 'Riverton Rays', strTeamShort: 'RAY', idLeague: '4387', strLeague: 'Example Basketball', strSport: 'Basketball', strCountry: 'Examplia', strBadge: 'https://r2.thesportsdb.com/images/media/team/badge/rays.png' },
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
  const state = { limitPerMinute: 30, calls: 0, matchDay: '2026-10-04' };
  const [riv, hil, ray] = TEAMS as [(typeof TEAMS)[number], (typeof TEAMS)[number], (typeof TEAMS)[number]];
  const http = await startFakeHttp((_req, res, url) => {
    state.calls++;
    if (state.calls > state.limitPerMinute) return sendJson(res, 429, { error: 'Too many requests' }, { 'retry-after': '60' });
    const m = /^\/api\/v1\/json\/([^/]+)\/([a-z]+\.php)$/.exec(url.pathname);
    if (!m) return sendJson(res, 404, { error: 'not found' });
    const q = url.searchParams;
    switch (m[2]) {
      case 'searchteams.php': {
        const t = (q.get('t') ?? '').toLowerCase();
        const hits = TEAMS.filter((x) => x.strTeam.toLowerCase().includes(t));
        return sendJson(res, 200, { teams: t && hits.length ? hits : null });
      }
      case 'lookupteam.php': {
        const hit = TEAMS.find((x) => x.idTeam === q.get('id'));
        return sendJson(res, 200, { teams: hit ? [hit] : null });
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
        const all = [event('2291044', hil, riv, `${state.matchDay}T18:30:00`, null, 'Not Started'), event('2299999', ray, ray, `${state.matchDay}T12:00:00`, null, 'Not Started')];
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
    reset() {
      state.calls = 0;
    },
  };
}
