// "On this day" from Wikipedia's feed in the household language (reference/briefing.md §2):
// GET {base}/api/rest_v1/feed/onthisday/all/MM/DD, where the base is https://{lang}.wikipedia.org
// unless WIKIPEDIA_BASE replaces it. One cached copy per (language, day), kept for a day (Wikipedia
// renders a fresh ETag each time, so a conditional GET rarely helps here).
import { assertAdmin, type Actor } from '../../actor.js';
import type { AppSettingsStore } from '../../db/kv.js';
import type { Clock } from '../../platform/clock.js';
import type { FetchOutcome, Freshness, SourceSpec, TodayFetcher } from './fetcher.js';
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
  fetcher: TodayFetcher;
  settings: AppSettingsStore;
  clock: Clock;
  /** https://{lang}.wikipedia.org or WIKIPEDIA_BASE. */
  baseUrl: string;
}

export class OnThisDayService {
  constructor(private readonly deps: OnThisDayDeps) {}

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

  /** Today's MM-DD on the household's computer. */
  today(): string {
    const now = this.deps.clock.now();
    return `${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  }

  spec(lang: string, day: string): SourceSpec<OnThisDayDay> {
    const base = this.deps.baseUrl.replace('{lang}', lang).replace(/\/+$/, '');
    const [mm, dd] = day.split('-');
    return { key: `on-this-day:${lang}:${day}`, source: 'on-this-day', url: `${base}/api/rest_v1/feed/onthisday/all/${mm}/${dd}`, ttlMs: ON_THIS_DAY_TTL_MS, accept: 'application/json', parse: parseOnThisDay };
  }

  async get(_actor: Actor, day = this.today()): Promise<OnThisDayResponse> {
    const lang = await this.language();
    const { payload, freshness } = await this.deps.fetcher.read(this.spec(lang, day), 'This day’s events could not be fetched from Wikipedia and no earlier copy is kept.');
    return { date: day, language: lang, credit: 'From Wikipedia, the free encyclopedia (CC BY-SA 4.0)', ...OnThisDayDay.parse(payload), ...freshness };
  }

  /** Today's cached day only (no fetch). */
  async cached(): Promise<(OnThisDayDay & { freshness: Freshness }) | null> {
    const hit = await this.deps.fetcher.peek<OnThisDayDay>(this.spec(await this.language(), this.today()));
    return hit ? { ...OnThisDayDay.parse(hit.payload), freshness: hit.freshness } : null;
  }

  async refresh(opts: { force?: boolean } = {}): Promise<FetchOutcome> {
    return this.deps.fetcher.refresh(this.spec(await this.language(), this.today()), opts);
  }
}
