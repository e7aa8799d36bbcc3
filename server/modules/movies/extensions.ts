// Films in the app store: the Films App (on the Watch page) with every host it contacts.
import type { ToolDefinition } from '../tools/schema.js';

export const movieTools: ToolDefinition[] = [
  {
    id: 'films',
    name: 'Films',
    description: 'Find films, keep a private watchlist (copied to your own Plex watchlist when you link Plex) and see which ones the household’s Plex already has.',
    offline: false,
    examples: ['Find a film and put it on my watchlist', 'Is this film in our Plex?'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [
      { type: 'api', domain: 'discover.provider.plex.tv', purpose: 'Film search words, a film looked up by its ids, and your watchlist changes, with your own Plex account, only when you linked it' },
      { type: 'cdn', domain: 'metadata-static.plex.tv', purpose: 'Posters of Plex’s catalogue, fetched once by Hearth' },
      { type: 'api', domain: 'api.themoviedb.org', purpose: 'Film search words and film details, only when an admin added a TMDB token' },
      { type: 'cdn', domain: 'image.tmdb.org', purpose: 'Film posters from TMDB, fetched once by Hearth' },
    ],
    category: 'Entertainment',
    icon: '🎬',
  },
];
