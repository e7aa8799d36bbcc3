import type { AvailabilityCheck, ToolDefinition } from '../tools/schema.js';

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
  {
    id: 'reader_search',
    name: 'Reader search',
    description: 'Lets chat find what you saved in the Reader, and the household links, with links to them. Only your own items and the household ones, never anyone else\'s.',
    offline: true,
    examples: ['Find the recipe I saved last week', 'What did that article I saved say about sleep?'],
    configSchema: {
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, maximum: 10, default: 3 } },
      additionalProperties: false,
    },
    dataSources: [],
    category: 'Reading',
    icon: '🔖',
  },
];

/** Reader search works whenever chat does (the Reader itself needs nothing else). */
export function readerToolChecks(deps: { chatReadiness: AvailabilityCheck }): Record<string, AvailabilityCheck> {
  return { reader_search: () => deps.chatReadiness() };
}
