// Shows in the app store: the Shows App (on the Watch page) with every host it contacts.
import type { ToolDefinition } from '../tools/schema.js';

export const showTools: ToolDefinition[] = [
  {
    id: 'shows',
    name: 'Shows',
    description: 'Find TV shows, keep a private watchlist with the episodes you have seen (taken from your Plex when you link it) and see what airs next.',
    offline: false,
    examples: ['What airs next from my shows?', 'Put this show on my watchlist'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [
      { type: 'api', domain: 'api.tvmaze.com', purpose: 'Show search words and the guides of the shows on members’ watchlists' },
      { type: 'cdn', domain: 'static.tvmaze.com', purpose: 'Show posters, fetched once by Hearth' },
    ],
    category: 'Entertainment',
    icon: '📺',
  },
];
