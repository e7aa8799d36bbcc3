// Today in the app store: the Today App (its page and home widgets) with every host it contacts,
// and the chat tools `weather` and `news` (Extensions of the same ids as the tools in chat-tool.ts).
import type { AvailabilityCheck, ToolDefinition } from '../tools/schema.js';
import { AVAILABLE, unavailable } from '../tools/schema.js';
import type { NewsService } from './news-service.js';
import type { WeatherService } from './weather-service.js';

export const todayTools: ToolDefinition[] = [
  {
    id: 'today',
    name: 'Today',
    description: 'The weather at home, the headlines of the feeds the household follows and what happened on this day, on Home and on its own page.',
    offline: false,
    examples: ['What is the weather this afternoon?', 'Show the morning headlines'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [
      { type: 'api', domain: 'api.open-meteo.com', purpose: 'The forecast for the household’s coordinates, rounded to about 1 km' },
      { type: 'api', domain: 'geocoding-api.open-meteo.com', purpose: 'The town search, only when an admin sets the place' },
      { type: 'api', domain: 'api.met.no', purpose: 'The forecast for the rounded coordinates, only when an admin chooses MET Norway instead of Open-Meteo' },
      { type: 'api', domain: 'wikipedia.org', purpose: 'On this day: the month, the day and the language' },
      { type: 'rss', domain: 'the site of each feed an admin adds', purpose: 'Headlines the household subscribed to' },
      { type: 'api', domain: 'www.thesportsdb.com', purpose: 'Results and fixtures of the teams the household follows' },
      { type: 'cdn', domain: 'r2.thesportsdb.com', purpose: 'The badges of the teams the household follows, fetched once by Hearth' },
    ],
    category: 'Everyday',
    icon: '☀️',
  },
  {
    id: 'weather',
    name: 'Weather in chat',
    description: 'Lets chat answer questions about the weather at home from Today’s forecast.',
    offline: true,
    examples: ['Will it rain this afternoon?'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [],
    category: 'Everyday',
    icon: '⛅',
  },
  {
    id: 'news',
    name: 'News in chat',
    description: 'Lets chat tell you the latest headlines of the feeds you follow, with links.',
    offline: true,
    examples: ['What are today’s headlines?'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [],
    category: 'Everyday',
    icon: '📰',
  },
];

/** The chat tools need chat; weather also a place an admin has set, news a feed the household follows. */
export function todayToolChecks(deps: { weather: Pick<WeatherService, 'location'>; news: Pick<NewsService, 'hasFeeds'>; chatReadiness: AvailabilityCheck }): Record<string, AvailabilityCheck> {
  return {
    today: () => Promise.resolve(AVAILABLE),
    weather: async () => ((await deps.weather.location()) ? deps.chatReadiness() : unavailable('The household’s place for the weather is not set yet.', 'An admin sets it in Admin, Today settings.')),
    news: async () => ((await deps.news.hasFeeds()) ? deps.chatReadiness() : unavailable('The household follows no news feeds yet.', 'An admin adds them in Admin, Today settings.')),
  };
}
