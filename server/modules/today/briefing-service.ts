// The admin's view of Today (/api/admin/briefing): the place, the language, offline mode and each
// source's status (last fetch, last error, next poll, what leaves the house), and "refresh now".
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import { type Clock, zonedDay } from '../../platform/clock.js';
import type { SourceCacheStore } from '../../platform/outside-sources/cache-store.js';
import type { NewsService } from './news-service.js';
import type { OnThisDayService } from './on-this-day-service.js';
import type { BriefingSummaries } from './briefing-summary.js';
import type { AppSettingsStore } from '../../db/kv.js';
import type { TodayPorts } from './ports.js';
import { ALL_SECTIONS_ON, KEY_SECTIONS, Sections, type BriefingResponse, type BriefingSettingsResponse, type RefreshResponse } from './schema.js';
import type { SportsService } from './sports-service.js';
import type { WeatherService } from './weather-service.js';

export interface BriefingDeps {
  store: SourceCacheStore;
  weather: WeatherService;
  onThisDay: OnThisDayService;
  /** Offline mode, read at each call (platform/offline-switch.ts). */
  offline: { isOn(): boolean };
  clock: Clock;
  wikipediaUrl: string;
  news: NewsService;
  sports: SportsService;
  summaries: BriefingSummaries;
  settings: AppSettingsStore;
  /** The household's locale and each member's override: the briefing's day, units and language. */
  locale: TodayPorts['locale'];
}

/** The admin's section switches (every section on until an admin switches one off). */
export async function readSections(settings: AppSettingsStore): Promise<Sections> {
  const parsed = Sections.partial().safeParse(await settings.get(KEY_SECTIONS));
  return { ...ALL_SECTIONS_ON, ...(parsed.success ? parsed.data : {}) };
}

export class BriefingService {
  constructor(private readonly deps: BriefingDeps) {}

  private async status(source: string, host: string, sends: string): Promise<BriefingSettingsResponse['sources'][number]> {
    const rows = await this.deps.store.listBySource(source);
    const latest = rows.sort((a, b) => (b.lastTryAt ?? '').localeCompare(a.lastTryAt ?? ''))[0];
    return { source, host, sends, lastFetch: latest?.fetchedAt ?? null, lastError: latest?.lastError ?? null, nextPoll: latest?.nextTryAt ?? latest?.expiresAt ?? null };
  }

  /** Which sections are on: any member (the widgets follow them). */
  sections(): Promise<Sections> {
    return readSections(this.deps.settings);
  }

  async setSections(actor: Actor, patch: Partial<Sections>): Promise<Sections> {
    assertAdmin(actor);
    const next = { ...(await this.sections()), ...patch };
    await this.deps.settings.set(KEY_SECTIONS, next);
    return next;
  }

  async settings(actor: Actor): Promise<BriefingSettingsResponse> {
    assertAdmin(actor);
    const { weather, onThisDay } = this.deps;
    const lang = await onThisDay.language();
    return {
      location: await weather.location(),
      language: lang,
      units: (await this.deps.locale.household()).units,
      weatherSource: await weather.source(),
      sections: await this.sections(),
      offline: this.deps.offline.isOn(),
      sources: [
        await this.status('weather', await weather.host(), 'The household’s coordinates rounded to about 1 km, every 30 minutes.'),
        await this.status('on-this-day', new URL(this.deps.wikipediaUrl.replace('{lang}', lang)).host, 'The month, day and language, once a day.'),
        await this.status('sports', 'www.thesportsdb.com', 'The ids of the teams the household follows and today’s date, every 15 minutes to 6 hours.'),
        await this.status('news', 'each feed’s own site', 'Hearth’s address and each feed’s address, about once an hour per feed.'),
      ],
    };
  }

