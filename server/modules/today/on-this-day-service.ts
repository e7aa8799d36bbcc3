// "On this day" from Wikipedia's feed in the household language (reference/briefing.md §2):
// GET {base}/api/rest_v1/feed/onthisday/all/MM/DD, where the base is https://{lang}.wikipedia.org
// unless WIKIPEDIA_BASE replaces it. One cached copy per (language, day), kept for a day (Wikipedia
// renders a fresh ETag each time, so a conditional GET rarely helps here). With no copy to serve
// (offline, OFFLINE_MODE, Wikipedia unreachable) the day is read from the household's installed
// Wikipedia archive instead (on-this-day-archive.ts), its links opening the archive viewer.
import { assertAdmin, type Actor } from '../../actor.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { type Clock, zonedDay } from '../../platform/clock.js';
import { SourceUnavailableError, type FetchOutcome, type Freshness, type SourceSpec, type SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { dayArticleTitle, parseDayArticle } from './on-this-day-archive.js';
import type { LocalWikipedia } from './ports.js';
import { KEY_LANGUAGE, ON_THIS_DAY_LANGUAGES, OnThisDayDay, type OnThisDayItem, type OnThisDayResponse } from './schema.js';

export const ON_THIS_DAY_TTL_MS = 24 * 60 * 60_000;
const MAX_ITEMS = 40;
const MAX_PAGES = 3;
const KINDS = ['selected', 'events', 'births', 'deaths', 'holidays'] as const;

type RawPage = { title?: unknown; titles?: { normalized?: unknown }; content_urls?: { desktop?: { page?: unknown } } };
type RawItem = { text?: unknown; year?: unknown; pages?: unknown };

function toItem(raw: RawItem): OnThisDayItem | null {
  if (typeof raw.text !== 'string' || raw.text.trim() === '') return null;
  const pages = (Array.isArray(raw.pages) ? (raw.pages as RawPage[]) : []).flatMap((p) => {
    const url = p.content_urls?.desktop?.page;
    const title = typeof p.titles?.normalized === 'string' ? p.titles.normalized : typeof p.title === 'string' ? p.title.replace(/_/g, ' ') : null;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url) || !title) return [];
    return [{ title, url }];
  });
  return { year: typeof raw.year === 'number' && Number.isInteger(raw.year) ? raw.year : null, text: raw.text.trim(), pages: pages.slice(0, MAX_PAGES) };
}

/** The feed's answer → the lists Hearth keeps (at most 40 items each). Throws when it is not the feed. */
export function parseOnThisDay(body: Buffer): OnThisDayDay {
  const raw = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  if (!raw || typeof raw !== 'object' || !KINDS.some((k) => Array.isArray(raw[k]))) throw new Error('not an on-this-day feed');
  const list = (k: (typeof KINDS)[number]) =>
    (Array.isArray(raw[k]) ? (raw[k] as RawItem[]) : [])
      .map(toItem)
      .filter((i): i is OnThisDayItem => i !== null)
      .slice(0, MAX_ITEMS);
  return OnThisDayDay.parse({ selected: list('selected'), events: list('events'), births: list('births'), deaths: list('deaths'), holidays: list('holidays') });
}

export interface OnThisDayDeps {
  fetcher: SourceFetcher;
  settings: AppSettingsStore;
  clock: Clock;
  /** The household's time zone (its locale): "today" is the household's day. */
  timeZone: () => Promise<string>;
  /** https://{lang}.wikipedia.org or WIKIPEDIA_BASE. */
  baseUrl: string;
  /** The installed Wikipedia archive, read when there is no copy from the feed. */
  wikipedia: LocalWikipedia;
}

/** The hour (household time) from which tomorrow's day is fetched ahead. */
export const PREFETCH_HOUR = 23;
export const PREFETCH_CHECK_MS = 15 * 60_000;
/** MM-DD of a YYYY-MM-DD date. */
const mmdd = (date: string) => date.slice(5, 10);

export const ARCHIVE_CREDIT = 'From the household’s offline Wikipedia archive (CC BY-SA 4.0)';
/** A day read from the archive is kept this long in memory (the archive changes only when an admin replaces it). */
const ARCHIVE_DAY_TTL_MS = 60 * 60_000;

export class OnThisDayService {
  private readonly archiveDays = new Map<string, { at: number; day: OnThisDayDay }>();

  constructor(private readonly deps: OnThisDayDeps) {}

