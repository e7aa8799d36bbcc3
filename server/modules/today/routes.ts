import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { BriefingService } from './briefing-service.js';
import type { OnThisDayService } from './on-this-day-service.js';
import {
  BriefingSettingsResponse,
  Location,
  LocationSearchQuery,
  LocationSearchResponse,
  OnThisDayQuery,
  OnThisDayResponse,
  RefreshBody,
  RefreshResponse,
  SetLocationBody,
  WeatherResponse,
} from './schema.js';
import type { WeatherService } from './weather-service.js';

export function createWeatherRoutes(weather: WeatherService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: WeatherResponse }, (req) => weather.get(actorOf(req)));
  });
}

export function createOnThisDayRoutes(onThisDay: OnThisDayService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: OnThisDayResponse }, (req) => onThisDay.get(actorOf(req), parse(OnThisDayQuery, req.query).date));
  });
}

export function createBriefingAdminRoutes(briefing: BriefingService, weather: WeatherService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: BriefingSettingsResponse }, (req) => briefing.settings(actorOf(req)));
    r.get('/location/search', { access: 'admin', response: LocationSearchResponse }, async (req) => ({
      results: await weather.search(actorOf(req), parse(LocationSearchQuery, req.query).q),
    }));
    r.put('/location', { access: 'admin', response: Location }, (req) => weather.setLocation(actorOf(req), parse(SetLocationBody, req.body)));
    r.post('/refresh', { access: 'admin', response: RefreshResponse }, (req) => briefing.refresh(actorOf(req), parse(RefreshBody, req.body).source));
  });
}
