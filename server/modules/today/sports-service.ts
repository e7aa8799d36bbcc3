// Sports from TheSportsDB's v1 API (reference/briefing.md §4.1): the teams the household follows
// (an admin searches and follows them), each one's last results and next fixtures, and today's
// matches of followed teams. The free shared key `123` is used unless the admin sets the household's
// own key, which is kept as a setting and never returned. Every call goes through the one
// SourceFetcher: fixtures are cached 6 hours, today's matches 15 minutes; "nothing" arrives as
// null with a 200 and numbers as strings. Times are UTC without a Z; answers give ISO times with
// the household's offset. A match being played is `live`; while one is, today's matches are asked
// for every 5 minutes instead of 15. Team badges are fetched once by the server (through the same
// fetcher: SSRF guard, size cap) and served from Hearth's cache at /api/sports/badges/:teamId, so
// no phone ever calls TheSportsDB's image host.
import { assertAdmin, type Actor } from '../../actor.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { ConflictError, NotFoundError, ServiceUnavailableError, UpstreamError } from '../../errors.js';
import { type Clock, startOfZonedDay, withLocalOffset, zonedDay } from '../../platform/clock.js';
import { parseCachedImage } from '../../platform/outside-sources/image.js';
import { FetchFailure, type Freshness, type SourceSpec, type SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { Badge, KEY_SPORTS_KEY, KEY_TEAMS, MAX_TEAMS, StoredTeam, type Match, type SportsResponse, type SportsTodayResponse, type Team } from './schema.js';

export const FIXTURES_TTL_MS = 6 * 60 * 60_000;
export const MATCHDAY_TTL_MS = 15 * 60_000;
/** Today's matches while one of them is being played. */
export const LIVE_TTL_MS = 5 * 60_000;
/** A badge is fetched once and kept a month. */
export const BADGE_TTL_MS = 30 * 24 * 60 * 60_000;
export const MAX_BADGE_BYTES = 512 * 1024;
const FREE_KEY = '123';

type Raw = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const intOf = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) ? n : null;
};

function startOf(e: Raw): Date | null {
  const ts = str(e.strTimestamp) ?? (str(e.dateEvent) && str(e.strTime) ? `${e.dateEvent as string}T${e.strTime as string}` : null);
  if (!ts) return null;
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(ts) ? ts : `${ts}Z`);
  return Number.isFinite(t) ? new Date(t) : null;
}

/** Statuses of a match not being played: not started, finished, called off (TheSportsDB's words and codes). */
const NOT_LIVE = /^(not started|ns|tbd|time to be defined|match finished|finished|ft|aet|pen|aot|after over time|postponed|pst|cancelled|canceled|canc|abandoned|abd|awarded|awd|walkover|wo)$/i;

export function toMatch(e: Raw): Match | null {
  const id = str(e.idEvent);
  const home = str(e.strHomeTeam);
  const away = str(e.strAwayTeam);
  if (!id || !home || !away) return null;
  const at = startOf(e);
  return {
    id,
    name: str(e.strEvent) ?? `${home} vs ${away}`,
    league: str(e.strLeague),
    homeTeam: home,
    awayTeam: away,
    homeTeamId: str(e.idHomeTeam),
    awayTeamId: str(e.idAwayTeam),
    homeScore: intOf(e.intHomeScore),
    awayScore: intOf(e.intAwayScore),
    startsAt: at ? withLocalOffset(at) : null,
    status: str(e.strStatus),
    live: str(e.strStatus) !== null && !NOT_LIVE.test(str(e.strStatus)!.trim()),
    venue: str(e.strVenue),
  };
}

/** Hearth's own address of a followed team's badge. */
export const badgePath = (teamId: string) => `/api/sports/badges/${teamId}`;

