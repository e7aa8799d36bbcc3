// Podcasts in the app store: the Podcasts App (the Listen page) with every host it contacts.
import type { ToolDefinition } from '../tools/schema.js';

export const podcastTools: ToolDefinition[] = [
  {
    id: 'podcasts',
    name: 'Podcasts',
    description: 'Search and follow podcasts, with each member’s own inbox and progress, and episodes kept for offline listening.',
    offline: false,
    examples: ['Find a podcast about gardening', 'What is new in my podcasts?'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [
      { type: 'api', domain: 'itunes.apple.com', purpose: 'Podcast search terms' },
      { type: 'web', domain: 'is1-ssl.mzstatic.com', purpose: 'The artwork of search results, which your browser loads from Apple' },
      { type: 'rss', domain: 'the host of each podcast feed a member follows', purpose: 'The feed of each followed show, checked about hourly' },
      { type: 'cdn', domain: 'the host of each followed show’s cover', purpose: 'The cover named by the feed, fetched once by Hearth' },
      { type: 'cdn', domain: 'the host of each episode’s audio (often an analytics redirector)', purpose: 'Episode audio, played through Hearth or kept for offline listening' },
      { type: 'api', domain: 'api.podcastindex.org', purpose: 'Podcast search terms, only when an admin adds a Podcast Index key (then searched instead of Apple’s directory)' },
    ],
    category: 'Entertainment',
    icon: '🎙️',
  },
];