  /** The day from the installed Wikipedia archive (English day articles), or null when it cannot be read. */
  async fromArchive(day: string): Promise<{ day: OnThisDayDay; freshness: Freshness } | null> {
    const now = this.deps.clock.now().getTime();
    const kept = this.archiveDays.get(day);
    let parsed = kept && now - kept.at < ARCHIVE_DAY_TTL_MS ? kept.day : null;
    if (!parsed) {
      const article = await this.deps.wikipedia.article(dayArticleTitle(day)).catch(() => null);
      if (!article) return null;
      parsed = parseDayArticle(article.html, article.path, (p) => this.deps.wikipedia.viewerUrl(p));
      if (!parsed.events.length && !parsed.births.length && !parsed.deaths.length && !parsed.holidays.length) return null;
      this.archiveDays.set(day, { at: now, day: parsed });
    }
    const at = new Date(this.archiveDays.get(day)!.at).toISOString();
    return { day: parsed, freshness: { source: 'on-this-day', fetchedAt: at, ageSeconds: Math.max(0, Math.floor((now - Date.parse(at)) / 1000)), stale: false, lastError: null } };
  }

  async language(): Promise<string> {
    const lang = await this.deps.settings.get<string>(KEY_LANGUAGE);
    return typeof lang === 'string' && (ON_THIS_DAY_LANGUAGES as readonly string[]).includes(lang) ? lang : 'en';
  }

  /** The admin sets the household language of "on this day". */
  async setLanguage(actor: Actor, language: string): Promise<{ language: string }> {
    assertAdmin(actor);
    await this.deps.settings.set(KEY_LANGUAGE, language);
    return { language };
  }

  /** Today's MM-DD in the household's time zone. */
  async today(): Promise<string> {
    return mmdd(zonedDay(this.deps.clock.now(), await this.deps.timeZone()).date);
  }

  /**
   * From 23:00 on the household's computer, tomorrow's day is fetched once ahead (so the morning's
   * briefing has it even if the internet is gone by then). Nothing before 23:00, nothing when
   * tomorrow is already kept; the task looks every 15 minutes.
   */
  async prefetchTomorrow(): Promise<FetchOutcome | null> {
    const now = this.deps.clock.now();
    const { date, hour } = zonedDay(now, await this.deps.timeZone());
    if (hour < PREFETCH_HOUR) return null;
    const tomorrow = new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const spec = this.spec(await this.language(), mmdd(tomorrow));
    if (await this.deps.fetcher.peek(spec)) return null;
    return this.deps.fetcher.refresh(spec);
  }

  spec(lang: string, day: string): SourceSpec<OnThisDayDay> {
    const base = this.deps.baseUrl.replace('{lang}', lang).replace(/\/+$/, '');
    const [mm, dd] = day.split('-');
    return { key: `on-this-day:${lang}:${day}`, source: 'on-this-day', url: `${base}/api/rest_v1/feed/onthisday/all/${mm}/${dd}`, ttlMs: ON_THIS_DAY_TTL_MS, accept: 'application/json', parse: parseOnThisDay };
  }

  async get(_actor: Actor, day?: string): Promise<OnThisDayResponse> {
    day ??= await this.today();
    const lang = await this.language();
    try {
      const { payload, freshness } = await this.deps.fetcher.read(this.spec(lang, day), 'This day’s events could not be fetched from Wikipedia and no earlier copy is kept.');
      return { date: day, language: lang, origin: 'wikipedia', credit: 'From Wikipedia, the free encyclopedia (CC BY-SA 4.0)', ...OnThisDayDay.parse(payload), ...freshness };
    } catch (err) {
      if (!(err instanceof SourceUnavailableError)) throw err;
      const local = await this.fromArchive(day);
      if (!local) throw err;
      return { date: day, language: 'en', origin: 'archive', credit: ARCHIVE_CREDIT, ...local.day, ...local.freshness };
    }
  }

  /** Today's day from what Hearth has (no outside request): the cached feed copy, else the installed archive. */
  async cached(): Promise<(OnThisDayDay & { freshness: Freshness }) | null> {
    const hit = await this.deps.fetcher.peek<OnThisDayDay>(this.spec(await this.language(), await this.today()));
    if (hit) return { ...OnThisDayDay.parse(hit.payload), freshness: hit.freshness };
    const local = await this.fromArchive(await this.today());
    return local ? { ...local.day, freshness: local.freshness } : null;
  }

  async refresh(opts: { force?: boolean } = {}): Promise<FetchOutcome> {
    return this.deps.fetcher.refresh(this.spec(await this.language(), await this.today()), opts);
  }
}