function toTeam(t: Raw): StoredTeam | null {
  const id = str(t.idTeam);
  const name = str(t.strTeam);
  if (!id || !/^\d{1,10}$/.test(id) || !name) return null;
  const badge = str(t.strBadge);
  const source = badge && /^https?:\/\//.test(badge) ? badge : null;
  return { id, name, league: str(t.strLeague), sport: str(t.strSport) ?? 'Soccer', country: str(t.strCountry), badgeUrl: source ? badgePath(id) : null, badgeSource: source };
}

/** A kept team as answered: never the outside address. */
const publicTeam = ({ badgeSource: _source, ...team }: StoredTeam): Team => team;

/** A badge's bytes → what is cached (PNG, JPEG, GIF or WebP, at most MAX_BADGE_BYTES). */
export const parseBadge = (body: Buffer): Badge => parseCachedImage(body, MAX_BADGE_BYTES, 'a badge');

/** A JSON answer's list under `key` (null = nothing); throws when it is not TheSportsDB's JSON. */
function listOf(body: Buffer, key: string): Raw[] {
  const raw = JSON.parse(body.toString('utf8')) as Raw;
  if (!raw || typeof raw !== 'object' || !(key in raw)) throw new Error(`no ${key}`);
  const v = raw[key];
  return Array.isArray(v) ? (v as Raw[]) : [];
}

const matchesOf = (key: string) => (body: Buffer) =>
  listOf(body, key)
    .map(toMatch)
    .filter((m): m is Match => m !== null);

export interface SportsDeps {
  fetcher: SourceFetcher;
  settings: AppSettingsStore;
  clock: Clock;
  baseUrl: string;
  /** The household's time zone (its locale): "today" and each match's start are in it. */
  timeZone: () => Promise<string>;
}

/** A kept match with its start written in `timeZone` (the copy keeps the offset it was fetched with). */
const inZone = (timeZone: string) => (m: Match): Match => (m.startsAt ? { ...m, startsAt: withLocalOffset(new Date(m.startsAt), timeZone) } : m);

export class SportsService {
  constructor(private readonly deps: SportsDeps) {}

  private async key(): Promise<string> {
    const own = await this.deps.settings.get<string>(KEY_SPORTS_KEY);
    return typeof own === 'string' && own !== '' ? own : FREE_KEY;
  }

  private async url(call: string, params: Record<string, string>): Promise<string> {
    const u = new URL(`/api/v1/json/${encodeURIComponent(await this.key())}/${call}`, this.deps.baseUrl);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.href;
  }

  /** The followed teams as kept (a team kept before badges were served has its outside address in badgeUrl). */
  private async stored(): Promise<StoredTeam[]> {
    const raw = await this.deps.settings.get<unknown[]>(KEY_TEAMS);
    return (Array.isArray(raw) ? raw : []).flatMap((t) => {
      const got = StoredTeam.safeParse(t);
      if (!got.success) return [];
      const team = got.data;
      if (team.badgeSource === undefined) {
        const outside = team.badgeUrl && /^https?:\/\//.test(team.badgeUrl) ? team.badgeUrl : null;
        return [{ ...team, badgeSource: outside, badgeUrl: outside ? badgePath(team.id) : null }];
      }
      return [team];
    });
  }

  async teams(): Promise<Team[]> {
    return (await this.stored()).map(publicTeam);
  }

  private badgeSpec(team: StoredTeam & { badgeSource: string }): SourceSpec<Badge> {
    return { key: `sports:badge:${team.id}`, source: 'sports', url: team.badgeSource, ttlMs: BADGE_TTL_MS, accept: 'image/png,image/jpeg,image/webp,image/gif', parse: parseBadge };
  }

