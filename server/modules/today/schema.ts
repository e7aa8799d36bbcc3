// Today (issue 33): the household's weather, Wikipedia's "on this day" and the admin's briefing
// settings. Every answer built from an outside source carries its freshness: {source, fetchedAt,
// ageSeconds, stale, lastError}.
import { z } from 'zod';

export const KEY_LOCATION = 'today.location';
export const KEY_LANGUAGE = 'today.language';
export const KEY_SECTIONS = 'today.sections';
export const KEY_WEATHER_SOURCE = 'today.weatherSource';

/** Open-Meteo by default; MET Norway as the admin's alternative (no geocoder: the town search stays Open-Meteo's). */
export const WEATHER_SOURCES = ['open-meteo', 'met-norway'] as const;
export type WeatherSource = (typeof WEATHER_SOURCES)[number];
export const SetWeatherSourceBody = z.strictObject({ source: z.enum(WEATHER_SOURCES, { error: 'source is open-meteo or met-norway.' }) });
export const WeatherSourceResponse = z.object({ source: z.enum(WEATHER_SOURCES) });

/** °C, km/h (metric) or °F, mph (imperial): asked of the weather source, shown as it answers. */
export const UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];
export const SetUnitsBody = z.strictObject({ units: z.enum(UNIT_SYSTEMS, { error: 'units is metric (°C, km/h) or imperial (°F, mph).' }) });
export const UnitsResponse = z.object({ units: z.enum(UNIT_SYSTEMS) });

