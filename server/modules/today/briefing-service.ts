// The admin's view of Today (/api/admin/briefing): the place, the language, offline mode and each
// source's status (last fetch, last error, next poll, what leaves the house), and "refresh now".
import { assertAdmin, type Actor } from '../../actor.js';
import type { TodayCacheStore } from './cache-store.js';
import type { NewsService } from './news-service.js';
import type { OnThisDayService } from './on-this-day-service.js';
import type { BriefingSettingsResponse, RefreshResponse } from './schema.js';
import type { WeatherService } from './weather-service.js';

export interface BriefingDeps {
  store: TodayCacheStore;
  weather: WeatherService;
  onThisDay: OnThisDayService;
  offline: boolean;
  forecastUrl: string;
  wikipediaUrl: string;
  news: NewsService;
}

export class BriefingService {
  constructor(private readonly deps: BriefingDeps) {}

  private async status(source: string, host: string, sends: string): Promise<BriefingSettingsResponse['sources'][number]> {
    const rows = await this.deps.store.listBySource(source);
    const latest = rows.sort((a, b) => (b.lastTryAt ?? '').localeCompare(a.lastTryAt ?? ''))[0];
    return { source, host, sends, lastFetch: latest?.fetchedAt ?? null, lastError: latest?.lastError ?? null, nextPoll: latest?.nextTryAt ?? latest?.expiresAt ?? null };
  }

  async settings(actor: Actor): Promise<BriefingSettingsResponse> {
    assertAdmin(actor);
    const { weather, onThisDay } = this.deps;
    const lang = await onThisDay.language();
    return {
      location: await weather.location(),
      language: lang,
      offline: this.deps.offline,
      sources: [
        await this.status('weather', new URL(this.deps.forecastUrl).host, 'The household’s coordinates rounded to about 1 km, every 30 minutes.'),
        await this.status('on-this-day', new URL(this.deps.wikipediaUrl.replace('{lang}', lang)).host, 'The month, day and language, once a day.'),
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
}