  async refresh(actor: Actor, source: 'weather' | 'on-this-day' | 'news'): Promise<RefreshResponse> {
    assertAdmin(actor);
    if (source === 'news') return this.deps.news.refreshAll(actor);
    const outcome = source === 'weather' ? await this.deps.weather.refresh({ force: true }) : await this.deps.onThisDay.refresh({ force: true });
    if (!outcome) return { source, outcome: 'nothing_to_do', lastError: null };
    return { source, outcome: outcome.kind, lastError: outcome.entry?.lastError ?? null };
  }

  /**
   * The caller's morning briefing, from what Hearth already has (no outside request is made): the
   * cached forecast, the top headlines of their feeds, a few events of this day, today's matches of
   * the followed teams, plain sentences built from those facts only, and (when chat is ready) the
   * chat model's 3-sentence summary of those facts, kept for the morning.
   */
  async compose(actor: UserActor): Promise<BriefingResponse> {
    const on = await this.sections();
    // a section switched off is not read at all
    const mine = await this.deps.locale.effective(actor);
    const [w, otd, news, loc, matches] = await Promise.all([
      on.weather ? this.deps.weather.cached(mine.units) : null,
      on.onThisDay ? this.deps.onThisDay.cached() : null,
      on.news ? this.deps.news.list(actor, { limit: 5 }) : { items: [] },
      this.deps.weather.location(),
      on.sports ? this.deps.sports.cachedToday().catch(() => []) : [],
    ]);
    const today = w?.daily[0];
    const weather = w
      ? { location: w.location.name, temperature: w.current.temperature, description: w.current.description, min: today?.min ?? null, max: today?.max ?? null, rainChance: today?.precipitationProbability ?? null, ...w.freshness }
      : null;
    const events = otd ? [...otd.selected, ...otd.events].slice(0, 3) : [];
    const sentences: string[] = [];
    if (weather && w) {
      // the member's units, as the forecast was asked in them (°C or °F)
      const deg = w.units.temperature;
      const range = weather.min !== null && weather.max !== null ? `, between ${Math.round(weather.min)} and ${Math.round(weather.max)} ${deg} today` : '';
      const rain = weather.rainChance ? ` with a ${weather.rainChance}% chance of rain` : '';
      sentences.push(`In ${weather.location} it is ${weather.description.toLowerCase()}${weather.temperature !== null ? ` and ${Math.round(weather.temperature)} ${deg}` : ''}${range}${rain}.`);
    }
    if (news.items.length) sentences.push(`The top headline is “${news.items[0]!.title}” from ${news.items[0]!.feedTitle}.`);
    const first = events.find((e) => e.year !== null);
    if (first) sentences.push(`On this day in ${first.year! < 0 ? `${-first.year!} BC` : first.year}: ${first.text}`);
    const matchLines = matches.slice(0, 3).map((m) =>
      m.homeScore !== null && m.awayScore !== null
        ? `${m.homeTeam} ${m.homeScore}, ${m.awayTeam} ${m.awayScore}${m.live ? ' (being played now)' : ''}.`
        : `${m.homeTeam} play ${m.awayTeam}${m.startsAt ? ` at ${m.startsAt.slice(11, 16)}` : ''} today.`,
    );
    // the model is given these facts and nothing else
    const facts = [...sentences, ...news.items.slice(1, 3).map((i) => `Another headline: “${i.title}” from ${i.feedTitle}.`), ...matchLines];
    const date = await this.deps.onThisDay.today();
    const day = zonedDay(this.deps.clock.now(), mine.timeZone).date;
    const { summary, note } = await this.deps.summaries.get(actor.id, day, facts, { language: mine.language, units: mine.units });
    return {
      date,
      weather,
      weatherNote: weather ? null : !on.weather ? 'An admin switched the weather off.' : loc ? 'The forecast has not been fetched yet.' : 'The household’s place for the weather is not set yet.',
      sections: on,
      headlines: news.items,
      onThisDay: events,
      onThisDayFreshness: otd?.freshness ?? null,
      sentences: [...sentences, ...matchLines],
      matches,
      summary,
      summaryNote: note,
    };
  }
}