/** Which parts of Today are on (the admin's switches): the briefing, the widgets and the background refreshes follow them. */
export const Sections = z.object({ weather: z.boolean(), news: z.boolean(), onThisDay: z.boolean(), sports: z.boolean() });
export type Sections = z.infer<typeof Sections>;
export const ALL_SECTIONS_ON: Sections = { weather: true, news: true, onThisDay: true, sports: true };
export const SetSectionsBody = z
  .strictObject({
    weather: z.boolean({ error: 'weather is true or false.' }).optional(),
    news: z.boolean({ error: 'news is true or false.' }).optional(),
    onThisDay: z.boolean({ error: 'onThisDay is true or false.' }).optional(),
    sports: z.boolean({ error: 'sports is true or false.' }).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Name at least one section: weather, news, onThisDay or sports.');

/** Wikipedia's "on this day" feed exists in these languages only (reference/briefing.md §2). */
export const ON_THIS_DAY_LANGUAGES = ['en', 'de', 'fr', 'sv', 'pt', 'ru', 'es', 'ar', 'bs', 'uk', 'it', 'tr', 'zh', 'cs'] as const;

export const Freshness = z.object({
  source: z.string(),
  fetchedAt: z.string(),
  ageSeconds: z.number().int().min(0),
  stale: z.boolean(),
  lastError: z.string().nullable(),
});
export type Freshness = z.infer<typeof Freshness>;

/** Coordinates leave the house rounded to 2 decimals (about 1 km). */
export const round2 = (n: number) => Math.round(n * 100) / 100;

export const Location = z.object({
  name: z.string().trim().min(1, 'Name the place.').max(120, 'A place name is at most 120 characters.'),
  lat: z.number({ error: 'lat is a number.' }).min(-90, 'lat is between -90 and 90.').max(90, 'lat is between -90 and 90.'),
  lon: z.number({ error: 'lon is a number.' }).min(-180, 'lon is between -180 and 180.').max(180, 'lon is between -180 and 180.'),
});
export type Location = z.infer<typeof Location>;
export const SetLocationBody = Location.strict();

export const LocationSearchQuery = z.object({
  q: z.string({ error: 'Type a town to search for.' }).trim().min(2, 'Type at least 2 letters of the town.').max(100, 'A search is at most 100 characters.'),
});

export const PlaceResult = z.object({
  name: z.string(),
  region: z.string().nullable(),
  country: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  timezone: z.string().nullable(),
});
export type PlaceResult = z.infer<typeof PlaceResult>;
export const LocationSearchResponse = z.object({ results: z.array(PlaceResult) });
export type LocationSearchResponse = z.infer<typeof LocationSearchResponse>;

export const HourForecast = z.object({ time: z.string(), temperature: z.number().nullable(), weatherCode: z.number().int().nullable(), precipitationProbability: z.number().nullable() });
export const DayForecast = z.object({
  date: z.string(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  weatherCode: z.number().int().nullable(),
  description: z.string(),
  precipitationProbability: z.number().nullable(),
  sunrise: z.string().nullable(),
  sunset: z.string().nullable(),
});
export const CurrentWeather = z.object({
  time: z.string(),
  temperature: z.number().nullable(),
  apparentTemperature: z.number().nullable(),
  weatherCode: z.number().int().nullable(),
  description: z.string(),
  windSpeed: z.number().nullable(),
  humidity: z.number().nullable(),
  isDay: z.boolean(),
});
export const Units = z.object({ temperature: z.string(), windSpeed: z.string() });

/** The forecast as cached (no location or freshness: those are added per answer). */
export const Forecast = z.object({
  timezone: z.string().nullable(),
  units: Units,
  current: CurrentWeather,
  hourly: z.array(HourForecast),
  daily: z.array(DayForecast),
});
export type Forecast = z.infer<typeof Forecast>;

export const WeatherResponse = z.discriminatedUnion('configured', [
  z.object({ configured: z.literal(false) }),
  Forecast.extend({ configured: z.literal(true), location: Location, credit: z.string() }).extend(Freshness.shape),
]);
export type WeatherResponse = z.infer<typeof WeatherResponse>;

export const OnThisDayPage = z.object({ title: z.string(), url: z.string() });
export const OnThisDayItem = z.object({ year: z.number().int().nullable(), text: z.string(), pages: z.array(OnThisDayPage) });
export type OnThisDayItem = z.infer<typeof OnThisDayItem>;
export const OnThisDayDay = z.object({
  selected: z.array(OnThisDayItem),
  events: z.array(OnThisDayItem),
  births: z.array(OnThisDayItem),
  deaths: z.array(OnThisDayItem),
  holidays: z.array(OnThisDayItem),
});
export type OnThisDayDay = z.infer<typeof OnThisDayDay>;
export const OnThisDayQuery = z.object({
  date: z
    .string()
    .regex(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'date is MM-DD, e.g. 05-20.')
    .refine((d) => !Number.isNaN(Date.parse(`2024-${d}T00:00:00Z`)) && new Date(`2024-${d}T00:00:00Z`).toISOString().slice(5, 10) === d, 'That day does not exist.')
    .optional(),
});
export const OnThisDayResponse = OnThisDayDay.extend({
  date: z.string(),
  language: z.string(),
  /** Wikipedia's feed, or the household's installed Wikipedia archive (offline; links open the archive viewer). */
  origin: z.enum(['wikipedia', 'archive']),
  credit: z.string(),
}).extend(Freshness.shape);
export type OnThisDayResponse = z.infer<typeof OnThisDayResponse>;

export const SetLanguageBody = z.strictObject({
  language: z.enum(ON_THIS_DAY_LANGUAGES, { error: `language is one of ${ON_THIS_DAY_LANGUAGES.join(', ')} (the languages Wikipedia's "on this day" exists in).` }),
});
export const LanguageResponse = z.object({ language: z.string() });

export const TODAY_SOURCES = ['weather', 'on-this-day', 'news'] as const;
export const RefreshBody = z.strictObject({ source: z.enum(TODAY_SOURCES, { error: 'source is weather, on-this-day or news.' }) });
export const RefreshResponse = z.object({ source: z.string(), outcome: z.enum(['fetched', 'not_modified', 'skipped', 'gone', 'failed', 'nothing_to_do']), lastError: z.string().nullable() });
export type RefreshResponse = z.infer<typeof RefreshResponse>;

export const SourceStatus = z.object({
  source: z.string(),
  host: z.string(),
  sends: z.string(),
  lastFetch: z.string().nullable(),
  lastError: z.string().nullable(),
  nextPoll: z.string().nullable(),
});
export const BriefingSettingsResponse = z.object({
  location: Location.nullable(),
  language: z.string(),
  units: z.enum(UNIT_SYSTEMS),
  weatherSource: z.enum(WEATHER_SOURCES),
  sections: Sections,
  offline: z.boolean(),
  sources: z.array(SourceStatus),
});
export type BriefingSettingsResponse = z.infer<typeof BriefingSettingsResponse>;

// ——— News ———
export const NEWS_MAX_LIMIT = 100;
export const MAX_OPML_BYTES = 1024 * 1024;

export const NewsFeed = z.object({
  id: z.number().int(),
  url: z.string(),
  title: z.string(),
  siteUrl: z.string().nullable(),
  category: z.string().nullable(),
  state: z.enum(['active', 'gone']),
  itemCount: z.number().int(),
  lastFetch: z.string().nullable(),
  lastError: z.string().nullable(),
  nextPoll: z.string().nullable(),
});
export type NewsFeed = z.infer<typeof NewsFeed>;
export const NewsFeedsResponse = z.object({ feeds: z.array(NewsFeed) });
export type NewsFeedsResponse = z.infer<typeof NewsFeedsResponse>;
export const AddFeedBody = z.strictObject({
  url: z
    .string({ error: 'Give the feed’s or the site’s address.' })
    .trim()
    .min(1, 'Give the feed’s or the site’s address.')
    .max(2000, 'An address is at most 2000 characters.')
    .refine((u) => /^https?:\/\/[^\s]+$/i.test(u), 'The address starts with http:// or https://.'),
});
export const FeedParams = z.object({ id: z.coerce.number({ error: 'That feed does not exist.' }).int().positive('That feed does not exist.') });
export const OpmlImportResponse = z.object({ added: z.array(NewsFeed), existing: z.number().int(), skipped: z.number().int() });
export type OpmlImportResponse = z.infer<typeof OpmlImportResponse>;

export const NewsQuery = z.object({
  limit: z.coerce.number({ error: 'limit is a number.' }).int().min(1, 'limit is 1 to 100.').max(NEWS_MAX_LIMIT, 'limit is 1 to 100.').default(30),
  feedId: z.coerce.number({ error: 'feedId is a number.' }).int().positive().optional(),
  before: z
    .string()
    .refine((s) => !Number.isNaN(Date.parse(s)), 'before is a date and time, e.g. 2026-05-14T07:30:00Z.')
    .optional(),
});
export type NewsQuery = z.infer<typeof NewsQuery>;
export const NewsItem = z.object({
  id: z.string(),
  feedId: z.number().int(),
  feedTitle: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  summary: z.string(),
  publishedAt: z.string().nullable(),
  imageUrl: z.string().nullable(),
});
export type NewsItem = z.infer<typeof NewsItem>;
export const MemberFeed = z.object({ id: z.number().int(), title: z.string(), hidden: z.boolean(), stale: z.boolean() });
export const NewsResponse = z.object({
  items: z.array(NewsItem),
  feeds: z.array(MemberFeed),
  source: z.literal('news'),
  fetchedAt: z.string().nullable(),
  ageSeconds: z.number().int().min(0).nullable(),
  stale: z.boolean(),
});
export type NewsResponse = z.infer<typeof NewsResponse>;
export const HiddenBody = z.strictObject({ hidden: z.boolean({ error: 'hidden is true or false.' }) });
export const HiddenResponse = z.object({ feedId: z.number().int(), hidden: z.boolean() });

// ——— The morning briefing (built from cached copies only) ———
export const BriefingResponse = z.object({
  date: z.string(),
  weather: z
    .object({ location: z.string(), temperature: z.number().nullable(), description: z.string(), min: z.number().nullable(), max: z.number().nullable(), rainChance: z.number().nullable() })
    .extend(Freshness.shape)
    .nullable(),
  /** Why there is no weather (switched off, not set up, not fetched yet); null when there is. */
  weatherNote: z.string().nullable(),
  /** Which sections the admin has on (a section off is left out of the briefing and its summary). */
  sections: Sections,
  headlines: z.array(NewsItem),
  onThisDay: z.array(OnThisDayItem),
  onThisDayFreshness: Freshness.nullable(),
  /** A few sentences in words, built from the facts above only. */
  sentences: z.array(z.string()),
  /** Today's matches of the teams the household follows (cached copies). */
  matches: z.array(z.lazy(() => Match)),
  /** When chat is ready: 3 spoken-style sentences by the household chat model from these facts only, kept for the morning. */
  summary: z.string().nullable(),
  /** Why there is no summary (a sentence); null when there is one. */
  summaryNote: z.string().nullable(),
});
export type BriefingResponse = z.infer<typeof BriefingResponse>;

// ——— Sports (TheSportsDB) ———
export const KEY_TEAMS = 'today.teams';
export const KEY_SPORTS_KEY = 'today.sportsKey';
export const MAX_TEAMS = 20;

/** A team as answered: `badgeUrl` is Hearth's own address of its badge (/api/sports/badges/:teamId), never TheSportsDB's. */
export const Team = z.object({ id: z.string(), name: z.string(), league: z.string().nullable(), sport: z.string(), country: z.string().nullable(), badgeUrl: z.string().nullable() });
export type Team = z.infer<typeof Team>;
/** A followed team as kept: with the outside address its badge is fetched from (once, by the server). */
export const StoredTeam = Team.extend({ badgeSource: z.string().nullable().optional() });
export type StoredTeam = z.infer<typeof StoredTeam>;
/** A badge as cached: the image's type and its bytes (base64). */
export const Badge = z.object({ type: z.string(), data: z.string() });
export type Badge = z.infer<typeof Badge>;
export const TeamSearchQuery = z.object({
  q: z.string({ error: 'Type a team to search for.' }).trim().min(2, 'Type at least 2 letters of the team.').max(100, 'A search is at most 100 characters.'),
});
export const TeamSearchResponse = z.object({ results: z.array(Team) });
export const FollowTeamBody = z.strictObject({ teamId: z.string({ error: 'teamId is the team’s id.' }).regex(/^\d{1,10}$/, 'teamId is the team’s id (digits).') });
export const TeamParams = z.object({ teamId: z.string().regex(/^\d{1,10}$/, 'That team is not followed.') });
export const TeamsResponse = z.object({ teams: z.array(Team) });
export const SportsKeyBody = z.strictObject({ key: z.string().trim().max(100, 'A key is at most 100 characters.').regex(/^[A-Za-z0-9]*$/, 'A key is letters and digits.') });
export const SportsKeyResponse = z.object({ ownKey: z.boolean() });

export const Match = z.object({
  id: z.string(),
  name: z.string(),
  league: z.string().nullable(),
  homeTeam: z.string(),
  awayTeam: z.string(),
  homeTeamId: z.string().nullable(),
  awayTeamId: z.string().nullable(),
  homeScore: z.number().int().nullable(),
  awayScore: z.number().int().nullable(),
  /** ISO time with the household's UTC offset. */
  startsAt: z.string().nullable(),
  status: z.string().nullable(),
  /** Being played now (TheSportsDB's status is neither "not started" nor finished, postponed or cancelled). */
  live: z.boolean(),
  venue: z.string().nullable(),
});
export type Match = z.infer<typeof Match>;
export const TeamSports = z.object({ team: Team, last: z.array(Match), next: z.array(Match), fetchedAt: z.string().nullable(), stale: z.boolean(), error: z.string().nullable() });
export const SportsResponse = z.object({ teams: z.array(TeamSports), source: z.literal('sports'), credit: z.string() });
export type SportsResponse = z.infer<typeof SportsResponse>;
export const SportsTodayResponse = z.object({ date: z.string(), matches: z.array(Match), stale: z.boolean(), fetchedAt: z.string().nullable(), error: z.string().nullable() });
export type SportsTodayResponse = z.infer<typeof SportsTodayResponse>;
