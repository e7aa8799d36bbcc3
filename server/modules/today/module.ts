// The Today module (issue 33): the household's weather, Wikipedia's "on this day", news feeds and
// the admin's briefing settings, every outside source fetched by one SourceFetcher (SSRF guard, per-host
// cap, conditional GET, Retry-After, one row per source in today_cache).
import { SourceCacheStore } from '../../platform/outside-sources/cache-store.js';
import { outboundSourcesOf, SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { ParseWorker } from '../../platform/workers/parse-worker.js';
import { defineModule, type Platform } from '../module.js';
import { BriefingService } from './briefing-service.js';
import { BriefingSummaries } from './briefing-summary.js';
import { BriefingSummaryStore } from './briefing-summary-store.js';
import { createNewsTool, createWeatherTool } from './chat-tool.js';
import { todayToolChecks, todayTools } from './extensions.js';
import { FEED_TASKS_MODULE, FeedTasks } from './feed-tasks.js';
import { OnThisDayService, PREFETCH_CHECK_MS } from './on-this-day-service.js';
import type { TodayPorts } from './ports.js';
import { NewsService, NEWS_POLL_MS } from './news-service.js';
import { NewsStore } from './news-store.js';
import { whenOnline } from '../../platform/offline-switch.js';
import { createBriefingAdminRoutes, createBriefingRoutes, createSportsRoutes, createTeamAdminRoutes, createNewsAdminRoutes, createNewsRoutes, createOnThisDayRoutes, createWeatherRoutes } from './routes.js';
import { SportsService } from './sports-service.js';
import { WeatherService, WEATHER_TTL_MS } from './weather-service.js';

export const TODAY_USER_AGENT = 'Hearth/0.1 (self-hosted household server; Today briefing; one request per source per refresh)';

export function createTodayModule(p: Platform, ports: TodayPorts) {
  const { config } = p;
  const store = new SourceCacheStore(p.db, 'today_cache');
  const fetcher = new SourceFetcher({ guard: p.guard, store, clock: p.clock, logger: p.logger, timeoutMs: p.tuning.todayFetchTimeoutMs, userAgent: TODAY_USER_AGENT, label: 'Today' });
  const { locale } = ports;
  const timeZone = () => locale.timeZone();
  const weather = new WeatherService({ fetcher, settings: p.settings, forecastUrl: config.openMeteoUrl, geocodeUrl: config.openMeteoGeoUrl, metUrl: config.metUrl, locale });
  const onThisDay = new OnThisDayService({ fetcher, settings: p.settings, clock: p.clock, timeZone, baseUrl: config.wikipediaUrl, wikipedia: ports.wikipedia });
  const feeds = new FeedTasks(new ParseWorker({ handlers: FEED_TASKS_MODULE, taskTimeoutMs: 30_000, logger: p.logger }));
  const sports = new SportsService({ fetcher, settings: p.settings, clock: p.clock, baseUrl: config.sportsDbUrl, timeZone });
  const news = new NewsService({ store: new NewsStore(p.db), fetcher, feeds, clock: p.clock, logger: p.logger });
  const summaries = new BriefingSummaries({
    store: new BriefingSummaryStore(p.db),
    runtime: p.modelRuntime,
    chatModel: ports.chatModel,
    chatReadiness: ports.chatReadiness,
    clock: p.clock,
    logger: p.logger,
    timeoutMs: p.tuning.briefingSummaryMs,
  });
  const briefing = new BriefingService({ store, weather, onThisDay, news, sports, summaries, settings: p.settings, offline: p.offline, clock: p.clock, wikipediaUrl: config.wikipediaUrl, locale });
  return defineModule({
    name: 'today',
    routes: [
      { prefix: '/weather', routes: createWeatherRoutes(weather) },
      { prefix: '/on-this-day', routes: createOnThisDayRoutes(onThisDay) },
      { prefix: '/admin/briefing', routes: createBriefingAdminRoutes(briefing, weather, onThisDay) },
      { prefix: '/admin/briefing', routes: createTeamAdminRoutes(sports) },
      { prefix: '/sports', routes: createSportsRoutes(sports) },
      { prefix: '/news', routes: createNewsRoutes(news) },
      { prefix: '/briefing', routes: createBriefingRoutes(briefing) },
      { prefix: '/admin/news', routes: createNewsAdminRoutes(news) },
    ],
    services: { weather, onThisDay, briefing, news, sports },
    outboundSources: outboundSourcesOf(fetcher, { weather: 'Weather (Today)', 'on-this-day': 'On this day (Today)', news: 'News feeds (Today)', sports: 'Sports (Today)' }),
    chatTools: [createWeatherTool({ weather }), createNewsTool({ news })],
    extensions: { definitions: todayTools, checks: todayToolChecks({ weather, news, chatReadiness: ports.chatReadiness }) },
    // the forecast is fresh for 30 minutes; a refresh inside a Retry-After or backoff window does nothing
    // feeds are polled when their copy expires (hourly plus up to 10 minutes of jitter); the task looks every 5 minutes
    // each run does nothing while offline mode is on (read at each run: an admin may switch it)
    tasks: [
      // a section an admin switched off is not refreshed
      { name: 'today.weather', everyMs: WEATHER_TTL_MS, run: whenOnline(p.offline, async () => void ((await briefing.sections()).weather && (await weather.refresh()))) },
      { name: 'today.news', everyMs: Math.min(NEWS_POLL_MS, 5 * 60_000), run: whenOnline(p.offline, async () => void ((await briefing.sections()).news && (await news.pollDue()))) },
      // tomorrow's "on this day", fetched once from 23:00
      { name: 'today.on-this-day-tomorrow', everyMs: PREFETCH_CHECK_MS, run: whenOnline(p.offline, async () => void ((await briefing.sections()).onThisDay && (await onThisDay.prefetchTomorrow()))) },
    ],
    close: () => news.close(),
  });
}