  /** A followed team's badge from Hearth's cache (fetched once from TheSportsDB's image host). */
  async badge(_actor: Actor, teamId: string): Promise<{ type: string; body: Buffer }> {
    const team = (await this.stored()).find((t) => t.id === teamId);
    if (!team) throw new NotFoundError('The household does not follow that team.');
    if (!team.badgeSource) throw new NotFoundError('That team has no badge.');
    const { payload } = await this.deps.fetcher.read(this.badgeSpec({ ...team, badgeSource: team.badgeSource }), 'The team’s badge could not be fetched yet.');
    const badge = Badge.parse(payload);
    return { type: badge.type, body: Buffer.from(badge.data, 'base64') };
  }

  private async ask(call: string, params: Record<string, string>, key: string): Promise<Raw[]> {
    let body: Buffer;
    try {
      body = (await this.deps.fetcher.fetchOnce(await this.url(call, params))).body;
    } catch (err) {
      const why = err instanceof FetchFailure ? err.message : 'It could not be reached.';
      throw new ServiceUnavailableError('source_unavailable', `TheSportsDB is not available right now: ${why}`);
    }
    try {
      return listOf(body, key);
    } catch {
      throw new UpstreamError('source_bad_response', 'TheSportsDB sent an answer Hearth cannot read. Try again later.');
    }
  }

  async search(actor: Actor, q: string): Promise<Team[]> {
    assertAdmin(actor);
    // not followed yet: no badge is fetched for them, so none is offered
    return (await this.ask('searchteams.php', { t: q }, 'teams'))
      .map(toTeam)
      .filter((t): t is StoredTeam => t !== null)
      .map((t) => ({ ...publicTeam(t), badgeUrl: null }));
  }

  async follow(actor: Actor, teamId: string): Promise<Team[]> {
    assertAdmin(actor);
    const teams = await this.stored();
    if (teams.some((t) => t.id === teamId)) throw new ConflictError('team_followed', 'The household already follows that team.');
    if (teams.length >= MAX_TEAMS) throw new ConflictError('too_many_teams', `The household follows at most ${MAX_TEAMS} teams.`);
    const [team] = (await this.ask('lookupteam.php', { id: teamId }, 'teams')).map(toTeam).filter((t): t is StoredTeam => t !== null);
    if (!team) throw new NotFoundError('TheSportsDB knows no team with that id.');
    const next = [...teams, team];
    await this.deps.settings.set(KEY_TEAMS, next);
    // the badge is fetched now, once, so the first screen showing it finds it cached
    if (team.badgeSource) void this.deps.fetcher.refresh(this.badgeSpec({ ...team, badgeSource: team.badgeSource })).catch(() => undefined);
    return next.map(publicTeam);
  }

  async unfollow(actor: Actor, teamId: string): Promise<Team[]> {
    assertAdmin(actor);
    const teams = await this.stored();
    if (!teams.some((t) => t.id === teamId)) throw new NotFoundError('The household does not follow that team.');
    const next = teams.filter((t) => t.id !== teamId);
    await this.deps.settings.set(KEY_TEAMS, next);
    await this.deps.fetcher.forget(`sports:badge:${teamId}`);
    return next.map(publicTeam);
  }

  /** The admin's own key ('' = back to the free key); never answered back. */
  async setKey(actor: Actor, key: string): Promise<{ ownKey: boolean }> {
    assertAdmin(actor);
    if (key === '') await this.deps.settings.delete(KEY_SPORTS_KEY);
    else await this.deps.settings.set(KEY_SPORTS_KEY, key);
    return { ownKey: key !== '' };
  }

  private async fixtures(team: Team, which: 'last' | 'next'): Promise<SourceSpec<Match[]>> {
    const call = which === 'last' ? 'eventslast.php' : 'eventsnext.php';
    return { key: `sports:${which}:${team.id}`, source: 'sports', url: await this.url(call, { id: team.id }), ttlMs: FIXTURES_TTL_MS, accept: 'application/json', parse: matchesOf(which === 'last' ? 'results' : 'events') };
  }

