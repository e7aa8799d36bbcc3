import type { ToolDefinition } from '../tools/schema.js';

export const readerTools: ToolDefinition[] = [
  {
    id: 'reader',
    name: 'Reader',
    description: 'Save links and articles to read later, even offline. Full-text search, collections and change alerts.',
    offline: false,
    examples: ['Save this article for later', 'Find the recipe I saved last week'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    // Saving a page fetches it from the website it lives on.
    dataSources: [{ type: 'web', domain: 'any website you save', purpose: 'Fetch the pages you save so they can be read offline' }],
    category: 'Reading',
    icon: '📖',
  },
];
