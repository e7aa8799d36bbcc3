import { BadRequestError } from '../../errors.js';
import { actorOf } from '../../http/auth.js';
import { readRawBody } from '../../http/body.js';
import { bytes, defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { BriefingService } from './briefing-service.js';
import type { OnThisDayService } from './on-this-day-service.js';
import type { NewsService } from './news-service.js';
import {
  AddFeedBody,
  BriefingResponse,
  BriefingSettingsResponse,
  FeedParams,
  HiddenBody,
  HiddenResponse,
  MAX_OPML_BYTES,
  NewsFeed,
  NewsFeedsResponse,
  NewsQuery,
  NewsResponse,
  OpmlImportResponse,
  LanguageResponse,
  Location,
  LocationSearchQuery,
  LocationSearchResponse,
  OnThisDayQuery,
  OnThisDayResponse,
  RefreshBody,
  Sections,
  SetSectionsBody,
  SetUnitsBody,
  SetWeatherSourceBody,
  WeatherSourceResponse,
  UnitsResponse,
  RefreshResponse,
  SetLanguageBody,
  SetLocationBody,
  SportsKeyBody,
  SportsKeyResponse,
  SportsResponse,
  SportsTodayResponse,
  TeamParams,
  TeamSearchQuery,
  TeamSearchResponse,
  TeamsResponse,
  FollowTeamBody,
  WeatherResponse,
} from './schema.js';
import type { SportsService } from './sports-service.js';
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

export function createBriefingAdminRoutes(briefing: BriefingService, weather: WeatherService, onThisDay: OnThisDayService) {
  return defineRoutes((r) => {
    r.put('/language', { access: 'admin', response: LanguageResponse }, (req) => onThisDay.setLanguage(actorOf(req), parse(SetLanguageBody, req.body).language));
    r.get('/', { access: 'admin', response: BriefingSettingsResponse }, (req) => briefing.settings(actorOf(req)));
    r.get('/location/search', { access: 'admin', response: LocationSearchResponse }, async (req) => ({
      results: await weather.search(actorOf(req), parse(LocationSearchQuery, req.query).q),
    }));
    r.put('/location', { access: 'admin', response: Location }, (req) => weather.setLocation(actorOf(req), parse(SetLocationBody, req.body)));
    r.put('/weather-source', { access: 'admin', response: WeatherSourceResponse }, (req) => weather.setSource(actorOf(req), parse(SetWeatherSourceBody, req.body).source));
    r.put('/units', { access: 'admin', response: UnitsResponse }, (req) => weather.setUnits(actorOf(req), parse(SetUnitsBody, req.body).units));
    r.put('/sections', { access: 'admin', response: Sections }, (req) => briefing.setSections(actorOf(req), parse(SetSectionsBody, req.body)));
    r.post('/refresh', { access: 'admin', response: RefreshResponse }, (req) => briefing.refresh(actorOf(req), parse(RefreshBody, req.body).source));
  });
}

export function createNewsRoutes(news: NewsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: NewsResponse }, (req) => news.list(actorOf(req), parse(NewsQuery, req.query)));
    r.put('/feeds/:id/hidden', { access: 'user', response: HiddenResponse }, (req) =>
      news.setHidden(actorOf(req), parse(FeedParams, req.params).id, parse(HiddenBody, req.body).hidden),
    );
  });
}

export function createNewsAdminRoutes(news: NewsService) {
  return defineRoutes((r) => {
    r.get('/feeds', { access: 'admin', response: NewsFeedsResponse }, async (req) => ({ feeds: await news.listFeeds(actorOf(req)) }));
    r.post('/feeds', { access: 'admin', response: NewsFeed }, (req) => news.addFeed(actorOf(req), parse(AddFeedBody, req.body).url));
    // the OPML file is the body (XML, not JSON)
    r.post('/opml', { access: 'admin', response: OpmlImportResponse, jsonLimit: false }, async (req) => {
      const type = req.get('content-type') ?? '';
      if (!/^(text\/(xml|x-opml|plain)|application\/(xml|octet-stream)|text\/x-opml\+xml)/i.test(type)) {
        req.resume();
        throw new BadRequestError('Send the OPML file as the body (Content-Type text/xml).');
      }
      const body = await readRawBody(req, MAX_OPML_BYTES, `That file is larger than ${MAX_OPML_BYTES / 1024 / 1024} MB.`);
      return news.importOpml(actorOf(req), body);
    });
    r.delete('/feeds/:id', { access: 'admin', response: NO_CONTENT }, (req) => news.removeFeed(actorOf(req), parse(FeedParams, req.params).id));
    r.post('/feeds/:id/refresh', { access: 'admin', response: NewsFeed }, (req) => news.refreshFeed(actorOf(req), parse(FeedParams, req.params).id));
  });
}

export function createBriefingRoutes(briefing: BriefingService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: BriefingResponse }, (req) => briefing.compose(actorOf(req)));
    // which sections are on, for the widgets (cheap: no facts, no summary)
    r.get('/sections', { access: 'user', response: Sections }, () => briefing.sections());
  });
}

export function createSportsRoutes(sports: SportsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: SportsResponse }, (req) => sports.get(actorOf(req)));
    r.get('/today', { access: 'user', response: SportsTodayResponse }, (req) => sports.today(actorOf(req)));
    // a followed team's badge from Hearth's cache (the web app never calls TheSportsDB's image host)
    r.get('/badges/:teamId', { access: 'user', response: bytes('the badge image (PNG, JPEG, GIF or WebP); 404 JSON for a team not followed or without one, 503 when it could not be fetched yet') }, async (req, res) => {
      const badge = await sports.badge(actorOf(req), parse(TeamParams, req.params).teamId);
      res.set({ 'Content-Type': badge.type, 'Cache-Control': 'private, max-age=86400', 'X-Content-Type-Options': 'nosniff' }).send(badge.body);
    });
  });
}

/** The admin's followed teams and TheSportsDB key, under /api/admin/briefing. */
export function createTeamAdminRoutes(sports: SportsService) {
  return defineRoutes((r) => {
    r.get('/teams', { access: 'admin', response: TeamsResponse }, async () => ({ teams: await sports.teams() }));
    r.get('/teams/search', { access: 'admin', response: TeamSearchResponse }, async (req) => ({ results: await sports.search(actorOf(req), parse(TeamSearchQuery, req.query).q) }));
    r.post('/teams', { access: 'admin', response: TeamsResponse }, async (req) => ({ teams: await sports.follow(actorOf(req), parse(FollowTeamBody, req.body).teamId) }));
    r.delete('/teams/:teamId', { access: 'admin', response: TeamsResponse }, async (req) => ({ teams: await sports.unfollow(actorOf(req), parse(TeamParams, req.params).teamId) }));
    r.put('/sports-key', { access: 'admin', response: SportsKeyResponse }, (req) => sports.setKey(actorOf(req), parse(SportsKeyBody, req.body).key));
  });
}