  async get(_actor: Actor): Promise<SportsResponse> {
    const teams = await this.teams();
    const zoned = inZone(await this.deps.timeZone());
    const out = await Promise.all(
      teams.map(async (team) => {
        try {
          const [last, next] = await Promise.all([this.deps.fetcher.read(await this.fixtures(team, 'last'), 'none'), this.deps.fetcher.read(await this.fixtures(team, 'next'), 'none')]);
          return { team, last: last.payload.map(zoned), next: next.payload.map(zoned), fetchedAt: last.freshness.fetchedAt, stale: last.freshness.stale || next.freshness.stale, error: null };
        } catch {
          return { team, last: [], next: [], fetchedAt: null, stale: true, error: `${team.name}’s results could not be fetched yet.` };
        }
      }),
    );
    return { teams: out, source: 'sports', credit: 'Data from TheSportsDB.com' };
  }

  /** Today's matches (the household's local day) of followed teams: the UTC days it spans, by sport, filtered. */
  async today(_actor: Actor): Promise<SportsTodayResponse> {
    return this.matchesOfToday((spec) => this.deps.fetcher.read(spec, 'none'));
  }

  /** Today's matches of followed teams from the cached copies only (the briefing; no outside request). */
  async cachedToday(): Promise<Match[]> {
    return (
      await this.matchesOfToday(async (spec) => {
        const hit = await this.deps.fetcher.peek<Match[]>(spec);
        if (!hit) throw new Error('no copy');
        return hit;
      })
    ).matches;
  }

  private async matchesOfToday(read: (spec: SourceSpec<Match[]>) => Promise<{ payload: Match[]; freshness: Freshness }>): Promise<SportsTodayResponse> {
    const timeZone = await this.deps.timeZone();
    const { date } = zonedDay(this.deps.clock.now(), timeZone);
    const start = startOfZonedDay(date, timeZone);
    const end = startOfZonedDay(new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10), timeZone);
    const teams = await this.teams();
    if (teams.length === 0) return { date, matches: [], stale: false, fetchedAt: null, error: null };
    const ids = new Set(teams.map((t) => t.id));
    const utcDays = [...new Set([start.toISOString().slice(0, 10), new Date(end.getTime() - 1).toISOString().slice(0, 10)])];
    const sports = [...new Set(teams.map((t) => t.sport))];
    const matches: Match[] = [];
    let stale = false;
    const fetched: string[] = [];
    let error: string | null = null;
    for (const d of utcDays) {
      for (const s of sports) {
        const spec: SourceSpec<Match[]> = { key: `sports:day:${d}:${s}`, source: 'sports', url: await this.url('eventsday.php', { d, s }), ttlMs: MATCHDAY_TTL_MS,
          // while a followed team's match is being played, its score is asked for more often
          ttlFor: (list) => (list.some((m) => m.live && ((m.homeTeamId && ids.has(m.homeTeamId)) || (m.awayTeamId && ids.has(m.awayTeamId)))) ? LIVE_TTL_MS : MATCHDAY_TTL_MS),
          accept: 'application/json',
          parse: matchesOf('events'),
        };
        try {
          const got = await read(spec);
          stale ||= got.freshness.stale;
          fetched.push(got.freshness.fetchedAt);
          matches.push(...got.payload);
        } catch {
          stale = true;
          error = 'Today’s matches could not be fetched.';
        }
      }
    }
    const inDay = matches.filter((m) => (m.homeTeamId && ids.has(m.homeTeamId)) || (m.awayTeamId && ids.has(m.awayTeamId))).filter((m) => {
      const t = m.startsAt ? Date.parse(m.startsAt) : NaN;
      return t >= start.getTime() && t < end.getTime();
    });
    const unique = [...new Map(inDay.map((m) => [m.id, inZone(timeZone)(m)])).values()].sort((a, b) => (a.startsAt ?? '').localeCompare(b.startsAt ?? ''));
    return { date, matches: unique, stale, fetchedAt: fetched.sort()[0] ?? null, error };
  }
}
