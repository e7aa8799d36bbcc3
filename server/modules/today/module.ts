// The Today module (issue 33): the household's weather, Wikipedia's "on this day" and the admin's
// briefing settings, every outside source fetched by the one TodayFetcher (SSRF guard, per-host
// cap, conditional GET, Retry-After, one cache row per source).
import { defineModule, type Platform } from '../module.js';
import { BriefingService } from './briefing-service.js';
import { TodayCacheStore } from './cache-store.js';
import { TodayFetcher } from './fetcher.js';
import { OnThisDayService } from './on-this-day-service.js';
import { createBriefingAdminRoutes, createOnThisDayRoutes, createWeatherRoutes } from './routes.js';
import { WeatherService, WEATHER_TTL_MS } from './weather-service.js';

export function createTodayModule(p: Platform) {
  const { config } = p;
  const store = new TodayCacheStore(p.db);
  const fetcher = new TodayFetcher({ guard: p.guard, store, clock: p.clock, logger: p.logger, offline: config.offline });
  const weather = new WeatherService({ fetcher, settings: p.settings, forecastUrl: config.openMeteoUrl, geocodeUrl: config.openMeteoGeoUrl });
  const onThisDay = new OnThisDayService({ fetcher, settings: p.settings, clock: p.clock, baseUrl: config.wikipediaUrl });
  const briefing = new BriefingService({ store, weather, onThisDay, offline: config.offline, forecastUrl: config.openMeteoUrl, wikipediaUrl: config.wikipediaUrl });
  return defineModule({
    name: 'today',
    routes: [
      { prefix: '/weather', routes: createWeatherRoutes(weather) },
      { prefix: '/on-this-day', routes: createOnThisDayRoutes(onThisDay) },
      { prefix: '/admin/briefing', routes: createBriefingAdminRoutes(briefing, weather) },
    ],
    services: { weather, onThisDay, briefing },
    // the forecast is fresh for 30 minutes; a refresh inside a Retry-After or backoff window does nothing
    tasks: config.offline ? [] : [{ name: 'today.weather', everyMs: WEATHER_TTL_MS, run: () => weather.refresh() }],
  });
}
